//! Deck seeds are journaled sealed, so that the journal alone reveals no card.
//!
//! A hand's deck (and a tournament's every draw) follows from a seed, and the journal must
//! keep it: a restart replays the hands in progress from it. Kept in clear, whoever reads the
//! journal (a copy, a backup, a file left readable) would know every hole card of every hand
//! still being played. So the journal keeps `seed XOR pad`, where the pad is HMAC-SHA-256 of
//! the journal's id and the entry's sequence number under a 256-bit key. The key lives in
//! `DATA/journal.key` (0600), never in the journal: the daemon (and `floor audit --verify`)
//! reads it to replay. Each entry has its own pad, so one seed learnt (an operator chose it,
//! a hand was shown) tells nothing of the others.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::path::Path;

/// The key's file in the data directory.
pub const KEY_FILE: &str = "journal.key";

/// The key that seals the deck seeds of one data directory.
#[derive(Clone)]
pub struct Seal {
    key: [u8; 32],
}

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Seal(…)")
    }
}

/// Why the key cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file cannot be read or written.
    #[error("{path}: {message}")]
    File {
        /// The key file.
        path: String,
        /// Why.
        message: String,
    },
}

impl Seal {
    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length: this cannot fail.
        <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"))
    }

    /// The key of `data`, read from its key file; created (0600) when `create` and there is
    /// none. `Ok(None)`: no key file and none created.
    pub fn load(data: &Path, create: bool) -> Result<Option<Seal>, KeyError> {
        let path = data.join(KEY_FILE);
        let err = |message: String| KeyError::File {
            path: path.display().to_string(),
            message,
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let bytes = hex::decode(text.trim())
                    .map_err(|e| err(format!("not a key (64 hex digits): {e}")))?;
                let key: [u8; 32] = bytes
                    .try_into()
                    .map_err(|_| err("not a key (64 hex digits)".into()))?;
                Ok(Some(Seal { key }))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && create => {
                let key: [u8; 32] = rand::random();
                super::files::write_private(&path, format!("{}\n", hex::encode(key)).as_bytes())
                    .map_err(|e| err(e.to_string()))?;
                Ok(Some(Seal { key }))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(err(e.to_string())),
        }
    }

    /// A fingerprint of the key, kept in the journal's header so that a journal started with
    /// another key is noticed (it reveals nothing of the key).
    pub fn check(&self) -> String {
        let mut mac = self.mac();
        mac.update(b"floor journal key check");
        hex::encode(&mac.finalize().into_bytes()[..16])
    }

    fn pad(&self, journal: &str, seq: i64) -> u64 {
        let mut mac = self.mac();
        mac.update(b"floor deck seed\0");
        mac.update(journal.as_bytes());
        mac.update(b"\0");
        mac.update(&seq.to_le_bytes());
        let out = mac.finalize().into_bytes();
        let mut word = [0u8; 8];
        word.copy_from_slice(&out[..8]);
        u64::from_le_bytes(word)
    }

    /// The seed of entry `seq` of journal `journal`, as stored (an SQLite integer).
    pub fn seal(&self, journal: &str, seq: i64, seed: u64) -> i64 {
        i64::from_le_bytes((seed ^ self.pad(journal, seq)).to_le_bytes())
    }

    /// The seed a stored value seals.
    pub fn unseal(&self, journal: &str, seq: i64, stored: i64) -> u64 {
        u64::from_le_bytes(stored.to_le_bytes()) ^ self.pad(journal, seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_seed_unseals_with_its_key_and_entry_only() {
        let a = Seal { key: [7; 32] };
        let b = Seal { key: [8; 32] };
        let seed = 0x0123_4567_89ab_cdef;
        let stored = a.seal("j1", 42, seed);
        assert_ne!(u64::from_le_bytes(stored.to_le_bytes()), seed);
        assert_eq!(a.unseal("j1", 42, stored), seed);
        assert_ne!(a.unseal("j1", 43, stored), seed, "another entry's pad");
        assert_ne!(a.unseal("j2", 42, stored), seed, "another journal's pad");
        assert_ne!(b.unseal("j1", 42, stored), seed, "another key");
        assert_ne!(a.check(), b.check());
    }
}
