//! SHA-256 of a plugin's bytes: the identity the host config allows and every ruling records.

use sha2::{Digest, Sha256};

/// The SHA-256 of `bytes`, as 64 lowercase hex digits (what `floor plugin check` prints and the
/// config's `sha256` holds).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_digest_of_abc_is_the_fips_180_2_test_vector() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
