//! The web lab's trust rules checked against the CLI's real definitions: every argument of a
//! served command is a field of its request in the request layer, or refused there, or left to
//! the command line; and one that writes a file is refused.

use std::any::TypeId;
use std::path::PathBuf;

use clap::CommandFactory;

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

/// Every argument of a command the request layer serves is one of its request's fields, or
/// refused there with a reason, or one the lab leaves to the command line (the GPU's tuning,
/// MPI): a new option of the command is not silently missing from the lab.
#[test]
fn the_request_layer_knows_every_argument_of_its_commands() {
    let left_to_the_command_line = [
        "json",
        "help",
        "gpu_adapter",
        "gpu_budget",
        "gpu_kernel",
        "gpu_ahead",
        "gpu_portable",
        "gpu_workgroup_bytes",
        "gpu_shared_sums",
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
            // A file argument is typed as what it does: a bare path is refused over HTTP.
            if looks_like_a_path(arg) {
                assert!(
                    is(arg, TypeId::of::<OutputPath>()) || is(arg, TypeId::of::<InputFile>()),
                    "{group} {command} {id} looks like a path: declare it as OutputPath or InputFile"
                );
            }
            assert!(!is(arg, TypeId::of::<PathBuf>()), "{group} {command} {id}: a bare PathBuf");
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
