//! What the operating system tells about the running program: the calling thread's CPU time
//! (timings on a shared machine, where wall time also counts the other programs) and the
//! memory (the default cap of a count, the machine of a benchmark report); the one builder of
//! thread pools.
//!
//! ```
//! use damier::util::{available_memory, thread_pool, total_memory};
//!
//! let pool = thread_pool(Some(2)).unwrap();
//! assert_eq!(pool.current_num_threads(), 2);
//! if let (Some(free), Some(total)) = (available_memory(), total_memory()) {
//!     assert!(free <= total);
//! }
//! ```

/// CPU time of the calling thread, in seconds, where the system tells it.
pub fn thread_cpu_seconds() -> Option<f64> {
    cpu_seconds(CpuClock::Thread)
}

/// CPU time of the whole process (every thread), in seconds, where the system tells it: the
/// time of one run that spreads over a pool's workers.
pub fn process_cpu_seconds() -> Option<f64> {
    cpu_seconds(CpuClock::Process)
}

/// Whose CPU time.
#[cfg_attr(not(unix), allow(dead_code))]
enum CpuClock {
    Thread,
    Process,
}

#[cfg(unix)]
fn cpu_seconds(clock: CpuClock) -> Option<f64> {
    let id = match clock {
        CpuClock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
        CpuClock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
    };
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the duration of the call.
    let ok = unsafe { libc::clock_gettime(id, &mut t) } == 0;
    ok.then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}

/// Not available here.
#[cfg(not(unix))]
fn cpu_seconds(_: CpuClock) -> Option<f64> {
    None
}

/// The memory available now, in bytes (`MemAvailable` of /proc/meminfo), if the system says.
pub fn available_memory() -> Option<u64> {
    meminfo_bytes(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemAvailable")
}

/// The address space this process may take, in bytes (`RLIMIT_AS`, as `ulimit -v` or
/// `prlimit --as` set it), when it has a limit.
#[cfg(unix)]
pub fn address_space_limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `limit` is a valid, writable rlimit for the duration of the call.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    // `rlim_t` is not `u64` on every Unix.
    #[allow(clippy::unnecessary_cast)]
    let bytes = limit.rlim_cur as u64;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(bytes)
}

/// No address-space limit is known here.
#[cfg(not(unix))]
pub fn address_space_limit() -> Option<u64> {
    None
}

/// The machine's memory, in bytes (`MemTotal` of /proc/meminfo), if the system says.
pub fn total_memory() -> Option<u64> {
    meminfo_bytes(&std::fs::read_to_string("/proc/meminfo").ok()?, "MemTotal")
}

/// The field `key` of /proc/meminfo's text `info` (in KiB there), in bytes.
fn meminfo_bytes(info: &str, key: &str) -> Option<u64> {
    let line = info.lines().find(|l| l.split_once(':').is_some_and(|(k, _)| k == key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The most worker threads a front end gives a pool ([`thread_pool`]): every command's
/// `--threads`, the lab's field and Python's `threads=` read 1 to this.
pub const POOL_MAX_THREADS: u32 = 1024;

/// A rayon pool of `threads` workers (`None` or 0: one per core); the library's timings and
/// the CLI's `--threads` build theirs here.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new().num_threads(threads.unwrap_or(0)).build()
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(unix)]
    fn thread_time_advances_with_work() {
        let t0 = super::thread_cpu_seconds().unwrap();
        let mut x = 0u64;
        while super::thread_cpu_seconds().unwrap() <= t0 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        assert!(super::thread_cpu_seconds().unwrap() > t0);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn linux_tells_the_available_memory() {
        assert!(super::available_memory().is_some_and(|b| b > 0));
        assert!(super::total_memory() >= super::available_memory());
    }

    #[test]
    fn meminfo_fields_are_read_in_bytes() {
        let info = "MemTotal:       24684092 kB\nMemFree: 1 kB\nMemAvailable:  7 kB\n";
        assert_eq!(super::meminfo_bytes(info, "MemTotal"), Some(24_684_092 * 1024));
        assert_eq!(super::meminfo_bytes(info, "MemAvailable"), Some(7 * 1024));
        assert_eq!(super::meminfo_bytes(info, "Mem"), None);
        assert_eq!(super::thread_pool(Some(3)).unwrap().current_num_threads(), 3);
    }
}
