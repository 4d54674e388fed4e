//! The GPU's estimate: [`Gpu::estimate`] ([`Gpu::estimator`], the library's estimate entry on
//! it), over the join kernel's count ([`Gpu::count_tasks`], module `join`).

use damier::control::Control;
use damier::queens::count::estimate::{self, CounterEstimator, CounterSample, Estimate, SampledDevice};
use damier::queens::count::tasks::{TaskDone, TaskList};

use crate::device::Gpu;
use crate::error::GpuError;

impl Gpu {
    /// Times `samples` random tasks of `list` (drawn with `seed`, as
    /// [`damier::queens::count::tasks::sample_tasks`] draws) counted on this GPU as a count
    /// counts them (in one run of [`Gpu::count_tasks`]), and projects the whole count of n
    /// ([`estimate::estimate_on`], the GPU as a task counter): its GPU time (wall time of this process, so the host's
    /// share of the work is in it; [`Estimate::core_hours`] is then hours of this GPU), the
    /// number of solutions (a check of the sample against the known totals) and the time per
    /// solution. The set-up is the time [`Gpu::open`] took. Each task's time is its share of
    /// the run's wall time, in proportion to its sealing worker's time on it (sealing it and
    /// waiting for its batches). `on_done` sees each sampled task's count (the tests compare them with the
    /// CPU's). Cancelled through `control`, the projection is made from the tasks finished,
    /// marked [`Estimate::stopped_early`] (tasks run in a random order, so they are a random
    /// sample too); [`GpuError::Interrupted`] when none did.
    pub fn estimate(
        &self,
        list: &TaskList,
        samples: u32,
        seed: u64,
        control: &Control,
        on_done: &(dyn Fn(TaskDone) + Sync),
    ) -> Result<Estimate, GpuError> {
        estimate::estimate_on(self, list, &self.sample(samples, seed), control, on_done)
    }

    /// [`Gpu::estimate`] as the library's [`Estimator`](estimate::Estimator) (what `queens estimate --device gpu`
    /// runs): its record names this GPU (adapter, backend, driver, kernel), its `isa` is the
    /// kernels' language, `wgsl`.
    pub fn estimator(&self, samples: u32, seed: u64) -> CounterEstimator<'_, Gpu> {
        let a = self.adapter();
        CounterEstimator {
            counter: self,
            sample: self.sample(samples, seed),
            isa: "wgsl",
            device: SampledDevice {
                device: "gpu",
                adapter: a.name.clone(),
                backend: a.backend.clone(),
                driver: a.driver.clone(),
                kernel: self.kernel().name(),
            },
        }
    }

    /// What [`Gpu::estimate`] times: `samples` tasks drawn with `seed`, counted by the kernel's
    /// engine, after the set-up [`Gpu::open`] took.
    fn sample(&self, samples: u32, seed: u64) -> CounterSample {
        CounterSample {
            engine: self.settings.kernel.engine(),
            samples,
            seed,
            setup_seconds: self.opened_in.as_secs_f64(),
        }
    }
}
