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
/// space-separated.
fn keys_of(args: &[&str]) -> String {
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
