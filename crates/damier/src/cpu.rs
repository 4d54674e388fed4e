//! The CPU's vector units, detected once for the whole library.
//!
//! Fast loops come in up to three builds per architecture: portable Rust (compiled with
//! `popcnt` enabled when the CPU has it), and on x86-64 AVX2 and AVX-512, on aarch64 NEON.
//! [`Isa::best`] names the widest one this CPU runs; the kernels that take an [`Isa`] can be
//! forced onto a narrower one (to test every path against the
//! others, or to measure what a CPU without AVX-512 would see). Detection runs once and is
//! cached: every later query is one load. Hot loops also share one cache hint here,
//! `prefetch` (crate-internal).
//!
//! ```
//! use damier::cpu::{Isa, IsaChoice};
//!
//! assert!(Isa::best().is_available());
//! assert!(Isa::available().any(|isa| isa.name() == "portable")); // every CPU runs it
//! let widest: IsaChoice = "auto".parse().unwrap();
//! assert!(widest.resolve().unwrap().is_available());
//! ```

use std::sync::OnceLock;

/// A family of vector instructions a kernel can be built for.
///
/// Ordered from narrowest to widest. A CPU runs the portable build and the units of its own
/// architecture up to its widest ([`Isa::best`]): an x86-64 one that runs AVX-512 runs AVX2,
/// and no x86-64 CPU runs NEON nor an ARM one AVX2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Isa {
    /// 64-bit words (with the `popcnt` instruction where the CPU has it; on x86-64 the join
    /// also uses SSE2, part of every x86-64 CPU).
    Portable,
    /// NEON (Advanced SIMD): 128-bit vectors and a per-byte popcount, on every aarch64 CPU
    /// (ARM servers, Apple's M series).
    Neon,
    /// AVX2 with `popcnt`: 256-bit vectors (nearly every x86-64 CPU since 2013).
    Avx2,
    /// AVX-512 F with VPOPCNTDQ, plus AVX2 and `popcnt`: 512-bit vectors and a vector popcount.
    Avx512,
}

impl Isa {
    /// Every ISA, narrowest first.
    pub const ALL: [Isa; 4] = [Isa::Portable, Isa::Neon, Isa::Avx2, Isa::Avx512];

    /// Short lowercase name (`portable`, `neon`, `avx2`, `avx512`), as [`FromStr`](std::str::FromStr)
    /// reads it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Neon => "neon",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// The widest ISA this CPU runs (detected once).
    pub fn best() -> Isa {
        features().best
    }

    /// True when this CPU runs the ISA's instructions.
    pub fn is_available(self) -> bool {
        let this_architecture = match self {
            Isa::Portable => true,
            Isa::Neon => cfg!(target_arch = "aarch64"),
            Isa::Avx2 | Isa::Avx512 => cfg!(target_arch = "x86_64"),
        };
        this_architecture && self <= Isa::best()
    }

    /// The ISAs this CPU runs, narrowest first.
    pub fn available() -> impl Iterator<Item = Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.is_available())
    }
}

impl std::fmt::Display for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an [`Isa`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown instruction set {0:?}: expected portable, neon, avx2 or avx512")]
pub struct UnknownIsa(pub String);

impl std::str::FromStr for Isa {
    type Err = UnknownIsa;

    fn from_str(s: &str) -> Result<Isa, UnknownIsa> {
        Isa::ALL.into_iter().find(|isa| isa.name() == s).ok_or_else(|| UnknownIsa(s.to_string()))
    }
}

/// A vector unit asked for: the widest this CPU runs, or a named one (which this CPU may
/// lack). Read from `auto` or a unit's [name](Isa::name).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IsaChoice {
    /// The widest unit this CPU runs ([`Isa::best`]).
    #[default]
    Widest,
    /// This unit.
    Named(Isa),
}

impl IsaChoice {
    /// The unit this choice stands for; [`IsaUnavailable`] if this CPU lacks it.
    pub fn resolve(self) -> Result<Isa, IsaUnavailable> {
        self.resolve_below(None)
    }

    /// [`IsaChoice::resolve`] on a CPU that runs only the units narrower than `ceiling` (when
    /// given) of those this one runs: how a test sees what an older CPU would.
    pub fn resolve_below(self, ceiling: Option<Isa>) -> Result<Isa, IsaUnavailable> {
        let runs = |isa: Isa| isa.is_available() && ceiling.is_none_or(|c| isa < c);
        let isa = match self {
            IsaChoice::Widest => Isa::available().filter(|&i| runs(i)).last().unwrap_or(Isa::Portable),
            IsaChoice::Named(isa) => isa,
        };
        if runs(isa) { Ok(isa) } else { Err(IsaUnavailable(isa)) }
    }
}

impl std::str::FromStr for IsaChoice {
    type Err = UnknownIsa;

    fn from_str(s: &str) -> Result<IsaChoice, UnknownIsa> {
        match s {
            "auto" => Ok(IsaChoice::Widest),
            _ => s.parse().map(IsaChoice::Named),
        }
    }
}

/// A vector unit this CPU lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this CPU lacks the {0} instruction set (it runs: {list})", list = Isa::available().map(Isa::name).collect::<Vec<_>>().join(", "))]
pub struct IsaUnavailable(pub Isa);

/// What the CPU has, as the library's kernels need it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Features {
    /// The widest [`Isa`] whose every instruction the CPU has.
    pub best: Isa,
    /// The `popcnt` instruction.
    #[cfg(target_arch = "x86_64")]
    pub popcnt: bool,
    /// AVX2 (on its own, for loops that need no popcount).
    #[cfg(target_arch = "x86_64")]
    pub avx2: bool,
    /// A 64 x 64 -> 128 carry-less multiply: `pclmulqdq` on x86-64, `pmull` (the crypto
    /// extension's `aes` feature, which every Apple M chip and ARM server core has) on aarch64.
    pub clmul: bool,
    /// AVX-512 byte permutes (VBMI, with BW) and GFNI's bit-matrix transforms, which transpose
    /// bit matrices a few instructions per 64 x 64 (the counting engine's block slicing).
    #[cfg(target_arch = "x86_64")]
    pub avx512_bit_matrix: bool,
    /// BMI2 with a fast `pext` (one cycle): every CPU with BMI2 but AMD's before Zen 3
    /// (families up to 0x18), which microcode it in up to hundreds of cycles.
    #[cfg(target_arch = "x86_64")]
    pub fast_pext: bool,
}

/// The CPU's features, detected on the first call.
#[inline]
pub(crate) fn features() -> Features {
    static FEATURES: OnceLock<Features> = OnceLock::new();
    *FEATURES.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Features {
    use std::arch::is_x86_feature_detected as has;
    let popcnt = has!("popcnt");
    let avx2 = has!("avx2");
    let avx2_isa = avx2 && popcnt;
    let avx512_isa = avx2_isa && has!("avx512f") && has!("avx512vpopcntdq");
    let best = if avx512_isa {
        Isa::Avx512
    } else if avx2_isa {
        Isa::Avx2
    } else {
        Isa::Portable
    };
    let avx512_bit_matrix = avx512_isa && has!("avx512bw") && has!("avx512vbmi") && has!("gfni");
    let fast_pext = has!("bmi2") && !microcoded_pext();
    Features { best, popcnt, avx2, clmul: has!("pclmulqdq"), avx512_bit_matrix, fast_pext }
}

/// Whether the CPU is an AMD one before Zen 3 (family 0x19), whose `pext` and `pdep` are
/// microcoded.
#[cfg(target_arch = "x86_64")]
fn microcoded_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163); // "AuthenticAMD"
    let version = __cpuid(1).eax;
    let family = (version >> 8 & 0xf) + if version >> 8 & 0xf == 0xf { version >> 20 & 0xff } else { 0 };
    amd && family < 0x19
}

#[cfg(target_arch = "aarch64")]
fn detect() -> Features {
    // NEON is part of the aarch64 baseline (every target of it in Rust enables it); asked
    // anyway, so that a build for a target without it would fall back rather than fault.
    let best = if std::arch::is_aarch64_feature_detected!("neon") { Isa::Neon } else { Isa::Portable };
    // `vmull_p64` is compiled with `neon,aes` (rustc's `aes` is FEAT_AES with FEAT_PMULL), but
    // the run-time `aes` follows HWCAP_AES alone, and the architecture allows AES without
    // PMULL: `pmull` is asked for too. The other fields are read by x86-64 kernels only.
    use std::arch::is_aarch64_feature_detected as has;
    let clmul = best == Isa::Neon && has!("aes") && has!("pmull");
    Features { best, clmul }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn detect() -> Features {
    // The other fields are read by x86-64 kernels only.
    Features { best: Isa::Portable, clmul: false }
}

/// Defines `fn $name(args) -> ret` running `$imp` compiled for AVX2 when the CPU has it (see
/// [`features`]), and the baseline build otherwise. `$imp` must be `#[inline(always)]` (and so
/// must its hot helpers) for the AVX2 copy to be vectorised.
macro_rules! avx2_dispatch {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty => $imp:path) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) -> $ret {
                    $imp($($arg),*)
                }
                if $crate::cpu::features().avx2 {
                    // SAFETY: the CPU supports AVX2 (the only feature `avx2` is compiled
                    // with), detected by `cpu::features`.
                    return unsafe { avx2($($arg),*) };
                }
            }
            $imp($($arg),*)
        }
    };
}
pub(crate) use avx2_dispatch;

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The vendor and family read by `cpuid` agree with the kernel's reading of them.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn pext_speed_follows_the_cpu_family() {
        let info = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo");
        let field = |name: &str| {
            info.lines()
                .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
                .and_then(|l| l.split(':').nth(1))
                .map(|v| v.trim().to_string())
        };
        let (Some(vendor), Some(family)) = (field("vendor_id"), field("cpu family")) else {
            return; // a kernel that does not say
        };
        let family: u32 = family.parse().expect("a family number");
        assert_eq!(microcoded_pext(), vendor == "AuthenticAMD" && family < 0x19, "{vendor}, family {family}");
    }

    #[test]
    fn names_round_trip_and_order_is_width() {
        for isa in Isa::ALL {
            assert_eq!(isa.name().parse::<Isa>(), Ok(isa));
        }
        assert!("sse".parse::<Isa>().is_err());
        assert!(Isa::Portable < Isa::Neon && Isa::Neon < Isa::Avx2 && Isa::Avx2 < Isa::Avx512);
        assert!(Isa::Portable.is_available());
        // Each architecture's units, and only those.
        assert_eq!(Isa::Neon.is_available(), cfg!(target_arch = "aarch64"));
        if cfg!(target_arch = "aarch64") {
            assert_eq!(Isa::best(), Isa::Neon);
            assert_eq!(IsaChoice::Widest.resolve(), Ok(Isa::Neon));
        }
        if cfg!(target_arch = "x86_64") {
            assert_eq!(IsaChoice::Named(Isa::Neon).resolve(), Err(IsaUnavailable(Isa::Neon)));
            assert!(!Isa::Avx2.is_available() || Isa::best() >= Isa::Avx2);
        } else {
            assert!(!Isa::Avx2.is_available() && !Isa::Avx512.is_available());
        }
        assert_eq!(Isa::available().last(), Some(Isa::best()));
        assert_eq!("auto".parse(), Ok(IsaChoice::Widest));
        assert_eq!("avx2".parse(), Ok(IsaChoice::Named(Isa::Avx2)));
        assert_eq!(IsaChoice::Widest.resolve(), Ok(Isa::best()));
        let below_avx2 = if cfg!(target_arch = "aarch64") { Isa::Neon } else { Isa::Portable };
        assert_eq!(IsaChoice::Widest.resolve_below(Some(Isa::Avx2)), Ok(below_avx2));
        assert_eq!(IsaChoice::Widest.resolve_below(Some(Isa::Neon)), Ok(Isa::Portable));
        assert_eq!(
            IsaChoice::Named(Isa::Avx2).resolve_below(Some(Isa::Avx2)),
            Err(IsaUnavailable(Isa::Avx2))
        );
        assert_eq!(IsaChoice::Named(Isa::Portable).resolve(), Ok(Isa::Portable));
        println!("this CPU runs: {:?}", Isa::available().collect::<Vec<_>>());
    }
}
