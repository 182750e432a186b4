//! How many refusals one address is mailed: at most [`REFUSALS_PER_HOUR`] in any hour, per
//! game. A refusal goes only to a player of the game, but anyone can send mail `From:` a
//! player's address: without a limit, a flood of forged mails would be answered one for one,
//! into the player's mailbox. Past the limit a refused mail is filed and reported as usual but
//! not answered; the next refusal mailed to that address says how many were not ("K more
//! mails refused since …").
//!
//! The count is kept per game in `GAME_DIR/refusal-limit.yaml` ([`REFUSAL_LIMIT_FILE`], mode
//! 0600, written whole), and updated under the game's lock before the refusal is sent: a
//! refusal that could not be sent still counts.

use std::path::Path;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::mail::{bare_address, MailError};

/// At most this many refusal mails go to one address in any hour, per game.
pub const REFUSALS_PER_HOUR: usize = 5;

/// The file in the game folder that counts the refusals mailed ([`RefusalLimits`]).
pub const REFUSAL_LIMIT_FILE: &str = "refusal-limit.yaml";

/// `GAME_DIR/refusal-limit.yaml`: the refusals mailed to each address in the last hour, and
/// those not mailed since.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RefusalLimits {
    /// One record an address that was refused.
    #[serde(default)]
    pub addresses: Vec<AddressRefusals>,
}

/// The refusals of one address.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AddressRefusals {
    /// The address, bare and lower case.
    pub address: String,
    /// When each refusal mailed to it in the last hour was mailed, oldest first.
    #[serde(default)]
    pub mailed: Vec<DateTime<Utc>>,
    /// Mails refused and not answered since [`AddressRefusals::unanswered_since`].
    #[serde(default)]
    pub unanswered: u64,
    /// When the first of those was refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unanswered_since: Option<DateTime<Utc>>,
}

/// Whether a refusal is mailed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owed {
    /// Mailed, with the sentence saying how many refusals before it were not, if any.
    Answer(Option<String>),
    /// Not mailed: [`REFUSALS_PER_HOUR`] were mailed to the address in the last hour.
    Withheld,
}

impl RefusalLimits {
    /// Reads `GAME_DIR/refusal-limit.yaml`; empty if there is none (a link is refused).
    ///
    /// # Errors
    ///
    /// [`MailError::File`] naming the file.
    pub fn load(game_dir: &Path) -> Result<RefusalLimits, MailError> {
        crate::mail::read_yaml(&game_dir.join(REFUSAL_LIMIT_FILE))
    }

    /// Replaces `GAME_DIR/refusal-limit.yaml` whole, mode 0600.
    ///
    /// # Errors
    ///
    /// [`MailError::File`] naming the file.
    pub fn save(&self, game_dir: &Path) -> Result<(), MailError> {
        let path = game_dir.join(REFUSAL_LIMIT_FILE);
        let err = |m: String| MailError::File {
            path: path.clone(),
            message: m,
        };
        let text = serde_yaml::to_string(self).map_err(|e| err(e.to_string()))?;
        crate::gamefs::atomic_write(&path, text.as_bytes(), "refusal-limit")
            .map_err(|e| err(e.to_string()))
    }

    /// Counts a refusal of a mail from `address` at `now` and says whether it is mailed: yes
    /// while fewer than [`REFUSALS_PER_HOUR`] were mailed to it in the hour before `now`
    /// (with the sentence about those withheld since the last one, if any), else no.
    pub fn owe(&mut self, address: &str, game: &str, now: DateTime<Utc>) -> Owed {
        let address = bare_address(address);
        let i = match self.addresses.iter().position(|a| a.address == address) {
            Some(i) => i,
            None => {
                self.addresses.push(AddressRefusals {
                    address: address.clone(),
                    ..AddressRefusals::default()
                });
                self.addresses.len() - 1
            }
        };
        let a = &mut self.addresses[i];
        let hour_ago = now - Duration::hours(1);
        a.mailed.retain(|t| *t > hour_ago && *t <= now);
        if a.mailed.len() >= REFUSALS_PER_HOUR {
            a.unanswered += 1;
            a.unanswered_since.get_or_insert(now);
            return Owed::Withheld;
        }
        a.mailed.push(now);
        let summary = a.unanswered_since.take().map(|since| {
            format!(
                "{} more {} from {address} to game {game} {} refused since {} and not \
                 answered: at most {REFUSALS_PER_HOUR} refusals an hour are mailed to one \
                 address.",
                a.unanswered,
                if a.unanswered == 1 { "mail" } else { "mails" },
                if a.unanswered == 1 { "was" } else { "were" },
                since.format("%Y-%m-%d %H:%M UTC")
            )
        });
        a.unanswered = 0;
        Owed::Answer(summary)
    }
}

/// Counts a refusal to `address` in the game in `dir` ([`RefusalLimits::owe`]) and saves the
/// count; call it holding the game's lock.
///
/// # Errors
///
/// [`MailError::File`] if the count cannot be read or saved.
pub(super) fn owe(
    dir: &Path,
    address: &str,
    game: &str,
    now: DateTime<Utc>,
) -> Result<Owed, MailError> {
    let mut limits = RefusalLimits::load(dir)?;
    let owed = limits.owe(address, game, now);
    limits.save(dir)?;
    Ok(owed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn at_most_the_limit_an_hour_then_a_count_of_those_withheld() {
        let t0 = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
        let mut l = RefusalLimits::default();
        let at = |m: i64| t0 + Duration::minutes(m);
        for m in 0..REFUSALS_PER_HOUR as i64 {
            assert_eq!(l.owe("Boris <B@x.test>", "g1", at(m)), Owed::Answer(None));
        }
        for m in 10..17 {
            assert_eq!(l.owe("b@x.test", "g1", at(m)), Owed::Withheld, "minute {m}");
        }
        // Another address has its own count.
        assert_eq!(l.owe("a@x.test", "g1", at(20)), Owed::Answer(None));
        // An hour after the first refusal, one more may go: it says how many were withheld.
        let Owed::Answer(Some(s)) = l.owe("b@x.test", "g1", at(61)) else {
            panic!("the refusal after an hour is mailed with a count");
        };
        assert_eq!(
            s,
            "7 more mails from b@x.test to game g1 were refused since 2026-11-30 12:10 UTC and \
             not answered: at most 5 refusals an hour are mailed to one address."
        );
        // The count starts again; the hour slides.
        for m in 62..=65 {
            assert_eq!(
                l.owe("b@x.test", "g1", at(m)),
                Owed::Answer(None),
                "minute {m}"
            );
        }
        assert_eq!(l.owe("b@x.test", "g1", at(66)), Owed::Withheld);
    }

    #[cfg(unix)]
    #[test]
    fn the_count_is_kept_in_a_private_file_and_a_link_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 30, 12, 0, 0).unwrap();
        for _ in 0..REFUSALS_PER_HOUR {
            assert_eq!(
                owe(d.path(), "b@x.test", "g", now).unwrap(),
                Owed::Answer(None)
            );
        }
        assert_eq!(owe(d.path(), "b@x.test", "g", now).unwrap(), Owed::Withheld);
        let f = d.path().join(REFUSAL_LIMIT_FILE);
        assert_eq!(
            std::fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o600
        );
        std::fs::remove_file(&f).unwrap();
        let secret = d.path().join("elsewhere");
        std::fs::write(&secret, "addresses: []\n").unwrap();
        std::os::unix::fs::symlink(&secret, &f).unwrap();
        let e = owe(d.path(), "b@x.test", "g", now).unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
    }
}
