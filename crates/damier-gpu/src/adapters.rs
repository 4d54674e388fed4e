//! The adapters this machine offers, and the one a count uses.

/// The backends the engine asks for: the native ones (no GL: its compute support is too thin).
pub(crate) fn instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::VULKAN | wgpu::Backends::METAL | wgpu::Backends::DX12;
    // No validation layers, in debug builds too: counts must not depend on them.
    desc.flags = wgpu::InstanceFlags::empty();
    wgpu::Instance::new(desc)
}

/// One adapter, as `damier gpu` lists it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AdapterDescription {
    /// Its index in the list (`--gpu-adapter`).
    pub index: usize,
    /// The device's name ("NVIDIA H100 80GB HBM3", "llvmpipe (LLVM 15.0.6, 256 bits)").
    pub name: String,
    /// The API: vulkan, metal or dx12.
    pub backend: String,
    /// discrete, integrated, virtual, cpu (a software driver) or other.
    pub kind: String,
    /// The driver's name and version.
    pub driver: String,
    /// Largest storage buffer one binding may see, bytes.
    pub max_storage_binding: u64,
    /// Largest buffer, bytes.
    pub max_buffer: u64,
    /// Most workgroups of one dispatch along x.
    pub max_workgroups: u32,
    /// Whether a count without `--gpu-adapter` uses this one.
    pub default: bool,
}

impl AdapterDescription {
    fn of(index: usize, adapter: &wgpu::Adapter) -> AdapterDescription {
        let info = adapter.get_info();
        let limits = adapter.limits();
        let driver = match (info.driver.is_empty(), info.driver_info.is_empty()) {
            (false, false) => format!("{} ({})", info.driver, info.driver_info),
            (false, true) => info.driver.clone(),
            (true, _) => info.driver_info.clone(),
        };
        AdapterDescription {
            index,
            name: info.name.clone(),
            backend: info.backend.to_str().to_string(),
            kind: kind_name(info.device_type).to_string(),
            driver,
            max_storage_binding: limits.max_storage_buffer_binding_size,
            max_buffer: limits.max_buffer_size,
            max_workgroups: limits.max_compute_workgroups_per_dimension,
            default: false,
        }
    }

    /// Whether it is a software driver (lavapipe, WARP): the engine keeps its loops short.
    pub fn is_software(&self) -> bool {
        self.kind == "cpu"
    }
}

fn kind_name(t: wgpu::DeviceType) -> &'static str {
    match t {
        wgpu::DeviceType::DiscreteGpu => "discrete",
        wgpu::DeviceType::IntegratedGpu => "integrated",
        wgpu::DeviceType::VirtualGpu => "virtual",
        wgpu::DeviceType::Cpu => "cpu",
        wgpu::DeviceType::Other => "other",
    }
}

/// Preference of a device kind for a count: real GPUs first, software drivers last.
fn rank(kind: &str) -> u8 {
    match kind {
        "discrete" => 0,
        "integrated" => 1,
        "virtual" => 2,
        "other" => 3,
        _ => 4,
    }
}

/// The adapters of `instance`, with the default one marked.
pub(crate) fn enumerate(instance: &wgpu::Instance) -> Vec<(AdapterDescription, wgpu::Adapter)> {
    let adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
    let mut out: Vec<(AdapterDescription, wgpu::Adapter)> =
        adapters.into_iter().enumerate().map(|(i, a)| (AdapterDescription::of(i, &a), a)).collect();
    if let Some(best) = out.iter().map(|(d, _)| d).min_by_key(|d| (rank(&d.kind), d.index)).map(|d| d.index) {
        out[best].0.default = true;
    }
    out
}

/// The adapters of this machine (an empty list when there is none, or no Vulkan loader), the
/// default one marked.
pub fn adapters() -> Vec<AdapterDescription> {
    enumerate(&instance()).into_iter().map(|(d, _)| d).collect()
}
