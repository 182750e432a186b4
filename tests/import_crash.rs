//! `twilight import` stopped by a crash (`TWILIGHT_CRASH_AT`, the test-only hook, at each write
//! boundary) never leaves a folder that cannot be imported again (an empty or torn `log.yaml`
//! that `verify` reports and every rerun refuses with "already exists", or a complete log
//! without its `import-report.yaml`): a rerun sets the torn bytes aside, imports the game
//! whole, and the report is always beside the log.

use std::path::Path;
use std::process::{Command, Output};

/// A synthetic digital-edition log (the format of `../shared/real-games/`): the setup and a
/// headline phase.
const SOURCE: &str = "SETUP: : Alpha will play as USSR.
Beta will play as USA.
Handicap influence: US +2
Scenario: Standard
Optional Cards Added
USSR +3 in Poland [0][3]
USSR +1 in East Germany [0][4]
USSR +1 in Hungary [0][1]
USSR +1 in Romania [0][1]
US +4 in West Germany [4][0]
US +3 in France [3][0]
US +1 in Italy [1][0]
US +1 in Turkey [1][0]

Turn 1, Headline Phase: Olympic Games & Duck and Cover: USSR Headlines Olympic Games
US Headlines Duck and Cover
Event: Duck and Cover
DEFCON degrades to 4
US gains 1 VP. Score is US 1.

Event: Olympic Games
US chooses to participate
";

fn twilight(args: &[&str], crash_at: Option<&str>) -> Output {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("twilight"));
    c.args(args);
    match crash_at {
        Some(p) => c.env("TWILIGHT_CRASH_AT", p),
        None => c.env_remove("TWILIGHT_CRASH_AT"),
    };
    c.output().unwrap()
}

fn import(src: &Path, out: &Path, crash_at: Option<&str>) -> Output {
    let (s, o) = (src.to_str().unwrap(), out.to_str().unwrap());
    twilight(&["import", "digital-edition", s, "--out", o], crash_at)
}

fn entries(dir: &Path) -> usize {
    let bytes = std::fs::read(dir.join("log.yaml")).unwrap();
    let report = twilight_pbem::log::verify_chain(&bytes, None);
    assert!(report.is_clean(), "{report}");
    report.documents.len()
}

#[test]
fn an_import_stopped_by_a_crash_at_any_write_can_be_run_again() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("synthetic.txt");
    std::fs::write(&src, SOURCE).unwrap();
    let reference = tmp.path().join("reference");
    let out = import(&src, &reference, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = entries(&reference);

    let points = [
        "import-report-temp",
        "import-report",
        "journal-temp",
        "journal",
        "log-write:0",
        "log-write:300",
        "log-synced",
        "journal-removed",
    ];
    for (i, point) in points.iter().enumerate() {
        let dir = tmp.path().join(format!("crashed-{i}"));
        let crashed = import(&src, &dir, Some(point));
        assert_eq!(crashed.status.code(), None, "{point}: the hook aborts");
        let again = import(&src, &dir, None);
        let stderr = String::from_utf8_lossy(&again.stderr);
        // A crash after the whole log reached the disk leaves a complete import: nothing to
        // do again, and it is refused as such; any earlier crash is imported again.
        let complete = matches!(*point, "log-synced" | "journal-removed");
        if complete {
            assert_eq!(again.status.code(), Some(2), "{point}: {stderr}");
            assert!(stderr.contains("already exists"), "{point}: {stderr}");
        } else {
            assert!(again.status.success(), "{point}: {stderr}");
        }
        if point.starts_with("log-write:3") {
            assert!(stderr.contains("set aside in"), "{point}: {stderr}");
        }
        assert_eq!(entries(&dir), want, "{point}");
        assert!(dir.join("import-report.yaml").is_file(), "{point}");
        assert!(!dir.join("log.yaml.pending").exists(), "{point}");
        let verify = twilight(&["verify", dir.to_str().unwrap()], None);
        assert!(
            verify.status.success(),
            "{point}: {}",
            String::from_utf8_lossy(&verify.stdout)
        );
    }
}
