//! The sweep's CSV: one line per semiprime, written by `--csv` and read back, every field
//! checked, by `--replot`.

use damier::control::Censored;
use damier::factor::FactorRun;
use damier::factor::sweep::SweepSample;

use crate::util::csv_file::{self, Invalid, format};

/// The columns of the sweep's CSV, in order (`sat_seconds` is empty when the SAT solver did
/// not run; files from before that column existed have only the first twelve, and files from
/// before the sweep's setting (`sweep_seed`, `flip_q`, `eps`, `max_steps`, the same on every
/// line) only the first thirteen).
const CSV_COLUMNS: [&str; 17] = [
    "bits",
    "n",
    "p",
    "q",
    "seed",
    "steps",
    "flips",
    "factored",
    "censored",
    "seconds",
    "trial_seconds",
    "rho_seconds",
    "sat_seconds",
    "sweep_seed",
    "flip_q",
    "eps",
    "max_steps",
];

/// What a sweep ran with, which its figure states and a redrawn figure keeps (issue 38,
/// section 3: the replot dropped q, ε and the seed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct SweepSetting {
    /// The sweep's seed (numbers and runs derive from it).
    pub seed: u64,
    /// The flip probability q.
    pub q: f64,
    /// The noise ε.
    pub eps: f64,
    /// The step cap of each run.
    pub max_steps: u64,
}

/// One line of the sweep's CSV: one semiprime (see [`CSV_COLUMNS`]).
#[derive(serde::Serialize, serde::Deserialize)]
struct SweepRow {
    bits: u32,
    n: u64,
    p: u64,
    q: u64,
    seed: u64,
    steps: u64,
    flips: u64,
    factored: bool,
    /// `step-cap`, `budget` or empty.
    censored: String,
    #[serde(serialize_with = "format::sci6")]
    seconds: f64,
    #[serde(serialize_with = "format::sci6")]
    trial_seconds: f64,
    #[serde(serialize_with = "format::sci6")]
    rho_seconds: f64,
    #[serde(default, serialize_with = "format::sci6_opt")]
    sat_seconds: Option<f64>,
    #[serde(default)]
    sweep_seed: Option<u64>,
    #[serde(default)]
    flip_q: Option<f64>,
    #[serde(default)]
    eps: Option<f64>,
    #[serde(default)]
    max_steps: Option<u64>,
}

impl SweepRow {
    /// The sweep's setting this line states, when it states all of it.
    fn setting(&self) -> Option<SweepSetting> {
        Some(SweepSetting {
            seed: self.sweep_seed?,
            q: self.flip_q?,
            eps: self.eps?,
            max_steps: self.max_steps?,
        })
    }
}

impl SweepRow {
    fn new(r: &SweepSample, s: &SweepSetting) -> SweepRow {
        SweepRow {
            bits: r.bits,
            n: r.n,
            p: r.p,
            q: r.q,
            seed: r.run.seed,
            steps: r.run.steps,
            flips: r.run.flips,
            factored: r.run.factors.is_some(),
            censored: censored_name(r.run.censored).into(),
            seconds: r.seconds,
            trial_seconds: r.trial_seconds,
            rho_seconds: r.rho_seconds,
            sat_seconds: r.sat_seconds,
            sweep_seed: Some(s.seed),
            flip_q: Some(s.q),
            eps: Some(s.eps),
            max_steps: Some(s.max_steps),
        }
    }
}

impl TryFrom<SweepRow> for (SweepSample, Option<SweepSetting>) {
    type Error = Invalid;

    /// Checks what a line claims: a size in bits, `p q = n`, factored or censored, a setting
    /// in range.
    fn try_from(r: SweepRow) -> Result<(SweepSample, Option<SweepSetting>), Invalid> {
        let setting = r.setting();
        if let Some(v) = r.flip_q.filter(|v| !(*v > 0.0 && *v <= 1.0)) {
            return Err(Invalid::column(
                "flip_q",
                format!("{} is not a probability in (0, 1]", damier::util::given(v)),
            ));
        }
        if let Some(v) = r.eps.filter(|v| !(*v > 0.0 && *v <= 1.0)) {
            return Err(Invalid::column(
                "eps",
                format!("{} is not a probability in (0, 1]", damier::util::given(v)),
            ));
        }
        if !(1..=64).contains(&r.bits) {
            return Err(Invalid::column("bits", format!("{} is not a size in bits (1 to 64)", r.bits)));
        }
        let (n, p, q) = (r.n, r.p, r.q);
        if p.checked_mul(q) != Some(n) || p > q {
            return Err(Invalid::line(format!(
                "p = {p} and q = {q} are not the factors of n = {n} (p <= q)"
            )));
        }
        let censored = match r.censored.as_str() {
            "" => None,
            "step-cap" => Some(Censored::StepCap),
            "budget" => Some(Censored::Budget),
            v => return Err(Invalid::column("censored", format!("{v:?} is not step-cap, budget or empty"))),
        };
        if r.factored != censored.is_none() {
            return Err(Invalid::line(format!(
                "a run is either factored or censored (factored {}, censored {:?})",
                r.factored, r.censored
            )));
        }
        let run = FactorRun {
            n,
            seed: r.seed,
            steps: r.steps,
            flips: r.flips,
            factors: r.factored.then_some((p, q)),
            censored,
        };
        let sample = SweepSample {
            bits: r.bits,
            n,
            p,
            q,
            run,
            seconds: csv_file::seconds("seconds", r.seconds)?,
            trial_seconds: csv_file::seconds("trial_seconds", r.trial_seconds)?,
            rho_seconds: csv_file::seconds("rho_seconds", r.rho_seconds)?,
            sat_seconds: r.sat_seconds.map(|v| csv_file::seconds("sat_seconds", v)).transpose()?,
        };
        Ok((sample, setting))
    }
}

fn censored_name(c: Option<Censored>) -> &'static str {
    match c {
        Some(Censored::StepCap) => "step-cap",
        Some(Censored::Budget) => "budget",
        None => "",
    }
}

/// The runs as CSV, one line per semiprime, each with the sweep's setting.
pub(super) fn sweep_csv(runs: &[SweepSample], setting: &SweepSetting) -> anyhow::Result<Vec<u8>> {
    csv_file::to_bytes(&runs.iter().map(|r| SweepRow::new(r, setting)).collect::<Vec<_>>())
}

/// Reads back the runs of a CSV written by `--csv`, checking every field: errors name the
/// line and the column. The setting is the sweep's when every line states the same one
/// (older files state none).
pub(super) fn read_sweep_csv(bytes: &[u8]) -> anyhow::Result<(Vec<SweepSample>, Option<SweepSetting>)> {
    let lines: Vec<(SweepSample, Option<SweepSetting>)> = csv_file::parse(
        bytes,
        "a factor sweep CSV header",
        &[&CSV_COLUMNS[..12], &CSV_COLUMNS[..13], &CSV_COLUMNS],
        |r: SweepRow| r.try_into(),
    )?;
    anyhow::ensure!(!lines.is_empty(), "no runs after the header");
    let first = lines[0].1;
    let setting = first.filter(|_| lines.iter().all(|(_, s)| *s == first));
    Ok((lines.into_iter().map(|(r, _)| r).collect(), setting))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::cmd::factor) fn sample(
        bits: u32,
        n: u64,
        p: u64,
        q: u64,
        factored: bool,
        sat: Option<f64>,
    ) -> SweepSample {
        SweepSample {
            bits,
            n,
            p,
            q,
            run: FactorRun {
                n,
                seed: 7,
                steps: 1234,
                flips: 56,
                factors: factored.then_some((p, q)),
                censored: (!factored).then_some(Censored::StepCap),
            },
            seconds: 0.25,
            trial_seconds: 1.5e-6,
            rho_seconds: 2.5e-7,
            sat_seconds: sat,
        }
    }

    #[test]
    fn the_csv_reads_back_what_it_wrote() {
        let runs = vec![
            sample(8, 143, 11, 13, true, None),
            sample(8, 169, 13, 13, false, None),
            sample(9, 323, 17, 19, true, Some(0.125)),
        ];
        let setting = SweepSetting { seed: 42, q: 0.5, eps: 0.02, max_steps: 2_000_000_000 };
        let back = read_sweep_csv(&sweep_csv(&runs, &setting).unwrap()).unwrap();
        assert_eq!(back, (runs.clone(), Some(setting)));
        // A file from before the sat_seconds column, and one from before the setting's.
        let old = "bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds\n\
                   8,143,11,13,7,1234,56,true,,2.5e-1,1.5e-6,2.5e-7\n";
        assert_eq!(read_sweep_csv(old.as_bytes()).unwrap(), (vec![runs[0].clone()], None));
        let old = "bits,n,p,q,seed,steps,flips,factored,censored,seconds,trial_seconds,rho_seconds,sat_seconds\n\
                   8,143,11,13,7,1234,56,true,,2.5e-1,1.5e-6,2.5e-7,\n";
        assert_eq!(read_sweep_csv(old.as_bytes()).unwrap(), (vec![runs[0].clone()], None));
    }

    #[test]
    fn a_bad_csv_is_refused_with_its_line_and_column() {
        let header = CSV_COLUMNS.join(",");
        let good = "8,143,11,13,7,1234,56,true,,2.5e-1,1.5e-6,2.5e-7,,42,0.5,0.02,2000000000";
        let err = |text: &str| format!("{:#}", read_sweep_csv(text.as_bytes()).unwrap_err());
        assert!(err("").contains("empty file"));
        assert!(err("a,b,c\n").contains("line 1: not a factor sweep CSV header"));
        assert!(err(&format!("{header}\n")).contains("no runs"));
        assert!(err(&format!("{header}\n{good}\n8,143\n")).contains("line 3: 2 fields, the header has 17"));
        let bad = |from: &str, to: &str| err(&format!("{header}\n{}\n", good.replacen(from, to, 1)));
        assert!(bad("1234", "12x4").contains("line 2, column steps: not a whole number"));
        assert!(bad("2.5e-1", "-1").contains("line 2, column seconds: not a number of seconds"));
        assert!(bad("2.5e-1", "NaN").contains("column seconds"));
        assert!(bad("8,143,11", "8,144,11").contains("are not the factors of n = 144"));
        assert!(bad("true", "yes").contains("column factored"));
        assert!(bad("true,", "true,budget").contains("either factored or censored"));
        assert!(bad("true,", "false,later").contains("column censored"));
        assert!(bad("8,", "99,").contains("column bits"));
        assert!(bad(",0.5,", ",1.5,").contains("column flip_q"));
        assert!(bad("0.02,", "0,").contains("column eps"));
    }
}
