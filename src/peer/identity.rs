//! A player's peer-mode identity (schemas/DEALERLESS.md T.1 "Identities"): an Ed25519
//! key pair (`ed25519-dalek`) and the short fingerprint players compare by another channel.
//!
//! * The private key lives in a key file of its own (`twilight keygen`), mode 0600, outside
//!   every game folder; it is never mailed and never copied into a replica. A key file that
//!   others can read is refused, as `ssh` refuses one.
//! * The public key travels inside the game's first signed entries (`open`, `join`); each
//!   player compares the opponent's [`fingerprint`] by telephone, chat or in person.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::log::Hex32;

/// The `kind` line of a private key file.
pub const KEY_FILE_KIND: &str = "twilight-peer-private-key v1";

/// Domain prefix of a key fingerprint: `twilight-peer-key v1` and a NUL.
pub const DOMAIN_FINGERPRINT: &[u8] = b"twilight-peer-key v1\0";

/// Problems with keys and key files.
#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    /// The key file could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The key file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A key file that group or others may read: the private key may have leaked.
    #[error(
        "{path}: the private key file is readable by others (mode {mode:o}); run \
         `chmod 600 {path}` and, if others may have read it, make a new key"
    )]
    Exposed {
        /// The key file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// A public key that is not a point of Ed25519's curve.
    #[error("not an Ed25519 public key: {0}")]
    BadPublicKey(String),
    /// The operating system's random source failed.
    #[error("no random bytes for a key: {0}")]
    Random(String),
}

/// A public key: 32 bytes, in YAML 64 lower-case hex digits (as [`Hex32`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PublicKey(pub Hex32);

impl PublicKey {
    /// The Ed25519 verifying key.
    ///
    /// # Errors
    ///
    /// [`IdentityError::BadPublicKey`] if the bytes are not a valid point.
    pub fn verifying_key(&self) -> Result<VerifyingKey, IdentityError> {
        VerifyingKey::from_bytes(self.0.as_bytes())
            .map_err(|e| IdentityError::BadPublicKey(format!("{}: {e}", self.0)))
    }

    /// The fingerprint players compare: see [`fingerprint`].
    pub fn fingerprint(&self) -> String {
        fingerprint(self)
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.0)
    }
}

impl fmt::Display for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A key's fingerprint: the first 10 bytes (80 bits) of
/// `SHA-256("twilight-peer-key v1\0" ‖ public key)`, as five groups of four lower-case hex
/// digits joined by `-`, e.g. `3f2a-9c01-77de-0b45-e6a8`. Short enough to read out on the
/// telephone; 80 bits are far beyond what an attacker can match by generating keys.
pub fn fingerprint(key: &PublicKey) -> String {
    let digest = Sha256::new()
        .chain_update(DOMAIN_FINGERPRINT)
        .chain_update(key.0.as_bytes())
        .finalize();
    let h = hex::encode(&digest[..10]);
    (0..5)
        .map(|i| &h[i * 4..i * 4 + 4])
        .collect::<Vec<_>>()
        .join("-")
}

/// A signature: 64 bytes, in YAML 128 lower-case hex digits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Sig(pub [u8; 64]);

impl Sig {
    /// The Ed25519 signature.
    pub fn signature(&self) -> Signature {
        Signature::from_bytes(&self.0)
    }
}

impl fmt::Debug for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sig({})", hex::encode(self.0))
    }
}

impl fmt::Display for Sig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", hex::encode(self.0))
    }
}

impl Serialize for Sig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(self.0))
    }
}

impl<'de> Deserialize<'de> for Sig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sig, D::Error> {
        let s = String::deserialize(d)?;
        if s.len() != 128 || !s.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f')) {
            return Err(serde::de::Error::custom(
                "a signature is 128 lower-case hex digits",
            ));
        }
        let mut out = [0u8; 64];
        hex::decode_to_slice(&s, &mut out).map_err(serde::de::Error::custom)?;
        Ok(Sig(out))
    }
}

/// A player's key pair. The private half never leaves this value except into its key file.
pub struct Identity {
    signing: SigningKey,
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity(public {})", self.public())
    }
}

/// The key file on disk (YAML).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyFile {
    kind: String,
    secret: Hex32,
    public: Hex32,
}

impl Identity {
    /// A fresh key pair from the operating system's CSPRNG (`getrandom`).
    ///
    /// # Errors
    ///
    /// [`IdentityError::Random`] if the random source fails.
    pub fn generate() -> Result<Identity, IdentityError> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).map_err(|e| IdentityError::Random(e.to_string()))?;
        Ok(Identity::from_secret(&secret))
    }

    /// The key pair of a 32-byte Ed25519 secret key (RFC 8032 §5.1.5); for test vectors.
    pub fn from_secret(secret: &[u8; 32]) -> Identity {
        Identity {
            signing: SigningKey::from_bytes(secret),
        }
    }

    /// The public key.
    pub fn public(&self) -> PublicKey {
        PublicKey(Hex32(self.signing.verifying_key().to_bytes()))
    }

    /// Signs `message` (Ed25519, RFC 8032; deterministic).
    pub fn sign(&self, message: &[u8]) -> Sig {
        Sig(self.signing.sign(message).to_bytes())
    }

    /// Writes a new key file at `path`, mode 0600, refusing to replace an existing file (a
    /// lost private key cannot be recovered, so none is ever overwritten).
    ///
    /// # Errors
    ///
    /// [`IdentityError::File`] if the file exists or cannot be written.
    pub fn save_new(&self, path: &Path) -> Result<(), IdentityError> {
        let err = |message: String| IdentityError::File {
            path: path.to_path_buf(),
            message,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let mut b = std::fs::DirBuilder::new();
            b.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
            b.create(dir).map_err(|e| err(e.to_string()))?;
        }
        let text = format!(
            "# Twilight Struggle peer-mode PRIVATE key. Never mail, share or copy it into a game\n\
             # folder; give your opponent the public key's fingerprint instead.\n{}",
            serde_yaml::to_string(&KeyFile {
                kind: KEY_FILE_KIND.into(),
                secret: Hex32(self.signing.to_bytes()),
                public: self.public().0,
            })
            .map_err(|e| err(e.to_string()))?
        );
        let mut file = crate::gamefs::nofollow_options()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    err(
                        "a key file is already there; it is never overwritten (choose another \
                         path with --out, or use the key you have)"
                            .into(),
                    )
                } else {
                    err(e.to_string())
                }
            })?;
        file.write_all(text.as_bytes())
            .and_then(|_| file.sync_all())
            .map_err(|e| err(e.to_string()))?;
        if let Some(dir) = path.parent() {
            let _ = crate::gamefs::sync_dir(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            });
        }
        Ok(())
    }

    /// Reads a key file written by [`Identity::save_new`].
    ///
    /// # Errors
    ///
    /// [`IdentityError::Exposed`] if group or others may read it; [`IdentityError::File`] if
    /// it is missing, malformed, or its public key does not belong to its secret key.
    pub fn load(path: &Path) -> Result<Identity, IdentityError> {
        let err = |message: String| IdentityError::File {
            path: path.to_path_buf(),
            message,
        };
        let bytes = crate::gamefs::read_nofollow(path).map_err(|e| err(e.to_string()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(path)
                .map_err(|e| err(e.to_string()))?
                .permissions()
                .mode()
                & 0o777;
            if mode & 0o077 != 0 {
                return Err(IdentityError::Exposed {
                    path: path.to_path_buf(),
                    mode,
                });
            }
        }
        let text = String::from_utf8(bytes).map_err(|_| err("not UTF-8 text".into()))?;
        let file: KeyFile =
            serde_yaml::from_str(&text).map_err(|e| err(format!("not a key file: {e}")))?;
        if file.kind != KEY_FILE_KIND {
            return Err(err(format!(
                "kind is {:?}, expected {KEY_FILE_KIND:?}",
                file.kind
            )));
        }
        let id = Identity::from_secret(file.secret.as_bytes());
        if id.public().0 != file.public {
            return Err(err(
                "its public key does not belong to its secret key (the file was edited)".into(),
            ));
        }
        Ok(id)
    }

    /// The default key file: `$TWILIGHT_KEY` if set, else
    /// `$XDG_CONFIG_HOME/twilight/peer-key.yaml`, else `~/.config/twilight/peer-key.yaml`.
    pub fn default_path() -> PathBuf {
        if let Some(p) = std::env::var_os("TWILIGHT_KEY").filter(|p| !p.is_empty()) {
            return PathBuf::from(p);
        }
        let config = std::env::var_os("XDG_CONFIG_HOME")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
            .unwrap_or_else(|| PathBuf::from("."));
        config.join("twilight").join("peer-key.yaml")
    }
}

/// Checks `sig` on `message` under `key`, strictly (`verify_strict`: no small-order keys, no
/// non-canonical signatures, so one message has one valid signature per key).
pub fn verify(key: &PublicKey, message: &[u8], sig: &Sig) -> bool {
    key.verifying_key()
        .map(|k| k.verify_strict(message, &sig.signature()).is_ok())
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8032 §7.1, TEST 1: the secret key, its public key and the signature of the empty
    /// message — our use of the crate is plain Ed25519.
    #[test]
    fn rfc8032_test_1() {
        let secret: [u8; 32] =
            hex::decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
                .unwrap()
                .try_into()
                .unwrap();
        let id = Identity::from_secret(&secret);
        assert_eq!(
            id.public().to_string(),
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
        );
        let sig = id.sign(b"");
        assert_eq!(
            sig.to_string(),
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155\
             5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        );
        assert!(verify(&id.public(), b"", &sig));
        assert!(!verify(&id.public(), b"x", &sig));
    }

    #[test]
    fn fingerprint_is_five_groups_and_depends_on_the_key() {
        let a = Identity::from_secret(&[1; 32]).public();
        let b = Identity::from_secret(&[2; 32]).public();
        let fa = fingerprint(&a);
        assert_eq!(fa.len(), 24);
        assert_eq!(fa.split('-').count(), 5);
        assert_ne!(fa, fingerprint(&b));
    }

    #[test]
    fn key_file_is_0600_never_overwritten_and_refused_when_exposed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.yaml");
        let id = Identity::generate().unwrap();
        id.save_new(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        assert_eq!(Identity::load(&path).unwrap().public(), id.public());
        let again = Identity::generate().unwrap().save_new(&path).unwrap_err();
        assert!(again.to_string().contains("never overwritten"), "{again}");
        assert_eq!(Identity::load(&path).unwrap().public(), id.public());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let e = Identity::load(&path).unwrap_err();
            assert!(
                matches!(e, IdentityError::Exposed { mode: 0o644, .. }),
                "{e}"
            );
        }
    }
}
