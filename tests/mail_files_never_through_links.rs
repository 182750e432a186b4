//! No file or folder of a game or of a Maildir is read or written through a symbolic link
//! (`O_NOFOLLOW`, and a link in place of a folder refused): a link put in place of a game's
//! `outbox/`, `mail-state.yaml`, `mail.yaml` or `clock-mail.yaml`, of a Maildir's `cur/`,
//! `twilight-refused/` or of a mail in `new/` is refused — what it points to is neither
//! written nor shown in an error or a mail. Every file holding a token is 0600.

#![cfg(unix)]

mod mail_common;

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;

use mail_common::*;

/// What the link points to: a file whose text must never show.
const SECRET: &str = "root:TOP-SECRET-TEXT:0:0";

/// A table whose first prompt (the USSR setup placement) is in the game's outbox, with a
/// secret file and an empty folder outside it.
fn table(gid: &str) -> (Table, Mail) {
    let t = Table::new(gid, 11);
    let o = t.twilight(&["mail", &t.game_arg(), "--outbox"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mails = read_mails(&files_in(&t.dir.join("outbox")), gid, &t.ussr);
    std::fs::write(t.tmp.path().join("secret.txt"), SECRET).unwrap();
    std::fs::create_dir(t.tmp.path().join("elsewhere")).unwrap();
    (t, mails[0].clone())
}

fn reply_to(t: &mut Table, m: &Mail, token: Option<&str>) -> std::path::PathBuf {
    let body = match token {
        Some(tok) => format!("influence Poland 4, East Germany 2\n\nToken: {tok}\n"),
        None => "influence Poland 4, East Germany 2\n".to_string(),
    };
    let ussr = t.ussr.clone();
    t.reply(&ussr, &format!("Re: {}", m.subject), None, &body)
}

fn nothing_elsewhere(t: &Table) {
    let n = std::fs::read_dir(t.tmp.path().join("elsewhere"))
        .unwrap()
        .count();
    assert_eq!(n, 0, "a file was written through the link");
}

fn no_secret(o: &std::process::Output, t: &Table) {
    let all = format!("{}{}", stdout(o), stderr(o));
    assert!(!all.contains("TOP-SECRET"), "{all}");
    for f in files_in(&t.inbox.join("twilight-failed"))
        .into_iter()
        .chain(files_in(&t.inbox.join("twilight-refused")))
        .chain(files_in(&t.dir.join("outbox")))
    {
        // A link filed unread stays a link: what it points to is not the program's to show.
        if std::fs::symlink_metadata(&f)
            .unwrap()
            .file_type()
            .is_symlink()
        {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        assert!(!text.contains("TOP-SECRET"), "{}: {text}", f.display());
    }
}

/// A linked `outbox/`: the move stands (it is the player's), but no mail is written through
/// the link; the run says why.
#[test]
fn a_linked_outbox_is_never_written_through() {
    let (mut t, m) = table("l-outbox");
    let outbox = t.dir.join("outbox");
    std::fs::rename(&outbox, t.tmp.path().join("old-outbox")).unwrap();
    symlink(t.tmp.path().join("elsewhere"), &outbox).unwrap();
    reply_to(&mut t, &m, m.token().as_deref());
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    nothing_elsewhere(&t);
}

/// A link in place of one of the game's mail files: the mail fails, naming the link, and the
/// text it points to shows nowhere.
#[test]
fn linked_mail_files_of_a_game_are_never_read_through() {
    for file in ["mail-state.yaml", "mail.yaml"] {
        let (mut t, m) = table(&format!("l-{}", &file[..4]));
        let path = t.dir.join(file);
        let _ = std::fs::remove_file(&path);
        symlink(t.tmp.path().join("secret.txt"), &path).unwrap();
        // No token: the refusal's answer reads the game's mail files.
        reply_to(&mut t, &m, None);
        let before = t.log_bytes();
        let o = t.inbox(&["--outbox"]);
        assert_eq!(t.log_bytes(), before, "{file}");
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert!(all.contains("symbolic link"), "{file}: {all}");
        no_secret(&o, &t);
    }
}

/// A linked `clock-mail.yaml` of a game under a time control: `remind` refuses it and shows
/// nothing of its target.
#[test]
fn a_linked_clock_mail_file_is_never_read_through() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let d = dir.to_string_lossy().into_owned();
    let o = run_twilight(&[
        "new",
        &d,
        "--us",
        "a@ts.test",
        "--ussr",
        "b@ts.test",
        "--days-per-move",
        "3",
        "--outbox",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (side, nonce) in [("us", "x"), ("ussr", "y")] {
        let o = run_twilight(&["join", &d, "--as", side, "--nonce", nonce, "--outbox"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    std::fs::write(tmp.path().join("secret.txt"), SECRET).unwrap();
    symlink(tmp.path().join("secret.txt"), dir.join("clock-mail.yaml")).unwrap();
    let o = run_twilight(&["remind", &d, "--outbox"]);
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!o.status.success(), "{all}");
    assert!(
        all.contains("clock-mail.yaml") && all.contains("symbolic link"),
        "{all}"
    );
    assert!(!all.contains("TOP-SECRET"), "{all}");
}

/// A link in `new/` is filed as failed unread (the link itself moved, its target untouched); a
/// linked `cur/` or `twilight-refused/` is never written through.
#[test]
fn links_in_a_maildir_are_never_read_or_written_through() {
    let (mut t, m) = table("l-maildir");
    let link = t.inbox.join("new").join("1700000000.link");
    symlink(t.tmp.path().join("secret.txt"), &link).unwrap();
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(19), "{}{}", stdout(&o), stderr(&o));
    let failed = t.inbox.join("twilight-failed");
    assert!(std::fs::symlink_metadata(failed.join("1700000000.link"))
        .unwrap()
        .file_type()
        .is_symlink());
    let reason = std::fs::read_to_string(failed.join("1700000000.link.reason.txt")).unwrap();
    assert!(
        reason.contains("a symbolic link in the Maildir, never read through"),
        "{reason}"
    );
    assert_eq!(
        std::fs::read_to_string(t.tmp.path().join("secret.txt")).unwrap(),
        SECRET
    );
    no_secret(&o, &t);

    // A linked twilight-refused/: the refused mail is not filed (it stays for the next run),
    // and no answer lands elsewhere.
    symlink(
        t.tmp.path().join("elsewhere"),
        t.inbox.join("twilight-refused"),
    )
    .unwrap();
    let f = reply_to(&mut t, &m, Some("ABCD-EFGH-JKMN-PQRS"));
    let o = t.inbox(&["--outbox"]);
    assert!(stderr(&o).contains("could not be filed"), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    nothing_elsewhere(&t);
    let _ = f;

    // A linked cur/: nothing is moved into it.
    std::fs::remove_file(t.inbox.join("twilight-refused")).unwrap();
    let cur = t.inbox.join("cur");
    std::fs::rename(&cur, t.tmp.path().join("old-cur")).unwrap();
    symlink(t.tmp.path().join("elsewhere"), &cur).unwrap();
    reply_to(&mut t, &m, m.token().as_deref());
    let o = t.inbox(&["--outbox"]);
    assert!(stderr(&o).contains("could not be filed"), "{}", stderr(&o));
    nothing_elsewhere(&t);
}

/// The answer to a refused mail, kept in the Maildir, holds a live token: 0600, as every mail
/// in the outbox.
#[test]
fn every_file_holding_a_token_is_private() {
    let (mut t, m) = table("l-modes");
    let f = reply_to(&mut t, &m, Some("ABCD-EFGH-JKMN-PQRS"));
    let o = t.inbox(&["--outbox"]);
    assert_eq!(o.status.code(), Some(14), "{}{}", stdout(&o), stderr(&o));
    let name = f.file_name().unwrap().to_string_lossy().into_owned();
    let kept = t.inbox.join("twilight-refused").join(format!("{name}.txt"));
    assert!(std::fs::read_to_string(&kept).unwrap().contains("Token: "));
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&kept), 0o600);
    for f in files_in(&t.dir.join("outbox")) {
        assert_eq!(mode(&f), 0o600, "{}", f.display());
    }
    assert_eq!(mode(&t.dir.join("mail-state.yaml")), 0o600);
    assert_eq!(mode(&t.games.join(".refusal-limit.yaml")), 0o600);
}
