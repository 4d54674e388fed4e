//! The web lab's trust rules checked against the CLI's real definitions: every served
//! command's arguments walked one by one, and random request bodies mapped, parsed and bounded
//! exactly as the `__api` child does.

use std::any::TypeId;
use std::path::{Path, PathBuf};

use super::fields::{self, ArgRule, FieldError};
use super::served::{self as limits, SERVED};
use clap::CommandFactory;
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::cmd::Cli;
use crate::util::{InputFile, OutputPath};

/// The served command `group command` in the CLI's own tree.
fn served(group: &str, command: &str) -> clap::Command {
    let root = Cli::command();
    let sub = root.find_subcommand(group).and_then(|g| g.find_subcommand(command)).cloned();
    sub.unwrap_or_else(|| panic!("`{group} {command}` is served but not in the CLI"))
}

fn is(arg: &clap::Arg, t: TypeId) -> bool {
    arg.get_value_parser().type_id() == t
}

/// Value names and hints that say "this is a path", whatever the argument's type.
fn looks_like_a_path(arg: &clap::Arg) -> bool {
    let names = arg.get_value_names().unwrap_or_default();
    names.iter().any(|n| ["FILE", "F", "DIR", "PATH"].contains(&n.as_str()))
        || matches!(
            arg.get_value_hint(),
            clap::ValueHint::FilePath | clap::ValueHint::DirPath | clap::ValueHint::AnyPath
        )
        || ["file", "dir", "out", "csv", "plot", "journal", "checkpoint", "pattern", "target", "from"]
            .contains(&arg.get_id().as_str())
}

#[test]
fn every_served_argument_is_declared_for_what_it_does() {
    let mut writers = Vec::new();
    let mut inputs = Vec::new();
    for &(group, command, _) in SERVED {
        let sub = served(group, command);
        for arg in sub.get_arguments() {
            let id = arg.get_id().as_str();
            let rule = ArgRule::of(arg);
            let name = format!("{group} {command} {id}");
            // A file argument is typed as what it does, so the rule can see it.
            if looks_like_a_path(arg) {
                assert!(
                    is(arg, TypeId::of::<OutputPath>()) || is(arg, TypeId::of::<InputFile>()),
                    "{name} looks like a path: declare it as OutputPath or InputFile"
                );
            }
            assert!(!is(arg, TypeId::of::<PathBuf>()), "{name}: a bare PathBuf is refused over HTTP");
            let dir = tempfile::tempdir().unwrap();
            let body = json!({ id: "x" });
            let mapped = fields::to_arguments(&Cli::command(), group, command, &body, dir.path());
            if is(arg, TypeId::of::<OutputPath>()) {
                assert!(matches!(rule, ArgRule::Refused(_)), "{name}");
                assert!(
                    matches!(mapped, Err(FieldError::Refused { ref field, .. }) if field == id),
                    "{name} writes a file: refused, got {mapped:?}"
                );
                writers.push(name.clone());
            } else if is(arg, TypeId::of::<InputFile>()) {
                assert_eq!(rule, ArgRule::Content, "{name}");
                let argv = mapped.unwrap_or_else(|e| panic!("{name}: {e}"));
                let stored = dir.path().join(id);
                assert_eq!(std::fs::read_to_string(&stored).unwrap(), "x", "{name} takes content");
                assert!(
                    argv.iter().any(|a| a.to_string_lossy().contains(&*stored.to_string_lossy())),
                    "{name}"
                );
                inputs.push(name.clone());
            }
            // Nothing a request can give lands anywhere but the private folder.
            for entry in std::fs::read_dir(dir.path()).unwrap() {
                assert_eq!(entry.unwrap().file_name().to_string_lossy(), id, "{name}");
            }
        }
    }
    // The known writers and readers are among them (the walk found the real definitions).
    for w in ["walk solve out", "automaton run checkpoint", "walk solve pattern"] {
        assert!(writers.iter().any(|x| x == w), "{w} in {writers:?}");
    }
    assert!(inputs.iter().any(|x| x == "automaton run from"), "automaton run from in {inputs:?}");
}

#[test]
fn no_test_only_flag_exists() {
    fn walk(c: &clap::Command, path: &str, found: &mut Vec<String>) {
        for a in c.get_arguments() {
            let id = a.get_id().as_str();
            if id.starts_with("test") || (a.is_hide_set() && !["help", "version"].contains(&id)) {
                found.push(format!("{path} {id}"));
            }
        }
        for s in c.get_subcommands() {
            walk(s, &format!("{path} {}", s.get_name()), found);
        }
    }
    let mut found = Vec::new();
    walk(&Cli::command(), "damier", &mut found);
    // `__api`'s own flag is the server's setting, on a command no request can name.
    found.retain(|f| !f.starts_with("damier __api"));
    assert!(found.is_empty(), "hidden or test-only arguments: {found:?}");
}

/// One random JSON value of any shape, path-like and option-like strings included.
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u64..40).prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        prop_oneof![
            Just("/tmp/damier-web-probe".to_string()),
            Just("-".to_string()),
            Just("--help".to_string()),
            Just("--out=/tmp/x".to_string()),
            Just("3000x3000".to_string()),
            Just("2000x2000".to_string()),
            Just("5x5".to_string()),
            Just("1e9".to_string()),
            Just("99999999999999999999999".to_string()),
            Just("0101\n1010\n".to_string()),
            "[ -~]{0,40}",
            Just("9".repeat(5000)),
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value for `arg` that is often of the shape it takes (so that many requests get past
/// the parser to the bounds) and sometimes anything at all.
fn value_for(arg: &clap::Arg) -> BoxedStrategy<Value> {
    let choices: Vec<String> = arg.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
    let plausible: BoxedStrategy<Value> = match ArgRule::of(arg) {
        _ if !choices.is_empty() => prop::sample::select(choices).prop_map(Value::String).boxed(),
        ArgRule::Flag => any::<bool>().prop_map(Value::Bool).boxed(),
        ArgRule::One | ArgRule::Refused(_) => prop_oneof![
            (0u64..30).prop_map(|n| json!(n)),
            (0u64..3000).prop_map(|n| json!(n)),
            (0u64..2_000_000_000).prop_map(|n| json!(n)),
            prop::sample::select(vec![
                "5x5",
                "2000x2000",
                "2001x3",
                "3x3000",
                "6x4",
                "/tmp/damier-web-probe"
            ])
            .prop_map(|s| json!(s)),
        ]
        .boxed(),
        ArgRule::Many => {
            prop::collection::vec((1u64..12).prop_map(|n| json!(n)), 0..12).prop_map(Value::Array).boxed()
        }
        ArgRule::Content => prop::sample::select(vec![
            "0101\n1010\n0110\n".to_string(),
            "P1\n2001 1\n".to_string() + &"0 ".repeat(2001),
            ".1..\n...1\n1...\n..1.\n".to_string(),
            format!("{}\n", ".".repeat(70)).repeat(70),
        ])
        .prop_map(Value::String)
        .boxed(),
    };
    prop_oneof![3 => plausible, 1 => any_value()].boxed()
}

/// A request: a served command and an object of its own fields (each present or not), now
/// and then with an unknown one.
fn any_request() -> impl Strategy<Value = (usize, Value)> {
    (0..SERVED.len()).prop_flat_map(|i| {
        let (group, command, _) = SERVED[i];
        let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = served(group, command)
            .get_arguments()
            .filter(|a| !["help", "version"].contains(&a.get_id().as_str()))
            .map(|a| {
                let id = a.get_id().as_str().to_string();
                let weight = if a.is_positional() { 0.9 } else { 0.3 };
                prop::option::weighted(weight, value_for(a).prop_map(move |v| (id.clone(), v))).boxed()
            })
            .collect();
        fields
            .push(prop::option::weighted(0.05, any_value().prop_map(|v| ("colour".to_string(), v))).boxed());
        (Just(i), fields).prop_map(|(i, kv)| (i, Value::Object(kv.into_iter().flatten().collect())))
    })
}

/// The independent reading of the bounds, for the property: the largest value each bounded
/// argument may reach on a served request (none of `limits`' code).
fn within_bounds(group: &str, command: &str, m: &clap::ArgMatches) -> Result<(), String> {
    let get = |id: &str| -> Option<u64> {
        m.try_get_one::<u32>(id)
            .ok()
            .flatten()
            .map(|&v| u64::from(v))
            .or_else(|| m.try_get_one::<u64>(id).ok().flatten().copied())
            .or_else(|| m.try_get_one::<usize>(id).ok().flatten().map(|&v| v as u64))
    };
    let over = |id: &str, max: u64| get(id).is_some_and(|v| v > max);
    let bad = match (group, command) {
        _ if over("threads", limits::MAX_THREADS) => Some("threads"),
        ("automaton", "run") if over("n", limits::AUTOMATON_MAX_N) => Some("n"),
        ("automaton", "run") if over("max_steps", limits::AUTOMATON_MAX_STEPS) => Some("max_steps"),
        ("walk", _) if over("rows", limits::BOARD_MAX_SIDE) || over("cols", limits::BOARD_MAX_SIDE) => {
            Some("rows/cols")
        }
        _ => None,
    };
    bad.map_or(Ok(()), |b| Err(format!("{group} {command}: {b} past its bound")))
}

/// Every path the parsed arguments hold, of either file type.
fn paths_in(sub: &clap::Command, m: &clap::ArgMatches) -> Vec<(String, PathBuf, bool)> {
    let mut out = Vec::new();
    for arg in sub.get_arguments() {
        let id = arg.get_id().as_str();
        if let Ok(Some(p)) = m.try_get_one::<OutputPath>(id) {
            out.push((id.to_string(), p.to_path_buf(), true));
        }
        if let Ok(Some(p)) = m.try_get_one::<InputFile>(id) {
            out.push((id.to_string(), p.to_path_buf(), false));
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6000, ..ProptestConfig::default() })]

    /// What the `__api` child does with any body: map it, parse it, bound it. Whatever passes
    /// names no file to write, reads only files of its private folder, and is within bounds.
    #[test]
    fn any_body_is_mapped_parsed_and_bounded((i, body) in any_request()) {
        let (group, command, _) = SERVED[i];
        let dir = tempfile::tempdir().unwrap();
        let Ok(argv) = fields::to_arguments(&Cli::command(), group, command, &body, dir.path()) else {
            return Ok(());
        };
        let Ok(matches) = Cli::command().try_get_matches_from(argv) else { return Ok(()) };
        let leaf = matches.subcommand_matches(group).and_then(|g| g.subcommand_matches(command)).unwrap();
        if limits::check(group, command, &served(group, command), leaf).is_err() {
            return Ok(());
        }
        prop_assert_eq!(within_bounds(group, command, leaf), Ok(()), "{}", body);
        for (id, path, writes) in paths_in(&served(group, command), leaf) {
            prop_assert!(!writes, "{} {} {}: a written path passed: {:?}", group, command, id, path);
            prop_assert!(path.starts_with(dir.path()), "{}: reads {:?}, outside its folder", id, path);
        }
        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let name = entry.unwrap().file_name();
            prop_assert!(body.get(name.to_string_lossy().as_ref()).is_some(), "{:?} not a field", name);
        }
        prop_assert!(!Path::new("/tmp/damier-web-probe").exists());
    }
}

/// Every argument of a command the request layer serves is one of its request's fields, or
/// refused there with a reason, or one the lab leaves to the command line (the GPU's tuning,
/// MPI): a new option of the command is not silently missing from the lab.
#[test]
fn the_request_layer_knows_every_argument_of_its_commands() {
    let left_to_the_command_line = [
        "json",
        "help",
        "gpu_adapter",
        "gpu_rows",
        "gpu_slots",
        "gpu_budget",
        "gpu_kernel",
        "gpu_ahead",
        "mpi",
    ];
    for path in damier_api::PATHS {
        let (group, command) = path.split_once('/').unwrap();
        let (fields, refused) = damier_api::Request::fields(path).unwrap();
        for arg in served(group, command).get_arguments() {
            let id = arg.get_id().as_str();
            let known = fields.contains(&id)
                || refused.iter().any(|(k, _)| *k == id)
                || left_to_the_command_line.contains(&id);
            assert!(known, "{group} {command} {id}: neither a field of the request nor refused");
            if is(arg, TypeId::of::<OutputPath>()) {
                assert!(
                    refused.iter().any(|(k, _)| *k == id),
                    "{group} {command} {id} writes a file: refused"
                );
            }
        }
        for f in fields {
            assert!(
                served(group, command).get_arguments().any(|a| a.get_id() == *f),
                "{group} {command}: field {f} is no argument of the command"
            );
        }
    }
}
