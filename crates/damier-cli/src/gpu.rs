//! The GPU helpers the commands share (`queens count` and `queens estimate --device gpu`,
//! `automaton run --device gpu`, `damier gpu`): the `--gpu-*` arguments, the adapter they name
//! opened, a GPU error's exit code, the adapters' listing, and the one line of a build
//! without the feature `gpu`.

use std::process::ExitCode;

use damier::queens::count::devices::GpuKernel;
#[cfg(feature = "gpu")]
use damier_gpu::{Gpu, GpuError, GpuSettings};

/// `--gpu-kernel`: the library's [`GpuKernel`] (docs/gpu.md), by its name, with what `--help`
/// says of it; the join since the search kernel was retired (2026-12-06), the option kept so
/// that scripts naming it run.
fn kernel() -> impl clap::builder::TypedValueParser<Value = GpuKernel> {
    crate::util::named(&GpuKernel::ALL, GpuKernel::name, |k| {
        Some(match k {
            GpuKernel::Join => {
                "The quarters engine's join: halves assembled and sealed on the CPU cores (--threads), matched on the GPU (journals headed `quarters`)"
            }
        })
    })
}

/// The GPU settings (`--gpu-*`) of `queens count`, `queens estimate` and `damier gpu`.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub(crate) struct GpuArgs {
    /// The adapter counting, by its index in `damier gpu` [default: the first discrete GPU,
    /// else the first adapter].
    #[arg(long, value_name = "INDEX")]
    pub(crate) gpu_adapter: Option<usize>,
    /// Tiles (a block against up to 256 queries) per dispatch [default: adapted to 50 ms a
    /// dispatch].
    #[arg(long, value_name = "TILES", value_parser = crate::util::ranged::<u32>(1, u32::MAX))]
    pub(crate) gpu_budget: Option<u32>,
    /// The kernel: join (the quarters engine: halves sealed on the CPU cores, matched on the
    /// GPU), the only one since the search kernel was retired [default: join].
    #[arg(long, value_name = "KERNEL", value_parser = kernel())]
    pub(crate) gpu_kernel: Option<GpuKernel>,
    /// Batches each sealing worker leaves on the GPU while it seals on [default: 1; 0: each
    /// worker waits for its batch's count before it seals the next].
    #[arg(long, value_name = "BATCHES", value_parser = crate::util::ranged::<u32>(0, 16))]
    pub(crate) gpu_ahead: Option<u32>,
    /// The join kernel's portable path: without the adapter's 64-bit integers and subgroups,
    /// as on an adapter that lacks them (to compare; the same counts).
    #[arg(long)]
    pub(crate) gpu_portable: bool,
    /// Workgroup memory the join kernel may take for a tile's block, bytes [default: the
    /// adapter's limit; 0: every block read from global memory] (to compare; the same counts).
    #[arg(long, value_name = "BYTES")]
    pub(crate) gpu_workgroup_bytes: Option<u32>,
    /// The join kernel's sums as before the slot per tile: each workgroup adds its sum
    /// atomically into one of 32 shared partial sums (to compare; the same counts).
    #[arg(long)]
    pub(crate) gpu_shared_sums: bool,
}

impl GpuArgs {
    /// The first `--gpu-*` option given, by its name.
    fn first_given(&self) -> Option<&'static str> {
        [
            ("--gpu-adapter", self.gpu_adapter.is_some()),
            ("--gpu-budget", self.gpu_budget.is_some()),
            ("--gpu-kernel", self.gpu_kernel.is_some()),
            ("--gpu-ahead", self.gpu_ahead.is_some()),
            ("--gpu-portable", self.gpu_portable),
            ("--gpu-workgroup-bytes", self.gpu_workgroup_bytes.is_some()),
            ("--gpu-shared-sums", self.gpu_shared_sums),
        ]
        .into_iter()
        .find_map(|(name, given)| given.then_some(name))
    }

    /// Refuses the `--gpu-*` options when no GPU runs (`on_gpu` false): `queens count 8
    /// --gpu-adapter 3` counted on the CPU, exit 0, the option silently ignored. `with` names
    /// what runs the GPU (`--device gpu`).
    pub(crate) fn refuse_unless(&self, on_gpu: bool, with: &str) -> anyhow::Result<()> {
        match self.first_given() {
            Some(name) if !on_gpu => anyhow::bail!("{name} sets the GPU's count: it needs {with}"),
            _ => Ok(()),
        }
    }
}

/// The error of a GPU option in a build without the feature.
#[cfg(not(feature = "gpu"))]
pub(crate) const NO_GPU_FEATURE: &str = "this damier was built without GPU support: build it with `cargo build --release --features gpu` (docs/gpu.md)";

/// Prints the adapters (`--device list`, `damier gpu`).
pub(crate) fn list(json: bool) -> anyhow::Result<ExitCode> {
    imp_list::list(json)
}

#[cfg(not(feature = "gpu"))]
mod imp_list {
    pub(super) fn list(_: bool) -> anyhow::Result<std::process::ExitCode> {
        anyhow::bail!(super::NO_GPU_FEATURE)
    }
}

#[cfg(feature = "gpu")]
mod imp_list {
    use std::process::ExitCode;

    use crate::util::output::outln;

    /// No adapter is an error (exit 2, the library's one line), so that a script stops at
    /// once; `--json` still prints the empty list first.
    pub(super) fn list(json: bool) -> anyhow::Result<ExitCode> {
        let adapters = damier_gpu::adapters();
        if json {
            outln!("{}", serde_json::to_string(&adapters)?)?;
        }
        if adapters.is_empty() {
            return Err(anyhow::Error::new(damier_gpu::GpuError::NoAdapter));
        }
        if !json {
            for a in &adapters {
                outln!(
                    "{}{}: {} ({}, {}; driver {}; storage binding {} MiB, buffer {} MiB, {} workgroups)",
                    if a.default { "* " } else { "  " },
                    a.index,
                    a.name,
                    a.backend,
                    a.kind,
                    a.driver,
                    a.max_storage_binding >> 20,
                    a.max_buffer >> 20,
                    a.max_workgroups
                )?;
            }
            outln!("* = the adapter a count uses without --gpu-adapter")?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

/// Opens the GPU of `g`: no adapter is a usage error (exit 2), a device that fails a fault
/// (exit 74).
#[cfg(feature = "gpu")]
pub(crate) fn open(g: GpuArgs) -> anyhow::Result<Gpu> {
    let settings = GpuSettings {
        budget: g.gpu_budget,
        dispatch_ms: None,
        ring: None,
        ahead: g.gpu_ahead,
        portable: g.gpu_portable,
        workgroup_bytes: g.gpu_workgroup_bytes,
        batch_keys: None,
        shared_sums: g.gpu_shared_sums,
        kernel: g.gpu_kernel.unwrap_or_default(),
    };
    Gpu::open(g.gpu_adapter, settings).map_err(error)
}

/// A GPU error for the CLI: device faults exit 74, the rest 2 (Ctrl-C: 130).
#[cfg(feature = "gpu")]
pub(crate) fn error(e: GpuError) -> anyhow::Error {
    if e.is_device_fault() { crate::util::exit::fault(e.to_string()) } else { anyhow::Error::new(e) }
}
