//! The unit tests' GPU: the default adapter (lavapipe in CI), or a failure naming what is
//! missing. This crate is left out of the README's `cargo test` (its default members): its
//! tests run where they are asked for, and there a test that cannot run must not pass.

use crate::{Gpu, GpuError, GpuSettings};

/// The default adapter with `settings`; without one the test fails naming what it needs.
pub(crate) fn adapter(settings: GpuSettings) -> Gpu {
    adapter_with(settings, &[])
}

/// [`adapter`] with the join kernel's pipeline constants `constants` (its `override`s).
pub(crate) fn adapter_with(settings: GpuSettings, constants: &[(&str, f64)]) -> Gpu {
    match Gpu::open_with(None, settings, constants) {
        Ok(g) => g,
        Err(GpuError::NoAdapter) => panic!(
            "no Vulkan adapter: these tests need one (Mesa's software driver will do: apt-get \
             install mesa-vulkan-drivers libvulkan1)"
        ),
        Err(e) => panic!("cannot open the GPU: {e}"),
    }
}

/// A fixed stream of test words from `seed` (xorshift64*).
pub(crate) fn stream(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
