//! Creating a game: the checks on what entry 0 seals for good, the secret seed, and the
//! `create` entry that commits to it (design §2 "Commit before play").

use std::fs;
use std::path::Path;

use chrono::{DateTime, Utc};

use super::host::HostDeclaration;
use super::secret::{fresh_seed, write_secret};
use super::RULES_REVISION;
use super::{correspondence, game_id_of, seats, to_value, Secret, Session, SessionError};
use crate::chance::fairness;
use crate::engine::Options;
use crate::log::{Author, Hex32, Log, Payload, Players, Value};

/// Refuses what would break a game for good once sealed in its first entry: an address
/// that is not a plain e-mail address, the same address for both sides, a folder name that
/// cannot serve as the game id in mail subjects (letters, digits, `.`, `_`, `-`).
fn check_new_game(dir: &Path, players: &Players) -> Result<(), SessionError> {
    for (side, addr) in [("US", &players.us), ("USSR", &players.ussr)] {
        if addr.parse::<lettre::Address>().is_err()
            || addr.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(SessionError::State(format!(
                "the {side} address `{addr}` is not an e-mail address"
            )));
        }
    }
    if players.us.eq_ignore_ascii_case(&players.ussr) {
        return Err(SessionError::State(
            "the US and the USSR need two different addresses".into(),
        ));
    }
    let id = game_id_of(dir);
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        return Err(SessionError::State(format!(
            "the game folder's name `{id}` is the game id: use letters, digits, `.`, `_` and `-` only"
        )));
    }
    Ok(())
}

/// What entry 0 records besides the options and players: the correspondence settings (left
/// out when they are the defaults), the host's declaration, the seed and whether it is a test
/// seed.
struct Created<'a> {
    correspondence: Option<Value>,
    host: &'a HostDeclaration,
    seed: [u8; 32],
    test_seed: bool,
}

/// What to say of a game folder whose log holds no entry: a `twilight new` stopped (killed,
/// or failed) after it made the folder and before the game's first entry was whole.
pub fn incomplete_game(dir: &Path) -> String {
    format!(
        "{} is an incomplete game: it has no log.yaml, or one with no entry (a `twilight new` that did not \
         finish); run the same `twilight new {} --us EMAIL --ussr EMAIL …` again, which starts \
         it afresh",
        dir.display(),
        dir.display()
    )
}

impl Session {
    /// Creates a game in `dir` (which must not hold a log yet): the secret seed file and the
    /// `create` entry committing to it.
    pub fn create(
        dir: &Path,
        options: &Options,
        players: Players,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        Self::create_sealed(dir, options, players, fresh_seed()?, false, now)
    }

    /// [`Session::create`] with correspondence settings ([`correspondence`]), recorded in entry 0's
    /// options under [`correspondence::OPTIONS_KEY`] (left out when they are the defaults).
    ///
    /// # Errors
    ///
    /// [`SessionError::State`] for settings that [`correspondence::Settings::check`] refuses.
    pub fn create_correspondence(
        dir: &Path,
        options: &Options,
        settings: &correspondence::Settings,
        players: Players,
        host: &HostDeclaration,
        seed: Option<[u8; 32]>,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        settings.check().map_err(SessionError::State)?;
        let (seed, test_seed) = match seed {
            Some(s) => (s, true),
            None => (fresh_seed()?, false),
        };
        let extra = (*settings != correspondence::Settings::default()).then(|| to_value(settings));
        let created = Created {
            correspondence: extra,
            host,
            seed,
            test_seed,
        };
        Self::create_inner(dir, options, players, created, now)
    }

    /// [`Session::create`] with a given seed (tests and `selfplay --record`): entry 0 marks it
    /// `test_seed: true`, and `verify` calls the game "test seed: not a fair game".
    pub fn create_with_seed(
        dir: &Path,
        options: &Options,
        players: Players,
        seed: [u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        Self::create_sealed(dir, options, players, seed, true, now)
    }

    fn create_sealed(
        dir: &Path,
        options: &Options,
        players: Players,
        seed: [u8; 32],
        test_seed: bool,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        let created = Created {
            correspondence: None,
            host: &HostDeclaration::default(),
            seed,
            test_seed,
        };
        Self::create_inner(dir, options, players, created, now)
    }

    fn create_inner(
        dir: &Path,
        options: &Options,
        players: Players,
        created: Created<'_>,
        now: DateTime<Utc>,
    ) -> Result<Session, SessionError> {
        let Created {
            correspondence,
            host,
            seed,
            test_seed,
        } = created;
        check_new_game(dir, &players)?;
        // A bid game names seats, not sides: seat 1 = `us`, seat 2 = `ussr` of `players` as
        // given ([`Session::create_bid`]); entry 0 writes them as `seats`.
        let (players, seats) = if options.bid {
            seats::check_bid_options(options).map_err(SessionError::State)?;
            (Players::default(), Some(vec![players.us, players.ussr]))
        } else {
            (players, None)
        };
        // Every sealed game records where its cards go (FAIRNESS.md §3.7).
        let options = Options {
            card_records: true,
            ..options.clone()
        };
        let mut options = to_value(&options);
        if let (Some(c), Value::Mapping(m)) = (correspondence, &mut options) {
            m.insert(Value::from(correspondence::OPTIONS_KEY), c);
        }
        fs::create_dir_all(dir).map_err(|e| SessionError::File {
            path: dir.into(),
            message: e.to_string(),
        })?;
        let (_lock, _) = Self::lock(dir)?;
        // A `new` stopped by a crash before its first entry was complete left an empty log
        // (or one whose torn entry the lock's recovery set aside): no game yet, start again.
        let log_path = dir.join("log.yaml");
        if fs::symlink_metadata(&log_path).is_ok_and(|m| m.is_file() && m.len() == 0) {
            fs::remove_file(&log_path).map_err(|e| SessionError::File {
                path: log_path.clone(),
                message: e.to_string(),
            })?;
        }
        if dir.join("log.yaml").exists() {
            return Err(SessionError::State(format!(
                "{} already holds a game (its log.yaml has its first entry); `twilight status \
                 {}` shows it. To start another, name a new folder",
                dir.display(),
                dir.display()
            )));
        }
        write_secret(
            dir,
            &Secret {
                seed: Hex32::from(seed),
                pending_headline: None,
                pending_bid: None,
                pending_superpower_card: None,
                standing_orders: Vec::new(),
            },
        )?;
        let mut log = Log::create(dir.join("log.yaml"))?;
        log.append(
            Payload::Create {
                engine_version: env!("CARGO_PKG_VERSION").into(),
                rules_revision: RULES_REVISION.into(),
                options,
                players,
                seats,
                seed_commitment: Hex32::from(fairness::seed_commitment(&seed)),
                dice_chain_end: Some(Hex32::from(fairness::dice_chain_end(&seed))),
                test_seed,
                moderator: host.address.clone(),
                moderator_plays: host.plays,
            },
            Author::Moderator,
            now,
        )?;
        Self::open(dir)
    }
}
