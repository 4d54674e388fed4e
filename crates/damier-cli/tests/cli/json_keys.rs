//! The keys of the `--json` outputs whose records the CLI builds from the library's plain
//! results (issue 37, section 1): written here, in order, so that moving a record between the
//! library and the CLI's `report` module cannot rename, drop or reorder a key.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::util::damier;

/// Every key path of a JSON text in the order it writes them: `a`, `a.b`, `a[].c` (the keys
/// of each object of an array, merged). Read from the text itself, since `serde_json::Value`
/// sorts its keys.
struct Paths<'a> {
    prefix: String,
    out: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Paths<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Paths<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let prefix = format!("{}[]", self.prefix);
        while seq.next_element_seed(Paths { prefix: prefix.clone(), out: &mut *self.out })?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let path = if self.prefix.is_empty() { key } else { format!("{}.{key}", self.prefix) };
            if !self.out.contains(&path) {
                self.out.push(path.clone());
            }
            map.next_value_seed(Paths { prefix: path, out: &mut *self.out })?;
        }
        Ok(())
    }
}

/// The key paths of what `damier ARGS` prints (an answer, positive or negative: exit 0 or 1),
/// space-separated. A new puzzle pins its keys with it in its own test file
/// (`super::json_keys::keys_of`).
pub(crate) fn keys_of(args: &[&str]) -> String {
    let out = damier().args(args).output().expect("runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "damier {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut paths = Vec::new();
    Paths { prefix: String::new(), out: &mut paths }
        .deserialize(&mut serde_json::Deserializer::from_slice(&out.stdout))
        .expect("stdout is JSON");
    paths.join(" ")
}

#[test]
fn walk_solve_export_and_replay_keep_their_keys() {
    assert_eq!(
        keys_of(&["walk", "solve", "3", "3", "--json"]),
        "rows cols solutions pattern path path_length"
    );
    assert_eq!(
        keys_of(&["walk", "solve", "2", "2", "--all", "--json"]),
        "rows cols solutions pattern path path_length all all[].pattern all[].path all[].path_length"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (out, pattern) = (file("path.txt"), file("set.pbm"));
    assert_eq!(
        keys_of(&["walk", "solve", "3", "3", "--out", &out, "--pattern", &pattern, "--json"]),
        "rows cols solutions path_length out pattern_file"
    );
    assert_eq!(keys_of(&["walk", "export", "--to", "3", &file("boards"), "--json"]), "dir files");
    assert_eq!(
        keys_of(&["walk", "replay", "2", "2", "nes", "--json", "--show"]),
        "rows cols moves all_black white left_board"
    );
    assert_eq!(
        keys_of(&["walk", "replay", "2", "2", "NN", "--json"]),
        "rows cols moves all_black white left_board left_board.step left_board.move left_board.row left_board.col"
    );
}

#[test]
fn lights_kernel_keeps_its_keys() {
    assert_eq!(keys_of(&["lights", "kernel", "5x5", "--json"]), "width height nullity basis");
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        keys_of(&["lights", "kernel", "5x5", "--out", dir.path().to_str().unwrap(), "--json"]),
        "width height nullity files"
    );
}

#[test]
fn factor_sweep_replot_keeps_its_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (csv, first, redrawn) = (path("s.csv"), path("s.svg"), path("r.svg"));
    let sweep = ["factor", "sweep", "--bits", "8..9", "--samples", "2", "--seed", "3", "--json"];
    keys_of(&[&sweep[..], &["--csv", &csv, "--plot", &first]].concat());
    assert_eq!(
        keys_of(&["factor", "sweep", "--replot", &csv, "--plot", &redrawn, "--json"]),
        "csv plot runs points points[].bits points[].runs points[].censored points[].mean_steps \
         points[].median_steps points[].mean_seconds points[].trial_seconds points[].rho_seconds \
         points[].sat_seconds"
    );
}

#[test]
fn lights_solve_keeps_its_keys() {
    assert_eq!(
        keys_of(&["lights", "solve", "--random", "3x3", "--seed", "1", "--json"]),
        "width height nullity solvable solutions presses press_count seed start seconds"
    );
    assert_eq!(
        keys_of(&["lights", "solve", "--all-on", "2x2", "--explain", "--min", "--json"]),
        "width height nullity solvable solutions presses press_count exact_min steps steps[].column \
         steps[].pivot_row steps[].ops steps[].matrix seconds"
    );
    assert_eq!(
        keys_of(&["lights", "solve", "--all-on", "4x4", "--all", "--json"]),
        "width height nullity solvable solutions presses press_count all seconds"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.pbm");
    assert_eq!(
        keys_of(&["lights", "solve", "--all-on", "3x3", "--out", out.to_str().unwrap(), "--json"]),
        "width height nullity solvable solutions presses press_count out seconds"
    );
}

/// The figures of the repository (`docs/figures/NAME`).
fn figure(name: &str) -> String {
    format!("{}/../../docs/figures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn queens_counts_keep_their_keys() {
    assert_eq!(keys_of(&["queens", "count", "8", "--json"]), "n total unique seconds");
    assert_eq!(
        keys_of(&["queens", "count", "8", "--share", "1/2", "--json"]),
        "n share shares share_total seconds tasks strategy fingerprint"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (journal, half) = (path("j.jsonl"), path("h.jsonl"));
    assert_eq!(
        keys_of(&["queens", "count", "10", "--journal", &journal, "--json"]),
        "n total unique seconds tasks strategy resumed_tasks fingerprint"
    );
    assert_eq!(
        keys_of(&["queens", "count", "10", "--share", "1/2", "--journal", &half, "--json"]),
        "n share shares share_total seconds tasks strategy resumed_tasks fingerprint"
    );
    let status = "n share shares strategy device version fingerprint tasks done left share_total total unique \
                  sessions task_seconds rate eta_seconds torn_lines";
    assert_eq!(keys_of(&["queens", "journal", &journal, "--json"]), status);
    assert_eq!(
        keys_of(&["queens", "journal", &journal, "--recheck", "3", "--seed", "1", "--json"]),
        format!(
            "{status} recheck recheck.engine recheck.seed recheck.tasks recheck.agree recheck.mismatches \
             recheck.population recheck.sampled recheck.catch_one recheck.forged_for_99"
        )
    );
    assert_eq!(
        keys_of(&["queens", "estimate", "8", "--samples", "3", "--seed", "1", "--json"]),
        ESTIMATE_KEYS
    );
    assert_eq!(
        keys_of(&["queens", "timing", "--to", "6", "--json"]),
        "[].n [].naive_seconds [].fast_seconds [].total"
    );
    assert_eq!(
        keys_of(&["queens", "bench", "6", "--json"]),
        "[].n [].total [].unique [].threads [].seconds_1_thread [].seconds_all_threads"
    );
    assert_eq!(
        keys_of(&["queens", "speed", &figure("counting_speed.csv"), "--json"]),
        "rows rows[].program rows[].isa rows[].n rows[].metric rows[].value rows[].source rows[].date \
         rows[].build rows[].command ratios ratios[].n ratios[].isa ratios[].other ratios[].ratio"
    );
}

/// The keys of `queens estimate --json` on the CPU.
const ESTIMATE_KEYS: &str = "n tasks samples engine core_hours low high task_seconds task_seconds_sd \
                             setup_seconds clock queries_per_task subsampled_tasks matched_fraction solutions \
                             solutions_low solutions_high ns_per_solution ns_per_solution_low \
                             ns_per_solution_high timed_tasks timed_tasks[].index timed_tasks[].seconds \
                             timed_tasks[].solutions stopped_early isa seed known_solutions known_inside \
                             known_core_hours known_core_hours_low known_core_hours_high";

/// `queens estimate --device gpu --json`: the CPU's keys, then the GPU's (one record, the
/// library's, with its device).
#[cfg(feature = "gpu")]
#[test]
fn the_gpu_estimate_keeps_its_keys() {
    super::gpu::needs_adapter();
    assert_eq!(
        keys_of(&["queens", "estimate", "8", "--device", "gpu", "--samples", "3", "--seed", "1", "--json"]),
        format!("{ESTIMATE_KEYS} device adapter backend driver kernel")
    );
}

#[test]
fn queens_placements_keep_their_keys() {
    assert_eq!(keys_of(&["queens", "list", "6", "--json"]), "[].index [].columns");
    assert_eq!(keys_of(&["queens", "list", "6", "--unique", "--json"]), "[].index [].columns [].class_size");
    assert_eq!(
        keys_of(&["queens", "list", "8", "--random", "2", "--seed", "1", "--json"]),
        "n sampler seed solutions"
    );
    for n in ["8", "3"] {
        assert_eq!(keys_of(&["queens", "first", n, "--json"]), "n columns nodes seconds");
        assert_eq!(keys_of(&["queens", "max", n, "--json"]), "n max columns method");
    }
    assert_eq!(keys_of(&["queens", "solve", "8", "--json"]), "n method seconds columns");
    assert_eq!(keys_of(&["queens", "solve", "3", "--json"]), "columns method n");
    let side =
        "solutions per_corner per_corner.nw per_corner.ne per_corner.sw per_corner.se any examples condition";
    let sides: Vec<String> = ["reduce", "extend"]
        .iter()
        .map(|s| format!("{s} {}", side.split(' ').map(|k| format!("{s}.{k}")).collect::<Vec<_>>().join(" ")))
        .collect();
    assert_eq!(
        keys_of(&["queens", "corners", "5", "--examples", "1", "--json"]),
        format!("n {}", sides.join(" "))
    );
    assert_eq!(keys_of(&["queens", "check", "2", "4", "1", "3", "--json"]), "n valid attacks");
    assert_eq!(
        keys_of(&["queens", "check", "1", "2", "3", "4", "--json"]),
        "n valid attacks attacks[].a attacks[].b attacks[].line"
    );
    assert_eq!(
        keys_of(&["queens", "check", "[2, 4, 1, 3]", "[1, 2, 3, 4]", "--json"]),
        "count valid placements placements[].n placements[].valid placements[].attacks \
         placements[].attacks[].a placements[].attacks[].b placements[].attacks[].line"
    );
}

#[test]
fn automaton_commands_keep_their_keys() {
    // `rule`: model 3's rule by its name, null for models 1 and 2 (issue 53).
    let run = "model n eps eta rule seed steps moves solved absorbing placement censored seconds";
    for args in
        [&["-n", "8"][..], &["--model", "row", "-n", "8"], &["-n", "3"], &["-n", "8", "--max-steps", "3"]]
    {
        assert_eq!(keys_of(&[&["automaton", "run", "--seed", "1", "--json"][..], args].concat()), run);
    }
    let summary = |at: &str| {
        ["runs", "solved", "censored", "absorbing", "mean_steps", "ci95", "median_steps", "mean_moves"]
            .map(|k| format!("{at}.summary.{k}"))
            .join(" ")
    };
    assert_eq!(
        keys_of(&[
            "automaton",
            "sweep",
            "-n",
            "8",
            "--eps",
            "0.01,0.1",
            "--samples",
            "2",
            "--seed",
            "1",
            "--json"
        ]),
        format!(
            "model n eta seed samples max_steps points points[].eps points[].summary {} seconds",
            summary("points[]")
        )
    );
    assert_eq!(
        keys_of(&["automaton", "scale", "-n", "6,8", "--samples", "2", "--seed", "1", "--json"]),
        format!(
            "eps eta seed samples max_steps budget positions points points[].model points[].n points[].summary {} \
             points[].seconds inverse_density seconds",
            summary("points[]")
        )
    );
    for figure in ["1", "7"] {
        assert_eq!(
            keys_of(&[
                "automaton",
                "trap",
                "--figure",
                figure,
                "--samples",
                "2",
                "--max-steps",
                "1000",
                "--json"
            ]),
            format!(
                "figure n position triangle robust cases cases[].model cases[].eps cases[].eta \
                 cases[].ideal_signals cases[].summary {}",
                summary("cases[]")
            )
        );
    }
    assert_eq!(
        keys_of(&[
            "automaton",
            "growth",
            "--from",
            &figure("growth_runs_automaton.csv"),
            "--resamples",
            "20",
            "--json"
        ]),
        "eps eta pair_max_steps cell_max_steps row_max_steps runs resamples boot_seed series series[].name \
         series[].points series[].points[].n series[].points[].runs series[].points[].censored \
         series[].points[].mean series[].points[].interval series[].points[].median series[].points[].mean_cpu_s \
         series[].fit series[].fit.rate series[].fit.rate_interval series[].fit.intercept series[].fit.ns \
         series[].fit.resamples series[].fit.seed series[].fit.rss series[].power_fit series[].power_fit.exponent \
         series[].power_fit.exponent_interval series[].power_fit.intercept series[].power_fit.ns \
         series[].power_fit.rss series[].better_fit series[].fit_error seconds"
    );
    assert_eq!(
        keys_of(&["automaton", "bench", "--json"]),
        "[].model [].n [].threads [].updates [].seconds [].updates_per_second"
    );
}
