//! Never lost (design §9; `twilight_pbem::mail::queue`): `kill -9` at every mutating system
//! call of `inbox`, `play`, `remind` and `mail`, then one more run of a command, delivers
//! every mail the game owes exactly once and times out no side that was not prompted in time.
//! The sweep itself is `tests/outbox_crash_common/mod.rs`; `tools/outbox_crash_sweep.sh`
//! runs it over many more positions.

mod outbox_crash_common;

use outbox_crash_common::{strace_works, sweep, Cmd, Fixture};

/// Sweeps `cmds` over a fixture of `moves` decisions, every kill point; prints the counts.
fn sweep_all(name: &str, moves: usize, k: u64, cmds: &[Cmd]) -> usize {
    if !strace_works() {
        // CI installs strace (`.ci/run`); a machine without it cannot inject the kills.
        assert!(
            std::env::var_os("CI").is_none(),
            "strace is needed for the kill sweep"
        );
        eprintln!("strace cannot trace here: {name} skipped");
        return 0;
    }
    let tmp = tempfile::tempdir().unwrap();
    let fx = Fixture::new(&tmp.path().join("fixture"), moves, k);
    let mut total = 0;
    for &cmd in cmds {
        let scratch = tmp.path().join(format!("{cmd:?}"));
        std::fs::create_dir_all(&scratch).unwrap();
        let (run, killed, committed) = sweep(cmd, &fx, &scratch, 1);
        eprintln!(
            "{name}: {cmd:?}: {run} kill points, {killed} kills landed, {committed} with the change in the log"
        );
        assert!(
            killed * 10 >= run * 9,
            "{cmd:?}: most kills land ({killed} of {run})"
        );
        total += run;
    }
    total
}

#[test]
fn a_kill_at_every_write_of_inbox_and_play_in_the_setup_loses_no_mail() {
    let n = sweep_all("setup", 0, 1, &[Cmd::Inbox, Cmd::Play]);
    eprintln!("setup: {n} kill points");
}

#[test]
fn a_kill_at_every_write_of_remind_and_mail_loses_no_mail() {
    let n = sweep_all("remind and mail", 0, 2, &[Cmd::Remind, Cmd::Mail]);
    eprintln!("remind and mail: {n} kill points");
}

#[test]
fn a_kill_at_every_write_of_inbox_and_play_in_the_headlines_loses_no_mail() {
    let n = sweep_all("headlines", 2, 3, &[Cmd::Inbox, Cmd::Play, Cmd::Remind]);
    eprintln!("headlines: {n} kill points");
}
