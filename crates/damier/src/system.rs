//! What the operating system tells about the running program: the calling thread's CPU time
//! (timings on a shared machine, where wall time also counts the other programs) and the
//! memory available (the default cap of a count).

/// CPU time of the calling thread, in seconds, where the system tells it.
#[cfg(unix)]
pub fn thread_cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the duration of the call.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}

/// CPU time of the calling thread: not available here.
#[cfg(not(unix))]
pub fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// The memory available now, in bytes (`MemAvailable` of /proc/meminfo), if the system says.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
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
    }
}
