//! What a log in memory holds of its file, the bytes a reply takes from it. Opened at its
//! replay snapshot's point, `Log::file_range` gives exactly the file's bytes for any entry
//! range — in the recent part parsed, in the prefix only hashed, and across the two — and
//! `Log::matches_file` (the file compared a 64 KB block at a time, never copied whole) is true
//! exactly when the file at the log's path is a regular file byte for byte what the log holds:
//! opened whole or at its snapshot point, with changes at every block boundary, a link, a
//! directory or a FIFO in its place (false, at once).

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use twilight_pbem::log::Log;
use twilight_pbem::session::Session;

mod game_common;
use game_common::{new_game, next_line, t0};

/// Plays `n` decisions (or until none is owed) with the first legal line each time.
fn play(dir: &Path, n: u64) {
    for k in 0..n {
        let (_lock, _) = Session::lock(dir).unwrap();
        let mut s = Session::open(dir).unwrap();
        let Some((side, line)) = next_line(&s, k) else {
            return;
        };
        s.play(side, std::slice::from_ref(&line), t0()).unwrap();
    }
}

#[test]
fn a_log_opened_at_its_snapshot_gives_the_files_bytes_and_knows_them() {
    let tmp = tempfile::tempdir().unwrap();
    // A random game long enough that the snapshot's log holds a prefix it did not parse.
    let dir = (1..40u8)
        .map(|seed| {
            let dir = new_game(tmp.path(), &format!("held{seed}"), seed);
            play(&dir, 200);
            dir
        })
        .find(|dir| {
            let (_lock, _) = Session::lock(dir).unwrap();
            Session::open(dir).unwrap().log().len() > 100
        })
        .expect("a game of over 100 entries");
    let path = dir.join("log.yaml");
    let file = std::fs::read(&path).unwrap();
    let (_lock, _) = Session::lock(&dir).unwrap();
    let s = Session::open(&dir).unwrap();
    let log = s.log();
    let recent = log.since(log.next_seq() - 1);
    let last = &recent[0].range;
    assert_eq!(last.end, file.len());
    // Every entry, the whole file, and ranges across every entry boundary.
    let entries = log.entries().to_vec();
    for (i, e) in entries.iter().enumerate() {
        let r = e.range.clone();
        assert_eq!(log.file_range(r.clone()).as_deref(), Some(&file[r.clone()]));
        let to = entries[(i + 40).min(entries.len() - 1)].range.end;
        assert_eq!(
            log.file_range(r.start..to).as_deref(),
            Some(&file[r.start..to])
        );
    }
    assert_eq!(log.file_range(0..file.len()).as_deref(), Some(&file[..]));
    assert_eq!(log.file_range(0..file.len() + 1), None);
    #[allow(clippy::reversed_empty_ranges)]
    let backwards = 5..4;
    assert_eq!(log.file_range(backwards), None);
    assert!(log.matches_file());
    // One byte more, one byte less, one byte changed in the prefix or at the end: not the file.
    let write = |bytes: &[u8]| std::fs::write(&path, bytes).unwrap();
    write(&[&file[..], b"\n"].concat());
    assert!(!log.matches_file());
    write(&file[..file.len() - 1]);
    assert!(!log.matches_file());
    for at in [10, file.len() / 3, file.len() - 2] {
        let mut changed = file.clone();
        changed[at] ^= 0x20;
        write(&changed);
        assert!(!log.matches_file(), "byte {at} changed");
    }
    write(&file);
    assert!(log.matches_file());
}

// ---- `Log::matches_file` and `Log::file_range` on the example game's log (three 64 KB
// blocks), and what stands in the log's place.

/// A copy of the example game's log (about 177 KB: three 64 KB blocks) in `dir`.
fn example_log(dir: &Path) -> (PathBuf, Vec<u8>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(root.join("games/example-complete/log.yaml")).unwrap();
    assert!(bytes.len() > 2 * 65536 + 1000, "{}", bytes.len());
    let path = dir.join("log.yaml");
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

/// `matches_file` of `log`, run on a thread: `None` if it has not answered in 20 seconds.
fn matches_within(log: &Log) -> Option<bool> {
    let log = log.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(log.matches_file());
    });
    rx.recv_timeout(Duration::from_secs(20)).ok()
}

/// The log opened whole and at its own point (the recent part parsed, the prefix only held).
fn both(path: &Path) -> Vec<(&'static str, Log)> {
    let whole = Log::open(path).unwrap();
    let point = whole.point().unwrap();
    assert!(point.recent_start > 2 * 65536, "{}", point.recent_start);
    let after = Log::open_after(path, &point)
        .unwrap()
        .expect("opens at its point");
    vec![("whole", whole), ("at its point", after)]
}

#[test]
fn matches_file_is_byte_for_byte_at_every_block_boundary() {
    let tmp = tempfile::tempdir().unwrap();
    let (path, file) = example_log(tmp.path());
    let n = file.len();
    let write = |bytes: &[u8]| std::fs::write(&path, bytes).unwrap();
    for (how, log) in both(&path) {
        assert!(log.matches_file(), "{how}");
        for at in [
            0,
            1,
            65535,
            65536,
            65537,
            131071,
            131072,
            131073,
            n - 65536,
            n - 1,
        ] {
            let mut changed = file.clone();
            changed[at] ^= 0x01;
            write(&changed);
            assert!(!log.matches_file(), "{how}: byte {at} changed");
            // The file cut just before that byte, and grown by one byte there.
            write(&file[..at]);
            assert!(!log.matches_file(), "{how}: cut to {at}");
            write(&[&file[..], &file[at..=at]].concat());
            assert!(!log.matches_file(), "{how}: grown by byte {at}");
        }
        for more in [1, 65536 - n % 65536, 65536, 65537] {
            write(&[&file[..], &vec![b'\n'; more][..]].concat());
            assert!(!log.matches_file(), "{how}: {more} bytes more");
        }
        write(b"");
        assert!(!log.matches_file(), "{how}: emptied");
        // Replaced under the same name by a new file with the same bytes: still the log.
        let other = tmp.path().join("other.yaml");
        std::fs::write(&other, &file).unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert!(log.matches_file(), "{how}: replaced by the same bytes");
    }
}

#[test]
fn matches_file_is_false_for_a_link_a_directory_or_a_fifo_in_the_logs_place() {
    let tmp = tempfile::tempdir().unwrap();
    let (path, file) = example_log(tmp.path());
    let logs = both(&path);
    // A symbolic link to a file with exactly the log's bytes: never followed.
    let target = tmp.path().join("target.yaml");
    std::fs::write(&target, &file).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&target, &path).unwrap();
    for (how, log) in &logs {
        assert_eq!(matches_within(log), Some(false), "{how}: a link");
    }
    // A directory.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    for (how, log) in &logs {
        assert_eq!(matches_within(log), Some(false), "{how}: a directory");
    }
    // A FIFO with no writer: opening it for reading must not wait for one.
    std::fs::remove_dir(&path).unwrap();
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for (how, log) in &logs {
        assert_eq!(matches_within(log), Some(false), "{how}: a FIFO");
    }
    // The file back: the log again.
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, &file).unwrap();
    for (how, log) in &logs {
        assert_eq!(matches_within(log), Some(true), "{how}: the file back");
    }
}

#[test]
fn a_staged_entry_never_matches_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (path, file) = example_log(tmp.path());
    // Cut before the reveal (nothing may follow it).
    let reveal = Log::open(&path)
        .unwrap()
        .entries()
        .last()
        .unwrap()
        .range
        .start;
    let file = file[..reveal].to_vec();
    std::fs::write(&path, &file).unwrap();
    for (how, mut log) in both(&path) {
        // The payload of a recent entry, staged again (the log-level rules allow some).
        let recent: Vec<_> = log.since(log.len() as u64 - 20).to_vec();
        let staged = recent.iter().rev().any(|e| {
            let e = e.entry.clone();
            log.stage(e.payload, e.by, e.at).is_ok()
        });
        assert!(staged, "{how}: nothing stages");
        assert!(!log.matches_file(), "{how}: staged");
        // Not even when the file holds the staged bytes too.
        let held = log.file_range(0..file.len() + 1).map(|b| b.len());
        assert_eq!(held, Some(file.len() + 1), "{how}");
        let end = log.since(log.next_seq() - 1)[0].range.end;
        std::fs::write(&path, log.file_range(0..end).unwrap()).unwrap();
        assert!(!log.matches_file(), "{how}: staged, on disk too");
        std::fs::write(&path, &file).unwrap();
        log.unstage_to(0);
        assert!(log.matches_file(), "{how}: unstaged");
    }
}

#[test]
fn file_range_is_the_files_bytes_for_every_range() {
    let tmp = tempfile::tempdir().unwrap();
    let (path, file) = example_log(tmp.path());
    let n = file.len();
    for (how, log) in both(&path) {
        let base = log.since(log.next_seq() - 1)[0].range.start;
        let mut cuts: Vec<usize> = vec![0, 1, 65535, 65536, 65537, 131072, n - 1, n, base];
        cuts.extend(log.entries().iter().step_by(7).map(|e| e.range.start));
        cuts.extend(
            log.since(log.len().saturating_sub(40) as u64)
                .iter()
                .map(|e| e.range.end),
        );
        for &a in &cuts {
            for &b in &cuts {
                let got = log.file_range(a..b);
                if a <= b {
                    assert_eq!(got.as_deref(), Some(&file[a..b]), "{how}: {a}..{b}");
                } else {
                    assert_eq!(got, None, "{how}: {a}..{b}");
                }
            }
            assert_eq!(log.file_range(a..n + 1), None, "{how}: {a}..past the end");
        }
        assert_eq!(log.file_range(n + 1..n + 2), None, "{how}");
        for e in log.entries() {
            let bytes = log.file_range(e.range.clone()).unwrap();
            assert_eq!(twilight_pbem::log::entry_hash(&bytes), e.hash, "{how}");
        }
    }
}

/// `gamefs::read_nofollow` sizes its buffer by the file's length, but reads to the end whatever
/// that length says: an empty file, a procfs file (length 0), and a file that grows while it
/// is read (each read is a prefix of the final bytes, at least as long as the file was).
#[test]
fn read_nofollow_reads_to_the_end_whatever_the_length_says() {
    use std::io::Write;
    use twilight_pbem::gamefs::read_nofollow;
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(read_nofollow(&empty).unwrap(), b"");
    let proc = Path::new("/proc/self/cmdline");
    assert_eq!(std::fs::metadata(proc).unwrap().len(), 0);
    let cmdline = read_nofollow(proc).unwrap();
    assert!(!cmdline.is_empty());
    assert_eq!(cmdline, std::fs::read(proc).unwrap());
    let growing = tmp.path().join("growing");
    let want: Vec<u8> = (0..600_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(&growing, &want[..100_000]).unwrap();
    let writer = {
        let (path, want) = (growing.clone(), want.clone());
        std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .unwrap();
            for chunk in want[100_000..].chunks(5_000) {
                f.write_all(chunk).unwrap();
                std::thread::sleep(Duration::from_micros(200));
            }
        })
    };
    let mut last = 100_000;
    while !writer.is_finished() {
        let got = read_nofollow(&growing).unwrap();
        assert!(
            got.len() >= last && got[..] == want[..got.len()],
            "{}",
            got.len()
        );
        last = got.len();
    }
    writer.join().unwrap();
    assert!(read_nofollow(&growing).unwrap() == want);
}

/// `f` run on a thread: `None` if it has not answered in 20 seconds.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(20)).ok()
}

/// A FIFO (no writer) in the place of `log.yaml` is refused at once, with an error, by every
/// opening: the log whole, at its point, and the game (which first looks for a crash to
/// recover from) — none waits for a writer that never comes.
#[test]
fn a_fifo_in_the_logs_place_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    std::fs::create_dir(&dir).unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (path, _) = example_log(&dir);
    std::fs::copy(
        root.join("games/example-complete/secret.yaml"),
        dir.join("secret.yaml"),
    )
    .unwrap();
    let point = Log::open(&path).unwrap().point().unwrap();
    std::fs::remove_file(&path).unwrap();
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let p = path.clone();
    let whole = within(move || Log::open(&p).map(|_| ()).map_err(|e| e.to_string()));
    let whole = whole.expect("Log::open answers");
    assert!(
        whole
            .as_ref()
            .is_err_and(|e| e.contains("not a regular file")),
        "{whole:?}"
    );
    let p = path.clone();
    let after = within(move || {
        Log::open_after(&p, &point)
            .map(|l| l.is_some())
            .map_err(|e| e.to_string())
    });
    let after = after.expect("Log::open_after answers");
    assert!(
        after
            .as_ref()
            .is_err_and(|e| e.contains("not a regular file")),
        "{after:?}"
    );
    let d = dir.clone();
    let game = within(move || {
        twilight_pbem::session::Session::open(&d)
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let game = game.expect("Session::open answers");
    assert!(
        game.as_ref()
            .is_err_and(|e| e.contains("not a regular file")),
        "{game:?}"
    );
}

/// `twilight verify` on a folder of games where one `log.yaml` is a FIFO (no writer) answers at
/// once, naming that folder as not verified, instead of waiting forever for a writer; the other
/// games of the folder are verified.
#[test]
fn verify_names_a_fifo_in_a_logs_place_without_waiting() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo_game = tmp.path().join("a");
    let good_game = tmp.path().join("b");
    for d in [&fifo_game, &good_game] {
        std::fs::create_dir(d).unwrap();
    }
    example_log(&good_game);
    let c =
        std::ffi::CString::new(fifo_game.join("log.yaml").as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let out = assert_cmd::Command::cargo_bin("twilight")
        .unwrap()
        .args(["verify", "--jobs", "1"])
        .arg(tmp.path())
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("a/log.yaml is not a plain file: no game to verify"),
        "{text}"
    );
    assert!(
        text.contains("1 game verified, 0 with findings, 1 folder not verified"),
        "{text}"
    );
}
