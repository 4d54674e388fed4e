//! Performance hints shared by hot loops.

/// Asks the CPU to bring the cache line holding `value` into the L1 cache; a hint only
/// (no effect on results, nothing on other architectures).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache (SSE, baseline on x86_64); the pointer comes
    // from a live reference, and a prefetch never faults or writes.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (value as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
