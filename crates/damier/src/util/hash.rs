//! FNV-1a, 64 bits: the one small, fixed, dependency-free hash of the library's fingerprints
//! and checksums (task lists, journals, checkpoints, golden trajectories). It detects
//! accidents, not attacks. Its output is part of on-disk formats: it must never change.
//!
//! ```
//! use damier::util::{Fnv1a, fnv1a};
//!
//! let mut h = Fnv1a::new();
//! h.write(b"dam");
//! h.write(b"ier");
//! assert_eq!(h.finish(), fnv1a(b"damier")); // streamed or whole, the same hash
//! assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325); // FNV-1a 64's offset basis
//! ```

/// FNV-1a 64 state, fed bytes in order.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Fnv1a {
    /// The offset basis.
    pub fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash of everything fed.
    pub fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a::new()
    }
}

/// FNV-1a 64 of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::new();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_test_vectors() {
        // From the FNV reference test suite (Landon Curt Noll).
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
        let mut h = Fnv1a::new();
        h.write(b"foo");
        h.write(b"bar");
        assert_eq!(h.finish(), fnv1a(b"foobar"));
    }
}
