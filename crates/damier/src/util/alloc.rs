//! Fallible allocation of the buffers that grow with a request: a refusal of the allocator (an
//! address-space limit, a machine out of memory) becomes [`OutOfMemory`], an error the caller
//! reports, never an abort. Every command checks its sizes against its bound first; these
//! catch what the bound cannot know: how much memory this machine or this process may take.

use std::collections::TryReserveError;

/// Memory refused: an allocation of `bytes` the allocator turned down, or (from
/// [`check_fits`], before anything is allocated) a need of `bytes` beyond the address-space
/// limit; `limit` is that limit, when the process has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub struct OutOfMemory {
    /// The bytes refused.
    pub bytes: u64,
    /// The address-space limit (`RLIMIT_AS`) when one is set.
    pub limit: Option<u64>,
    /// Whether `bytes` was the whole need, refused before it was allocated.
    pub before: bool,
}

impl std::fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes = bytes_text(self.bytes);
        match (self.before, self.limit) {
            // Refused before anything was allocated: every caller has said the need already
            // ("... holds 4 GB of boards at once: "), so only the limit is said, unless both
            // round to the same text ("144 MB is more than ... 144 MB"): then both in bytes.
            (true, Some(l)) if bytes_text(l) == bytes => write!(
                f,
                "out of memory: {} bytes is more than the address-space limit, {l} bytes",
                self.bytes
            ),
            (true, Some(l)) => {
                write!(f, "out of memory: more than the address-space limit, {}", bytes_text(l))
            }
            (_, Some(l)) => write!(
                f,
                "out of memory: {bytes} could not be allocated (address-space limit {})",
                bytes_text(l)
            ),
            (_, None) => write!(f, "out of memory: {bytes} could not be allocated"),
        }
    }
}

impl OutOfMemory {
    /// The refusal of an allocation of `bytes`.
    pub fn refused(bytes: u64) -> OutOfMemory {
        OutOfMemory { bytes, limit: crate::util::address_space_limit(), before: false }
    }

    /// The refusal of `len` elements of `T`.
    fn of<T>(len: usize) -> OutOfMemory {
        OutOfMemory::refused((len as u64).saturating_mul(size_of::<T>() as u64))
    }
}

/// Refuses a need of `bytes` that cannot fit: more than the process's address-space limit
/// (so sure to fail, and refused before anything is allocated rather than part way).
pub fn check_fits(bytes: u64) -> Result<(), OutOfMemory> {
    match crate::util::address_space_limit() {
        Some(limit) if bytes > limit => Err(OutOfMemory { bytes, limit: Some(limit), before: true }),
        _ => Ok(()),
    }
}

/// An empty vector with room for exactly `len` elements, or [`OutOfMemory`].
pub fn try_with_capacity<T>(len: usize) -> Result<Vec<T>, OutOfMemory> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_: TryReserveError| OutOfMemory::of::<T>(len))?;
    Ok(v)
}

/// `len` copies of `value` (`vec![value; len]`), or [`OutOfMemory`].
pub fn try_filled<T: Clone>(value: T, len: usize) -> Result<Vec<T>, OutOfMemory> {
    let mut v = try_with_capacity(len)?;
    v.resize(len, value);
    Ok(v)
}

/// A size in messages: bytes, KB, MB or GB (powers of 1024), in the largest unit it fills.
pub fn bytes_text(b: u64) -> String {
    match b {
        0..1024 => format!("{b} bytes"),
        1024..0x10_0000 => format!("{} KB", b.div_ceil(1 << 10)),
        0x10_0000..0x4000_0000 => format!("{} MB", b.div_ceil(1 << 20)),
        _ => format!("{} GB", crate::util::number(b as f64 / f64::from(1u32 << 30))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_allocation_is_an_error_naming_its_size() {
        assert_eq!(try_filled(7u8, 3).unwrap(), vec![7, 7, 7]);
        assert!(try_with_capacity::<u64>(10).unwrap().capacity() >= 10);
        // More than any address space: refused by the allocator (or the capacity check).
        let err = try_with_capacity::<u64>(usize::MAX / 8).unwrap_err();
        assert_eq!((err.bytes, err.before), (u64::MAX - 7, false));
        assert!(err.to_string().starts_with("out of memory: "), "{err}");
        assert!(check_fits(1 << 20).is_ok());
        let capped = OutOfMemory { bytes: 4 << 30, limit: Some(3 << 30), before: true };
        // The need is the caller's to say (issue 52 §5: it was said twice); the limit is.
        assert_eq!(capped.to_string(), "out of memory: more than the address-space limit, 3 GB");
        // A need and a limit that round alike are both given in bytes ("144 MB is more than the
        // address-space limit, 144 MB" read as no reason).
        let close = OutOfMemory { bytes: 150_100_000, limit: Some(150_000_000), before: true };
        assert_eq!(
            close.to_string(),
            "out of memory: 150100000 bytes is more than the address-space limit, 150000000 bytes"
        );
        assert_eq!(bytes_text(3 << 30), "3 GB");
        assert_eq!(bytes_text(5 << 20), "5 MB");
    }
}
