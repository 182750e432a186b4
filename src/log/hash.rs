//! Entry hashes and 32-byte hex values (design §2 "Receipts", style.md §6.5).
//!
//! An entry's hash is `SHA-256("twilight-log v1\0" ‖ bytes)` over the exact bytes of its YAML
//! document as stored in `log.yaml`, from the first `-` of its `---` line through the newline
//! after its closing `...` line. A hash is never computed over a re-serialization: two YAML emitters, or two
//! versions of one, need not agree byte for byte, and a log must verify for decades.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// Domain prefix of an entry hash: the 16 bytes `twilight-log v1` followed by a NUL.
pub const DOMAIN_ENTRY: &[u8] = b"twilight-log v1\0";

/// A 32-byte value (a SHA-256 digest, an entry hash, a seed) written as 64 lower-case hex
/// digits in the log.
///
/// In YAML it is a string; deserialization accepts exactly 64 lower-case hex digits, so a
/// stored log has one spelling of each value. [`FromStr`] is more lenient (any case, surrounding
/// white space) for values a person types, such as `verify --head HASH`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Hex32(pub [u8; 32]);

impl Hex32 {
    /// All zeros: the `prev` of the first entry, and the head of an empty log.
    pub const ZERO: Hex32 = Hex32([0; 32]);

    /// The raw 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Lower-case hex, 64 characters.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Parses exactly 64 lower-case hex digits (the stored spelling).
    ///
    /// # Errors
    ///
    /// [`Hex32Error`] naming what was wrong (length or a character).
    pub fn parse_strict(s: &str) -> Result<Hex32, Hex32Error> {
        // Every entry holds one or more such values, and `verify` reads every entry: decoded
        // in one pass; the checks below only word the error.
        if let Some(value) = decode_lower_hex(s.as_bytes()) {
            return Ok(value);
        }
        if s.len() != 64 {
            return Err(Hex32Error(format!(
                "expected 64 lower-case hex digits, found {} characters",
                s.chars().count()
            )));
        }
        if let Some(c) = s.chars().find(|c| !matches!(c, '0'..='9' | 'a'..='f')) {
            return Err(Hex32Error(format!(
                "expected 64 lower-case hex digits, found the character {c:?}"
            )));
        }
        let mut out = [0u8; 32];
        hex::decode_to_slice(s, &mut out).map_err(|e| Hex32Error(e.to_string()))?;
        Ok(Hex32(out))
    }
}

/// 64 lower-case hex digits as their 32 bytes; `None` for anything else.
fn decode_lower_hex(digits: &[u8]) -> Option<Hex32> {
    fn nibble(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        }
    }
    if digits.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (byte, pair) in out.iter_mut().zip(digits.chunks_exact(2)) {
        *byte = nibble(pair[0])? << 4 | nibble(pair[1])?;
    }
    Some(Hex32(out))
}

impl From<[u8; 32]> for Hex32 {
    fn from(bytes: [u8; 32]) -> Hex32 {
        Hex32(bytes)
    }
}

impl fmt::Display for Hex32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Hex32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex32({})", self.to_hex())
    }
}

/// A string that is not a 32-byte hex value; the message says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Hex32Error(pub String);

impl FromStr for Hex32 {
    type Err = Hex32Error;

    /// Parses 64 hex digits in any case, ignoring surrounding white space.
    fn from_str(s: &str) -> Result<Hex32, Hex32Error> {
        Hex32::parse_strict(&s.trim().to_ascii_lowercase())
    }
}

impl Serialize for Hex32 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Hex32 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Hex32, D::Error> {
        // A visitor, so the string is checked where the parser holds it, not copied first.
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Hex32;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Hex32, E> {
                Hex32::parse_strict(s).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// The hash of one stored entry: `SHA-256(DOMAIN_ENTRY ‖ document)`, where `document` is the
/// exact bytes of the entry's YAML document, `---` and `...` lines included (design §4,
/// style.md §6.5).
pub fn entry_hash(document: &[u8]) -> Hex32 {
    let mut h = Sha256::new();
    h.update(DOMAIN_ENTRY);
    h.update(document);
    Hex32(h.finalize().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_and_lenient_parsing() {
        let h = entry_hash(b"---\n");
        assert_eq!(Hex32::parse_strict(&h.to_hex()), Ok(h));
        assert!(Hex32::parse_strict(&h.to_hex().to_uppercase()).is_err());
        assert_eq!(format!(" {} ", h.to_hex().to_uppercase()).parse(), Ok(h));
        assert!(Hex32::parse_strict("00").is_err());
        assert!(Hex32::parse_strict(&"g".repeat(64)).is_err());
        assert!(Hex32::parse_strict(&"é".repeat(32)).is_err());
        let digits: String = (0..32).map(|i| format!("{:02x}", i * 8 + 7)).collect();
        assert_eq!(
            Hex32::parse_strict(&digits).map(|h| h.0.to_vec()),
            Ok((0..32).map(|i| i * 8 + 7).collect::<Vec<u8>>())
        );
        for bad in ["g", "G", "A", "F", " ", "/", ":", "`"] {
            let mut d = digits.clone();
            d.replace_range(63.., bad);
            assert!(Hex32::parse_strict(&d).is_err(), "{d}");
        }
    }
}
