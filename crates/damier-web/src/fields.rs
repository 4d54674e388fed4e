//! The one mapping between a JSON object and a command's own arguments.
//!
//! `POST /api/<group>/<command>` with `{"n": 10}` runs exactly `damier <group> <command> 10
//! --json`: every key is the id of one of the command's arguments as clap knows it (the field
//! name of its `Args` struct, so `max_steps` for `--max-steps`), read from the CLI's own
//! `clap::Command` at run time. Nothing here lists a command's options, so a new option is on
//! the web the moment it is on the command line.
//!
//! Values: `true` sets a flag (`false` or `null` leaves it out), numbers and strings are passed
//! as they are, an array gives one value per element (a positional list such as `queens check`'s
//! columns, or a repeated option). Arguments that name an input file (`file`, `target`, `from`)
//! take the file's *content*; the content goes to a file in a private temporary folder and the
//! command gets that path. Arguments that write files (`out`, `csv`, `plot`, `dir`) are
//! refused: a page never writes on the server's disk.

use std::ffi::OsString;
use std::path::Path;

use clap::ArgAction;
use serde_json::Value;

/// Argument ids whose value is an input file: the JSON gives the file's content.
pub const INPUT_FILE_ARGS: &[&str] = &["file", "target", "from"];

/// Argument ids that write files: refused over HTTP.
pub const OUTPUT_FILE_ARGS: &[&str] = &["out", "csv", "plot", "dir"];

/// The commands a page may run, as `(group, command)`. Benchmarks, timings, exports and the
/// multi-machine `sum` stay on the command line: they measure the machine or write files.
pub const EXPOSED: &[(&str, &str)] = &[
    ("queens", "count"),
    ("queens", "list"),
    ("queens", "first"),
    ("queens", "solve"),
    ("queens", "max"),
    ("queens", "corners"),
    ("queens", "check"),
    ("automaton", "run"),
    ("automaton", "trap"),
    ("lights", "solve"),
    ("lights", "count"),
    ("lights", "kernel"),
    ("lights", "winnable"),
    ("lights", "table"),
    ("lights", "chase"),
    ("lights", "chase-table"),
    ("walk", "solve"),
    ("walk", "count"),
    ("walk", "table"),
    ("walk", "replay"),
];

/// True if `group command` may be run over HTTP.
pub fn is_exposed(group: &str, command: &str) -> bool {
    EXPOSED.iter().any(|&(g, c)| g == group && c == command)
}

/// Why a JSON object does not map onto a command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    /// The body is not a JSON object.
    #[error("the request body must be a JSON object of the command's options")]
    NotAnObject,
    /// The command does not exist or is not served.
    #[error("no command `{0} {1}` here")]
    UnknownCommand(String, String),
    /// A key names no argument of the command.
    #[error("unknown field `{field}` for `{command}` (fields: {known})")]
    UnknownField {
        /// The key given.
        field: String,
        /// `group command`.
        command: String,
        /// The accepted keys, comma-separated.
        known: String,
    },
    /// A key names an argument that writes files.
    #[error("field `{0}` writes a file on the server: not available over HTTP")]
    WritesFiles(String),
    /// A value of the wrong JSON type for its argument.
    #[error("field `{field}`: {expected}")]
    BadValue {
        /// The key.
        field: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// The temporary input file could not be written.
    #[error("cannot store the content of `{0}`: {1}")]
    Storage(String, String),
}

/// The command line `group command ... --json` for `fields`, looked up in `root` (the CLI's
/// whole command tree). Input-file contents are written under `files`.
pub fn to_arguments(
    root: &clap::Command,
    group: &str,
    command: &str,
    fields: &Value,
    files: &Path,
) -> Result<Vec<OsString>, FieldError> {
    let unknown = || FieldError::UnknownCommand(group.to_string(), command.to_string());
    if !is_exposed(group, command) {
        return Err(unknown());
    }
    let sub = root.find_subcommand(group).and_then(|g| g.find_subcommand(command)).ok_or_else(unknown)?;
    let Value::Object(map) = fields else {
        return Err(FieldError::NotAnObject);
    };
    let mut options: Vec<OsString> = Vec::new();
    let mut positionals: Vec<(usize, Vec<OsString>)> = Vec::new();
    for (key, value) in map {
        let arg = sub
            .get_arguments()
            .find(|a| a.get_id().as_str() == key && !a.is_hide_set() && key != "json")
            .ok_or_else(|| FieldError::UnknownField {
                field: key.clone(),
                command: format!("{group} {command}"),
                known: known_fields(sub),
            })?;
        if OUTPUT_FILE_ARGS.contains(&key.as_str()) {
            return Err(FieldError::WritesFiles(key.clone()));
        }
        let values = scalar_values(key, value, files)?;
        if arg.is_positional() {
            // Positionals are in definition order (clap fills `get_index` only once built).
            let index = sub.get_positionals().position(|p| p.get_id() == arg.get_id()).unwrap_or(usize::MAX);
            positionals.push((index, values));
            continue;
        }
        let long = arg.get_long().unwrap_or(key.as_str());
        match arg.get_action() {
            ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count => match value {
                Value::Bool(true) => options.push(format!("--{long}").into()),
                Value::Bool(false) | Value::Null => {}
                _ => return Err(FieldError::BadValue { field: key.clone(), expected: "true or false" }),
            },
            _ => {
                for v in values {
                    // `--name=value` keeps a value that starts with `-` a value.
                    let mut one = OsString::from(format!("--{long}="));
                    one.push(v);
                    options.push(one);
                }
            }
        }
    }
    positionals.sort_by_key(|(i, _)| *i);
    let mut args: Vec<OsString> = vec!["damier".into(), group.into(), command.into()];
    args.extend(options);
    if sub.get_arguments().any(|a| a.get_id() == "json") {
        args.push("--json".into());
    }
    if positionals.iter().any(|(_, v)| !v.is_empty()) {
        // Everything after `--` is positional, even `-1`.
        args.push("--".into());
        args.extend(positionals.into_iter().flat_map(|(_, v)| v));
    }
    Ok(args)
}

/// The keys a command accepts, for error messages.
fn known_fields(sub: &clap::Command) -> String {
    let ids: Vec<&str> = sub
        .get_arguments()
        .map(|a| a.get_id().as_str())
        .filter(|id| !["json", "help", "version"].contains(id) && !OUTPUT_FILE_ARGS.contains(id))
        .collect();
    ids.join(", ")
}

/// The command-line values of one JSON value (several for an array, none for `null`).
fn scalar_values(key: &str, value: &Value, files: &Path) -> Result<Vec<OsString>, FieldError> {
    let one = |v: &Value| -> Result<Option<OsString>, FieldError> {
        let text = match v {
            Value::Null => return Ok(None),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            _ => {
                return Err(FieldError::BadValue {
                    field: key.to_string(),
                    expected: "a number, a string, true/false or a list of them",
                });
            }
        };
        if INPUT_FILE_ARGS.contains(&key) {
            let path = files.join(key);
            std::fs::write(&path, text).map_err(|e| FieldError::Storage(key.to_string(), e.to_string()))?;
            return Ok(Some(path.into_os_string()));
        }
        Ok(Some(text.into()))
    };
    match value {
        Value::Array(items) => {
            if INPUT_FILE_ARGS.contains(&key) {
                return Err(FieldError::BadValue {
                    field: key.to_string(),
                    expected: "the file's content as a string",
                });
            }
            items.iter().filter_map(|v| one(v).transpose()).collect()
        }
        v => Ok(one(v)?.into_iter().collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, Command};

    fn tree() -> Command {
        Command::new("damier")
            .subcommand(
                Command::new("walk").subcommand(
                    Command::new("solve")
                        .arg(Arg::new("rows").required(true))
                        .arg(Arg::new("cols").required(true))
                        .arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                ),
            )
            .subcommand(
                Command::new("queens")
                    .subcommand(
                        Command::new("count")
                            .arg(Arg::new("n").required(true))
                            .arg(Arg::new("threads").long("threads"))
                            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                    )
                    .subcommand(
                        Command::new("check")
                            .arg(Arg::new("columns").num_args(0..).allow_negative_numbers(true))
                            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                    )
                    .subcommand(
                        Command::new("solve")
                            .arg(Arg::new("n").required(true))
                            .arg(Arg::new("out").long("out"))
                            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                    )
                    .subcommand(
                        Command::new("bench").arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                    ),
            )
    }

    fn args(group: &str, command: &str, v: Value) -> Result<Vec<String>, FieldError> {
        let dir = tempfile::tempdir().unwrap();
        to_arguments(&tree(), group, command, &v, dir.path())
            .map(|a| a.into_iter().map(|s| s.into_string().unwrap()).collect())
    }

    #[test]
    fn maps_positionals_options_and_flags() {
        let a = args("queens", "count", serde_json::json!({"n": 10, "threads": 2})).unwrap();
        assert_eq!(a, ["damier", "queens", "count", "--threads=2", "--json", "--", "10"]);
        let a = args("queens", "check", serde_json::json!({"columns": [2, -1, "3"]})).unwrap();
        assert_eq!(a, ["damier", "queens", "check", "--json", "--", "2", "-1", "3"]);
        // Positionals keep the command's order whatever the keys' order.
        let a = args("walk", "solve", serde_json::json!({"cols": 5, "rows": 4})).unwrap();
        assert_eq!(a, ["damier", "walk", "solve", "--json", "--", "4", "5"]);
    }

    #[test]
    fn refuses_unknown_fields_commands_and_writers() {
        let e = args("queens", "count", serde_json::json!({"m": 1})).unwrap_err();
        assert!(matches!(e, FieldError::UnknownField { ref field, .. } if field == "m"), "{e}");
        assert!(e.to_string().contains("fields: n, threads"), "{e}");
        assert!(matches!(
            args("queens", "bench", serde_json::json!({})),
            Err(FieldError::UnknownCommand(..))
        ));
        assert!(matches!(args("queens", "nope", serde_json::json!({})), Err(FieldError::UnknownCommand(..))));
        assert_eq!(
            args("queens", "solve", serde_json::json!({"n": 8, "out": "/etc/x"})),
            Err(FieldError::WritesFiles("out".into()))
        );
        assert_eq!(args("queens", "count", serde_json::json!([1])), Err(FieldError::NotAnObject));
        assert!(matches!(
            args("queens", "count", serde_json::json!({"n": {"a": 1}})),
            Err(FieldError::BadValue { .. })
        ));
    }
}
