//! The replay page as a person sees it: `export --html` of a complete bundled game opened in
//! headless Chromium (Debian's `chromium`; `.ci/run` installs it), screenshotted, stepped with
//! the Right arrow key, screenshotted again; the board must change and no script or console
//! error may be logged. The driver is `tools/browser_check.py` (DevTools protocol over a pipe,
//! no network port). The screenshots are kept in `target/browser-check/` to look at.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_replay_page_steps_with_the_keyboard_in_headless_chromium() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("target/browser-check");
    std::fs::create_dir_all(&out).unwrap();
    let page = out.join("example-complete.html");
    let status = Command::new(env!("CARGO_BIN_EXE_twilight"))
        .args([
            "export",
            root.join("games/example-complete").to_str().unwrap(),
            "--html",
        ])
        .arg(&page)
        .status()
        .unwrap();
    assert!(status.success());
    let run = Command::new("python3")
        .arg(root.join("tools/browser_check.py"))
        .arg(&page)
        .arg(&out)
        .arg("3")
        .output()
        .expect("python3 runs tools/browser_check.py");
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "browser check failed (exit {:?}): {report}\n{}\nChromium missing? `apt-get install chromium` (.ci/run does).",
        run.status.code(),
        String::from_utf8_lossy(&run.stderr)
    );
    let r: serde_json::Value = serde_json::from_str(report.trim()).unwrap();
    assert_eq!(r["ok"], true, "{report}");
    assert_eq!(r["step_before"], "0");
    assert_eq!(r["step_after"], "3");
    assert_eq!(r["findings"].as_array().unwrap().len(), 0);
    for shot in r["screenshots"].as_array().unwrap() {
        let bytes = std::fs::read(shot.as_str().unwrap()).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert!(
            bytes.len() > 50_000,
            "a screenshot of {} bytes shows no board",
            bytes.len()
        );
    }
}
