//! Handling several mails at once, each game's in arrival order: a mail spends most of its
//! time waiting for the SMTP server (its receipt and the next prompts), so `serve` hands the
//! mails of different games to a few threads (`--jobs`), while a game's second mail waits
//! until its first is done. A mail whose game its subject does not name (`[TS game]`) waits
//! for every earlier such mail.

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Condvar, Mutex};

use super::signals;
use crate::mail::inbound::game_from_subject;

/// The game a mail's subject names (`[TS game]`, letter case aside), read from its first
/// 64 KiB; `None` when no subject names one.
pub(super) fn game_key(file: &Path) -> Option<String> {
    let mut head = Vec::new();
    std::fs::File::open(file)
        .ok()?
        .take(64 << 10)
        .read_to_end(&mut head)
        .ok()?;
    let text = String::from_utf8_lossy(&head);
    let subject = text
        .split("\n")
        .take_while(|l| !l.trim_end_matches('\r').is_empty())
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("subject").then_some(value)
        })?;
    game_from_subject(subject).map(|g| g.to_ascii_lowercase())
}

/// Runs `judge` on every item of `items` on at most `jobs` threads, two items of one key
/// (`keys[i]`) never at once and each key's items in order, and `done` on each result as it
/// comes, on the calling thread. Once `stop` is set no item is started; those started finish.
pub(super) fn each_in_game_order<T: Sync, R: Send>(
    jobs: usize,
    items: &[T],
    keys: &[Option<String>],
    stop: &AtomicBool,
    judge: impl Fn(&T) -> R + Sync,
    mut done: impl FnMut(&T, R),
) {
    struct Board {
        started: Vec<bool>,
        busy: HashSet<Option<String>>,
    }
    let board = Mutex::new(Board {
        started: vec![false; items.len()],
        busy: HashSet::new(),
    });
    let freed = Condvar::new();
    let lock = || board.lock().unwrap_or_else(|e| e.into_inner());
    // The next item a thread may start: the first not started whose key is free.
    let take = || -> Option<usize> {
        let mut b = lock();
        loop {
            if signals::stopping(stop) || b.started.iter().all(|s| *s) {
                return None;
            }
            let mut blocked: HashSet<&Option<String>> = HashSet::new();
            let next = (0..items.len()).find(|&i| {
                if b.started[i] {
                    return false;
                }
                let free = !b.busy.contains(&keys[i]) && !blocked.contains(&keys[i]);
                // A later item of the same key waits for this one.
                blocked.insert(&keys[i]);
                free
            });
            if let Some(i) = next {
                b.started[i] = true;
                b.busy.insert(keys[i].clone());
                return Some(i);
            }
            b = freed.wait(b).unwrap_or_else(|e| e.into_inner());
        }
    };
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let (take, judge, freed, lock) = (&take, &judge, &freed, &lock);
            s.spawn(move || {
                while let Some(i) = take() {
                    let r = judge(&items[i]);
                    lock().busy.remove(&keys[i]);
                    freed.notify_all();
                    if tx.send((i, r)).is_err() {
                        return;
                    }
                }
                // Wake the others: they may be waiting for a key that is now free or for a
                // stop.
                freed.notify_all();
            });
        }
        drop(tx);
        for (i, r) in rx {
            done(&items[i], r);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn each_games_items_run_in_order_and_never_two_at_once() {
        let keys: Vec<Option<String>> = (0..60)
            .map(|i| match i % 4 {
                3 => None,
                k => Some(format!("g{k}")),
            })
            .collect();
        let items: Vec<usize> = (0..keys.len()).collect();
        let running: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(0)).collect();
        let order = Mutex::new(Vec::new());
        let stop = AtomicBool::new(false);
        let mut results = Vec::new();
        each_in_game_order(
            3,
            &items,
            &keys,
            &stop,
            |&i| {
                let k = i % 4;
                assert_eq!(
                    running[k].fetch_add(1, Ordering::SeqCst),
                    0,
                    "two of one game"
                );
                std::thread::sleep(std::time::Duration::from_millis(1));
                order.lock().unwrap().push(i);
                running[k].fetch_sub(1, Ordering::SeqCst);
                i * 10
            },
            |&i, r| results.push((i, r)),
        );
        assert_eq!(results.len(), 60);
        assert!(results.iter().all(|(i, r)| *r == i * 10));
        let order = order.into_inner().unwrap();
        for k in 0..4 {
            let of_k: Vec<usize> = order.iter().copied().filter(|i| i % 4 == k).collect();
            assert!(
                of_k.windows(2).all(|w| w[0] < w[1]),
                "game {k} out of order: {of_k:?}"
            );
        }
    }

    #[test]
    fn a_stop_starts_nothing_more() {
        let keys = vec![Some("a".to_string()); 5];
        let items: Vec<usize> = (0..5).collect();
        let stop = AtomicBool::new(false);
        let mut n = 0;
        each_in_game_order(
            2,
            &items,
            &keys,
            &stop,
            |_| stop.store(true, Ordering::SeqCst),
            |_, ()| n += 1,
        );
        assert_eq!(n, 1, "the item in hand finished, no other started");
    }

    #[test]
    fn a_subject_names_the_game() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("m");
        std::fs::write(
            &f,
            "From: a@b\r\nSubject: Re: [TS Game-1] Turn 1\r\n\r\nbody",
        )
        .unwrap();
        assert_eq!(game_key(&f), Some("game-1".into()));
        std::fs::write(&f, "From: a@b\r\n\r\nSubject: [TS g] in the body").unwrap();
        assert_eq!(game_key(&f), None);
    }
}
