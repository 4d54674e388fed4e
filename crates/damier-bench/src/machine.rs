//! The machine a report was measured on, read from the system (Linux's `/proc`; elsewhere the
//! fields it cannot tell say so), so that figures never travel without it.

use damier::cpu::Isa;

/// What the figures of a report depend on besides the code.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Machine {
    /// The CPU's model name (`/proc/cpuinfo`), or `unknown`.
    pub cpu: String,
    /// Threads the system lets this process run at once.
    pub cores: usize,
    /// Total memory in bytes (`/proc/meminfo`), when known.
    pub memory_bytes: Option<u64>,
    /// The vector units the counting kernels can use on this CPU, narrowest first.
    pub vector_units: Vec<&'static str>,
    /// The 1-, 5- and 15-minute load averages when the report started (`/proc/loadavg`): above
    /// the number of cores, other programs took a share of the time measured.
    pub load_average: Option<[f64; 3]>,
}

impl Machine {
    /// Reads the machine's description now.
    pub fn detect() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        Machine {
            cpu: cpu_model(&cpuinfo).unwrap_or_else(|| "unknown".into()),
            cores: std::thread::available_parallelism().map_or(1, |p| p.get()),
            memory_bytes: damier::util::total_memory(),
            vector_units: Isa::available().map(Isa::name).collect(),
            load_average: load_average(),
        }
    }
}

/// The first `model name` (x86) or `Processor`/`cpu model` line of `/proc/cpuinfo`.
fn cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let key = key.trim();
        let value = value.trim();
        (matches!(key, "model name" | "Processor" | "cpu model") && !value.is_empty())
            .then(|| value.to_string())
    })
}

/// The 1-, 5- and 15-minute load averages now (`/proc/loadavg`), when the system tells them.
pub fn load_average() -> Option<[f64; 3]> {
    parse_load_average(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The three load averages of `/proc/loadavg`'s text.
fn parse_load_average(loadavg: &str) -> Option<[f64; 3]> {
    let mut fields = loadavg.split_whitespace().map(str::parse::<f64>);
    Some([fields.next()?.ok()?, fields.next()?.ok()?, fields.next()?.ok()?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_files_are_read() {
        let cpuinfo =
            "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9R14\nflags\t: fpu\n";
        assert_eq!(cpu_model(cpuinfo).as_deref(), Some("AMD EPYC 9R14"));
        assert_eq!(cpu_model("processor\t: 0\n"), None);
        assert_eq!(parse_load_average("5.33 4.12 3.25 3/612 12345\n"), Some([5.33, 4.12, 3.25]));
        assert_eq!(parse_load_average("5.33\n"), None);
    }

    #[test]
    fn detect_names_at_least_one_core_and_the_portable_unit() {
        let m = Machine::detect();
        assert!(m.cores >= 1);
        assert_eq!(m.vector_units.first(), Some(&"portable"));
    }
}
