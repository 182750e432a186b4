//! One player's replica of a peer game on disk (schemas/DEALERLESS.md T.3 "Replicas"). A
//! player's game folder holds:
//!
//! * `peer.yaml` ([`PeerConfig`]): game id, this player's side and address, the opponent's
//!   address, and the path of this player's key file (the private key itself stays there,
//!   outside the folder);
//! * `peer-log.yaml`: the full signed log, one YAML document per entry (each starting with a
//!   `---` line), only ever appended to (one write and one `fsync` per command);
//! * `peer-sync.yaml` ([`SyncState`]): the opponent's latest signed acknowledgement, entries
//!   buffered ahead of a gap, and the findings that stopped the game;
//! * `outbox/`: mails written when no SMTP relay is configured (`src/mail/transport.rs`).
//!
//! Every command holds the folder's lock ([`GameLock`]) from reading to the last byte
//! written. A torn last document (a crash in the middle of an append) is set aside in
//! `peer-log.torn-<n>.yaml`, never silently deleted; the entry comes again from the opponent's
//! next mail, or (if it was ours and never mailed) was never seen by anyone.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::dispute::{self, Finding};
use super::identity::{Identity, IdentityError};
use super::signed_log::{Body, Chain, EntryError, SignedEntry};
use super::sync::{self, Bundle, BundleError, Ingested, SyncState};
use crate::data::Side;
use crate::gamefs::{self, FsError, GameLock};

/// The replica's settings file.
pub const CONFIG_FILE: &str = "peer.yaml";
/// The signed log.
pub const LOG_FILE: &str = "peer-log.yaml";
/// The sync state.
pub const SYNC_FILE: &str = "peer-sync.yaml";

/// `GAME_DIR/peer.yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeerConfig {
    /// The game id.
    pub game: String,
    /// This player's side.
    pub side: Side,
    /// This player's e-mail address.
    pub me: String,
    /// The opponent's e-mail address.
    pub opponent: String,
    /// This player's private key file (never inside the game folder).
    pub key: PathBuf,
}

/// Errors of a replica.
#[derive(Debug, thiserror::Error)]
pub enum ReplicaError {
    /// A file could not be read or written, or the lock not taken.
    #[error(transparent)]
    Fs(#[from] FsError),
    /// A file is malformed.
    #[error("{path}: {message}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The replica's own log does not verify (it was edited).
    #[error("{dir}: the replica's own log does not verify: {finding}")]
    Damaged {
        /// The folder.
        dir: PathBuf,
        /// The first bad entry.
        finding: Box<Finding>,
    },
    /// The key file.
    #[error(transparent)]
    Identity(#[from] IdentityError),
    /// A payload without a canonical form.
    #[error(transparent)]
    Entry(#[from] EntryError),
    /// A mail's bundle was refused as a whole.
    #[error(transparent)]
    Bundle(#[from] BundleError),
    /// Refused for a reason stated.
    #[error("{0}")]
    Refused(String),
}

fn malformed(path: &Path, message: impl Into<String>) -> ReplicaError {
    ReplicaError::Malformed {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

fn io<'a>(path: &'a Path, action: &'static str) -> impl Fn(std::io::Error) -> ReplicaError + 'a {
    move |source| {
        ReplicaError::Fs(FsError::Io {
            path: path.to_path_buf(),
            action,
            source,
        })
    }
}

/// An open replica, holding its folder's lock.
#[derive(Debug)]
pub struct Replica {
    dir: PathBuf,
    /// The settings.
    pub config: PeerConfig,
    chain: Chain,
    /// The sync state.
    pub sync: SyncState,
    stored: u64,
    _lock: GameLock,
}

/// Whether `dir` is a peer-mode game folder (it holds `peer.yaml`).
pub fn is_peer_folder(dir: &Path) -> bool {
    dir.join(CONFIG_FILE).is_file()
}

/// Reads the entries of `GAME_DIR/peer-log.yaml` without checking them, and the byte length
/// of the documents that parsed (a torn last document is not counted).
///
/// # Errors
///
/// [`ReplicaError::Malformed`] if a document other than a torn last one does not parse.
pub fn read_log(dir: &Path) -> Result<(Vec<SignedEntry>, usize, bool), ReplicaError> {
    let path = dir.join(LOG_FILE);
    let bytes = match gamefs::read_nofollow(&path) {
        Ok(b) => b,
        Err(FsError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok((Vec::new(), 0, false))
        }
        Err(e) => return Err(e.into()),
    };
    let text = String::from_utf8(bytes).map_err(|_| malformed(&path, "not UTF-8 text"))?;
    // Document starts: offset 0 and every "\n---\n".
    let mut starts: Vec<usize> = text.match_indices("\n---\n").map(|(i, _)| i + 1).collect();
    if !text.is_empty() {
        if !text.starts_with("---\n") {
            return Err(malformed(&path, "does not start with a `---` line"));
        }
        starts.insert(0, 0);
    }
    let mut entries = Vec::new();
    let mut good = 0;
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let doc = &text[start..end];
        let last = i + 1 == starts.len();
        match serde_yaml::from_str::<SignedEntry>(&doc[4..]) {
            Ok(e) if !last || doc.ends_with('\n') => {
                entries.push(e);
                good = end;
            }
            _ if last => return Ok((entries, good, true)),
            Err(e) => {
                return Err(malformed(
                    &path,
                    format!(
                        "document {} (from byte {start}) is not an entry: {e}",
                        i + 1
                    ),
                ))
            }
            Ok(_) => unreachable!("a document that is not last ends before the next `---`"),
        }
    }
    Ok((entries, good, false))
}

impl Replica {
    /// Starts a game in `dir` (which must not exist, or be empty) as the creator: writes
    /// `peer.yaml` and entry 0 (`open`), signed with `identity`.
    ///
    /// # Errors
    ///
    /// [`ReplicaError`] if the folder is not empty or a file cannot be written.
    pub fn create(
        dir: &Path,
        config: PeerConfig,
        identity: &Identity,
    ) -> Result<Replica, ReplicaError> {
        Self::create_with_options(dir, config, &crate::engine::Options::default(), identity)
    }

    /// [`Replica::create`] of a game with `options`, recorded in entry 0 when they are not
    /// the standard ones (the caller checks that peer mode supports them:
    /// [`super::play::check_peer_options`]).
    ///
    /// # Errors
    ///
    /// As [`Replica::create`].
    pub fn create_with_options(
        dir: &Path,
        config: PeerConfig,
        options: &crate::engine::Options,
        identity: &Identity,
    ) -> Result<Replica, ReplicaError> {
        let (us, ussr) = match config.side {
            Side::Us => (config.me.clone(), config.opponent.clone()),
            Side::Ussr => (config.opponent.clone(), config.me.clone()),
        };
        let open = SignedEntry::sign(
            identity,
            &config.game,
            0,
            crate::log::Hex32::ZERO,
            config.side,
            Body::Open {
                creator: config.side,
                us,
                ussr,
                key: identity.public(),
                options: (*options != crate::engine::Options::default()).then(|| options.clone()),
            },
        )?;
        let mut r = Replica::init(dir, config)?;
        r.chain
            .push(open)
            .map_err(|f| ReplicaError::Refused(f.to_string()))?;
        r.persist()?;
        Ok(r)
    }

    /// Joins the game opened by `first` (the creator's first mail's bundle) in `dir`: checks
    /// entry 0, takes the side the creator left, appends entry 1 (`join`) signed with
    /// `identity`. `me` is this player's address (default: the one entry 0 names for the side).
    ///
    /// # Errors
    ///
    /// [`ReplicaError`] if the bundle holds no valid `open`, or the folder is not empty.
    pub fn join(
        dir: &Path,
        first: &Bundle,
        key_file: &Path,
        identity: &Identity,
        me: Option<&str>,
    ) -> Result<Replica, ReplicaError> {
        let open = first.entries.iter().find(|e| e.seq == 0).ok_or_else(|| {
            ReplicaError::Refused(
                "the mail does not carry the game's entry 0 (its `open`): join from the \
                     opponent's first mail"
                    .into(),
            )
        })?;
        let mut chain = Chain::new();
        chain.push(open.clone()).map_err(|f| {
            ReplicaError::Refused(format!("{} cannot open a game: {f}", open.name()))
        })?;
        let (creator, us, ussr, _) = chain.opening().expect("an open was pushed");
        let side = creator.opponent();
        let (mine, theirs) = match side {
            Side::Us => (us, ussr),
            Side::Ussr => (ussr, us),
        };
        let config = PeerConfig {
            game: open.game.clone(),
            side,
            me: me.unwrap_or(mine).to_string(),
            opponent: theirs.to_string(),
            key: key_file.to_path_buf(),
        };
        let mut r = Replica::init(dir, config)?;
        sync::ingest(&mut r.chain, &mut r.sync, side, first)?;
        if let Some(f) = r.sync.findings.first() {
            return Err(ReplicaError::Refused(f.to_string()));
        }
        r.append(
            identity,
            Body::Join {
                key: identity.public(),
            },
        )?;
        Ok(r)
    }

    fn init(dir: &Path, config: PeerConfig) -> Result<Replica, ReplicaError> {
        gamefs::refuse_symlink(dir)?;
        if dir.exists()
            && std::fs::read_dir(dir)
                .map_err(io(dir, "list"))?
                .next()
                .is_some()
        {
            return Err(ReplicaError::Refused(format!(
                "{}: the folder is not empty; a game starts in a new folder",
                dir.display()
            )));
        }
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(dir).map_err(io(dir, "create"))?;
        let lock = GameLock::acquire(dir)?;
        let path = dir.join(CONFIG_FILE);
        let text = serde_yaml::to_string(&config).map_err(|e| malformed(&path, e.to_string()))?;
        gamefs::atomic_write(&path, text.as_bytes(), "peer-config")?;
        Ok(Replica {
            dir: dir.to_path_buf(),
            config,
            chain: Chain::new(),
            sync: SyncState::default(),
            stored: 0,
            _lock: lock,
        })
    }

    /// Opens the replica in `dir`, taking its lock, and verifies its own log.
    ///
    /// # Errors
    ///
    /// [`ReplicaError::Damaged`] if its log does not verify; others for unreadable files.
    pub fn open(dir: &Path) -> Result<Replica, ReplicaError> {
        gamefs::refuse_symlink(dir)?;
        let lock = GameLock::acquire(dir)?;
        let path = dir.join(CONFIG_FILE);
        let text = String::from_utf8(gamefs::read_nofollow(&path)?)
            .map_err(|_| malformed(&path, "not UTF-8 text"))?;
        let config: PeerConfig =
            serde_yaml::from_str(&text).map_err(|e| malformed(&path, e.to_string()))?;
        let (entries, good, torn) = read_log(dir)?;
        if torn {
            set_aside_torn_tail(dir, good)?;
        }
        let replay = dispute::replay(&entries, config.side, &dir.display().to_string());
        if let Some(finding) = replay.finding {
            return Err(ReplicaError::Damaged {
                dir: dir.to_path_buf(),
                finding: Box::new(finding),
            });
        }
        let sync = load_sync(dir)?;
        Ok(Replica {
            dir: dir.to_path_buf(),
            config,
            stored: replay.chain.len(),
            chain: replay.chain,
            sync,
            _lock: lock,
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The verified log.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// This player's key, checked against the public key the log holds for this side.
    ///
    /// # Errors
    ///
    /// [`ReplicaError::Refused`] if the key file holds another key than the game's.
    pub fn identity(&self) -> Result<Identity, ReplicaError> {
        let id = Identity::load(&self.config.key)?;
        match self.chain.key_of(self.config.side) {
            Some(k) if k != id.public() => Err(ReplicaError::Refused(format!(
                "{}: this key ({}) is not the one this game knows for the {} ({})",
                self.config.key.display(),
                id.public().fingerprint(),
                self.config.side.name(),
                k.fingerprint()
            ))),
            _ => Ok(id),
        }
    }

    /// Signs `body` as the next entry and appends it (on disk before this returns).
    ///
    /// # Errors
    ///
    /// [`ReplicaError`] if the game is stopped by a finding, or writing fails.
    pub fn append(&mut self, identity: &Identity, body: Body) -> Result<SignedEntry, ReplicaError> {
        if let Some(f) = self.sync.findings.first() {
            return Err(ReplicaError::Refused(format!(
                "the game is stopped by a finding: {f}"
            )));
        }
        let e = SignedEntry::sign(
            identity,
            &self.config.game,
            self.chain.len(),
            self.chain.head(),
            self.config.side,
            body,
        )?;
        self.chain
            .push(e.clone())
            .map_err(|f| ReplicaError::Refused(format!("{}: {f}", e.name())))?;
        self.persist()?;
        Ok(e)
    }

    /// Takes a received bundle in ([`sync::ingest`]) and writes what changed.
    ///
    /// # Errors
    ///
    /// [`ReplicaError::Bundle`] if the bundle is refused as a whole (then nothing changed).
    pub fn ingest(&mut self, bundle: &Bundle) -> Result<Ingested, ReplicaError> {
        let out = sync::ingest(&mut self.chain, &mut self.sync, self.config.side, bundle)?;
        self.persist()?;
        Ok(out)
    }

    /// The bundle for the next mail: every entry the opponent has not acknowledged, and our
    /// acknowledgement.
    pub fn outgoing(&self, identity: &Identity) -> Bundle {
        Bundle::of(
            identity,
            &self.chain,
            self.config.side,
            self.sync.unacknowledged_from(),
        )
    }

    /// Whether this replica holds entries of its own not mailed yet.
    pub fn unmailed(&self) -> bool {
        let from = self.sync.mailed.min(self.chain.len()) as usize;
        self.chain.entries()[from..]
            .iter()
            .any(|e| e.author == self.config.side)
    }

    /// Notes that a mail was sent.
    ///
    /// # Errors
    ///
    /// If the sync state cannot be written.
    pub fn note_sent(&mut self) -> Result<(), ReplicaError> {
        self.sync.mails_sent += 1;
        self.sync.mailed = self.chain.len();
        save_sync(&self.dir, &self.sync)
    }

    /// Appends the entries not yet on disk (one write, one fsync), then saves the sync state.
    fn persist(&mut self) -> Result<(), ReplicaError> {
        let path = self.dir.join(LOG_FILE);
        if self.stored < self.chain.len() {
            let mut text = String::new();
            for e in &self.chain.entries()[self.stored as usize..] {
                text.push_str("---\n");
                text.push_str(
                    &serde_yaml::to_string(e).map_err(|err| malformed(&path, err.to_string()))?,
                );
            }
            let mut f = gamefs::nofollow_options()
                .append(true)
                .create(true)
                .open(&path)
                .map_err(|e| gamefs::link_or_io(&path, "open for append", e))?;
            f.write_all(text.as_bytes())
                .and_then(|_| f.sync_data())
                .map_err(io(&path, "append"))?;
            let _ = gamefs::sync_dir(&self.dir);
            self.stored = self.chain.len();
        }
        save_sync(&self.dir, &self.sync)
    }
}

fn load_sync(dir: &Path) -> Result<SyncState, ReplicaError> {
    let path = dir.join(SYNC_FILE);
    match gamefs::read_nofollow(&path) {
        Ok(b) => {
            let text = String::from_utf8(b).map_err(|_| malformed(&path, "not UTF-8 text"))?;
            serde_yaml::from_str(&text).map_err(|e| malformed(&path, e.to_string()))
        }
        Err(FsError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(SyncState::default())
        }
        Err(e) => Err(e.into()),
    }
}

/// Reads a replica's sync state without its lock (for `verify`).
///
/// # Errors
///
/// As [`Replica::open`] for an unreadable file.
pub fn read_sync(dir: &Path) -> Result<SyncState, ReplicaError> {
    load_sync(dir)
}

/// Reads a replica's settings without its lock (for `verify`).
///
/// # Errors
///
/// [`ReplicaError`] if `peer.yaml` is missing or malformed.
pub fn read_config(dir: &Path) -> Result<PeerConfig, ReplicaError> {
    let path = dir.join(CONFIG_FILE);
    let text = String::from_utf8(gamefs::read_nofollow(&path)?)
        .map_err(|_| malformed(&path, "not UTF-8 text"))?;
    serde_yaml::from_str(&text).map_err(|e| malformed(&path, e.to_string()))
}

fn save_sync(dir: &Path, sync: &SyncState) -> Result<(), ReplicaError> {
    let path = dir.join(SYNC_FILE);
    let text = serde_yaml::to_string(sync).map_err(|e| malformed(&path, e.to_string()))?;
    gamefs::atomic_write(&path, text.as_bytes(), "peer-sync")?;
    Ok(())
}

/// Copies a torn last document aside (`peer-log.torn-<n>.yaml`) and cuts the log back to its
/// last whole document.
fn set_aside_torn_tail(dir: &Path, good: usize) -> Result<(), ReplicaError> {
    let path = dir.join(LOG_FILE);
    let bytes = gamefs::read_nofollow(&path)?;
    let mut n = 1;
    let aside = loop {
        let p = dir.join(format!("peer-log.torn-{n}.yaml"));
        if !p.exists() {
            break p;
        }
        n += 1;
    };
    gamefs::atomic_write(&aside, &bytes[good..], "peer-torn")?;
    let f = gamefs::nofollow_options()
        .write(true)
        .open(&path)
        .map_err(|e| gamefs::link_or_io(&path, "open", e))?;
    f.set_len(good as u64)
        .and_then(|_| f.sync_data())
        .map_err(io(&path, "cut the torn tail"))?;
    Ok(())
}
