//! The one mapping between a JSON object and a command's own arguments, run by the `__api`
//! child of `damier serve`.
//!
//! `POST /api/<group>/<command>` with `{"n": 10}` runs exactly `damier <group> <command> 10
//! --json`: every key is the id of one of the command's arguments as clap knows it (the field
//! name of its `Args` struct, so `max_steps` for `--max-steps`), read from the CLI's own
//! `clap::Command` at run time. Nothing here lists a command's options, so a new option is on
//! the web the moment it is on the command line, under the rules of [`ArgRule`]; the commands
//! served are those of [`super::served::SERVED`].
//!
//! Each argument takes exactly one JSON shape ([`ArgRule`]): a flag `true`, `false` or `null`;
//! a one-value argument a number or a string; a many-value argument (a positional list, or a
//! repeated option) an array of them or one of them; an input
//! file ([`InputFile`]) its content as a string, which goes to a file in a private temporary
//! folder whose path the command gets. Any other shape is refused, and so is every argument
//! that writes or names a file on the server (its type says so: [`OutputPath`], or a bare
//! path) or that the command declares in conflict with `--json` (`--columns`: a text form).
//! Values reach clap as `--name=value` and positionals after `--`, so a value starting with
//! `-` stays a value.
//!
//! What an argument may carry is read from its type, not its name: a new option that writes a
//! file is refused over HTTP the day it is added, if it is declared as what it is.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::served::is_served;
use crate::util::{InputFile, OutputPath};

/// What a request may give for one argument of a served command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgRule {
    /// A flag: JSON `true` sets it, `false` or `null` leaves it out.
    Flag,
    /// One value: a JSON number or string.
    One,
    /// Several values: a JSON array of numbers or strings (or one of them).
    Many,
    /// An input file: its content, as one JSON string.
    Content,
    /// Not available over HTTP, and why.
    Refused(&'static str),
}

impl ArgRule {
    /// The rule of `arg`, from its action, arity and value type.
    pub fn of(arg: &clap::Arg) -> ArgRule {
        use std::any::TypeId;
        let parser = arg.get_value_parser();
        let is = |t: TypeId| parser.type_id() == t;
        if is(TypeId::of::<OutputPath>()) {
            return ArgRule::Refused("writes a file on the server");
        }
        if is(TypeId::of::<PathBuf>()) || is(TypeId::of::<OsString>()) {
            return ArgRule::Refused("names a file on the server");
        }
        let many = matches!(arg.get_action(), clap::ArgAction::Append)
            || arg.get_num_args().is_some_and(|r| r.max_values() > 1);
        if is(TypeId::of::<InputFile>()) {
            return if many {
                ArgRule::Refused("names several files on the server")
            } else {
                ArgRule::Content
            };
        }
        match arg.get_action() {
            clap::ArgAction::SetTrue | clap::ArgAction::SetFalse | clap::ArgAction::Count => ArgRule::Flag,
            clap::ArgAction::Set | clap::ArgAction::Append if many => ArgRule::Many,
            clap::ArgAction::Set => ArgRule::One,
            _ => ArgRule::Refused("is not an option of the command"),
        }
    }

    /// The rule of `arg` as an argument of `command`: [`ArgRule::of`], except that an
    /// argument the command declares in conflict with `--json` (a choice among text forms,
    /// such as `--columns`) is refused, since every API call runs with `--json`.
    pub fn in_command(command: &clap::Command, arg: &clap::Arg) -> ArgRule {
        let is_json = |a: &clap::Arg| a.get_id() == JSON;
        let json = command.get_arguments().find(|a| is_json(a));
        let excludes_json = json.is_some_and(|json| {
            !is_json(arg)
                && (command.get_arg_conflicts_with(arg).into_iter().any(is_json)
                    || command.get_arg_conflicts_with(json).into_iter().any(|a| a.get_id() == arg.get_id()))
        });
        if excludes_json {
            ArgRule::Refused("chooses a text form, and the API always answers JSON")
        } else {
            ArgRule::of(arg)
        }
    }
}

/// The id of the argument every API call adds (`--json`).
const JSON: &str = "json";

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
    /// A key names an argument that writes or names a file on the server.
    #[error("field `{field}` {why}: not available over HTTP")]
    Refused {
        /// The key.
        field: String,
        /// What the argument does ([`ArgRule::Refused`]).
        why: &'static str,
    },
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
    if !is_served(group, command) {
        return Err(unknown());
    }
    let sub = root.find_subcommand(group).and_then(|g| g.find_subcommand(command)).ok_or_else(unknown)?;
    let Value::Object(map) = fields else {
        return Err(FieldError::NotAnObject);
    };
    let mut options: Vec<OsString> = Vec::new();
    let mut positionals: Vec<(usize, Vec<OsString>)> = Vec::new();
    for (key, value) in map {
        let arg = served_arguments(sub).find(|a| a.get_id().as_str() == key).ok_or_else(|| {
            FieldError::UnknownField {
                field: key.clone(),
                command: format!("{group} {command}"),
                known: known_fields(sub),
            }
        })?;
        let rule = ArgRule::in_command(sub, arg);
        let values = values_of(key, rule, value, files)?;
        if arg.is_positional() {
            // Positionals are in definition order (clap fills `get_index` only once built).
            let index = sub.get_positionals().position(|p| p.get_id() == arg.get_id()).unwrap_or(usize::MAX);
            positionals.push((index, values));
            continue;
        }
        let long = arg.get_long().unwrap_or(key.as_str());
        if rule == ArgRule::Flag {
            if value == &Value::Bool(true) {
                options.push(format!("--{long}").into());
            }
            continue;
        }
        for v in values {
            // `--name=value` keeps a value that starts with `-` a value.
            let mut one = OsString::from(format!("--{long}="));
            one.push(v);
            options.push(one);
        }
    }
    positionals.sort_by_key(|(i, _)| *i);
    let mut args: Vec<OsString> = vec!["damier".into(), group.into(), command.into()];
    args.extend(options);
    if sub.get_arguments().any(|a| a.get_id() == JSON) {
        args.push("--json".into());
    }
    if positionals.iter().any(|(_, v)| !v.is_empty()) {
        // Everything after `--` is positional, even `-1`.
        args.push("--".into());
        args.extend(positionals.into_iter().flat_map(|(_, v)| v));
    }
    Ok(args)
}

/// The arguments of `sub` a request may name: not hidden, not `--json` (always added), not
/// help or version, and not refused by their [`ArgRule`].
fn served_arguments(sub: &clap::Command) -> impl Iterator<Item = &clap::Arg> {
    sub.get_arguments()
        .filter(|a| !a.is_hide_set() && ![JSON, "help", "version"].contains(&a.get_id().as_str()))
}

/// The keys a command accepts, for error messages (refused arguments are not listed).
fn known_fields(sub: &clap::Command) -> String {
    let ids: Vec<&str> = served_arguments(sub)
        .filter(|a| !matches!(ArgRule::in_command(sub, a), ArgRule::Refused(_)))
        .map(|a| a.get_id().as_str())
        .collect();
    ids.join(", ")
}

/// The command-line values of the JSON `value` of the argument `key` under `rule` (none for
/// `null`), or the refusal of a shape the rule does not take.
fn values_of(key: &str, rule: ArgRule, value: &Value, files: &Path) -> Result<Vec<OsString>, FieldError> {
    let bad = |expected: &'static str| FieldError::BadValue { field: key.to_string(), expected };
    let scalar = |v: &Value| match v {
        Value::Number(n) => Ok(OsString::from(n.to_string())),
        Value::String(s) => Ok(OsString::from(s)),
        _ => Err(bad("a number or a string")),
    };
    if value.is_null() {
        return Ok(Vec::new());
    }
    match rule {
        ArgRule::Refused(why) => Err(FieldError::Refused { field: key.to_string(), why }),
        ArgRule::Flag => match value {
            Value::Bool(_) => Ok(Vec::new()),
            _ => Err(bad("true or false")),
        },
        ArgRule::One => Ok(vec![scalar(value)?]),
        ArgRule::Many => match value {
            Value::Array(items) => {
                items.iter().map(|v| scalar(v).map_err(|_| bad("a list of numbers or strings"))).collect()
            }
            v => Ok(vec![scalar(v)?]),
        },
        ArgRule::Content => {
            let Value::String(text) = value else { return Err(bad("the file's content as a string")) };
            let path = files.join(key);
            write_private(&path, text.as_bytes())
                .map_err(|e| FieldError::Storage(key.to_string(), e.to_string()))?;
            Ok(vec![path.into_os_string()])
        }
    }
}

/// Writes a new file readable by its owner only (0600 on Unix); an existing file is an error.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction, Command, value_parser};

    fn tree() -> Command {
        Command::new("damier")
            .subcommand(
                Command::new("walk")
                    .subcommand(
                        Command::new("count")
                            .arg(Arg::new("rows").required(true))
                            .arg(Arg::new("cols").required(true))
                            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                    )
                    .subcommand(
                        Command::new("table")
                            .arg(Arg::new("n").required(true))
                            .arg(Arg::new("out").long("out").value_parser(value_parser!(OutputPath)))
                            .arg(Arg::new("from").long("from").value_parser(value_parser!(InputFile)))
                            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                    ),
            )
            .subcommand(
                Command::new("automaton")
                    .subcommand(
                        Command::new("trap")
                            .arg(Arg::new("n").required(true))
                            .arg(Arg::new("threads").long("threads"))
                            .arg(Arg::new("journal").long("journal").value_parser(value_parser!(OutputPath)))
                            .arg(Arg::new("secret").long("secret").hide(true))
                            .arg(Arg::new("json").long("json").action(ArgAction::SetTrue)),
                    )
                    .subcommand(
                        Command::new("run")
                            .arg(Arg::new("columns").num_args(0..).allow_negative_numbers(true))
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
        let a = args("automaton", "trap", serde_json::json!({"n": 10, "threads": 2})).unwrap();
        assert_eq!(a, ["damier", "automaton", "trap", "--threads=2", "--json", "--", "10"]);
        let a = args("automaton", "run", serde_json::json!({"columns": [2, -1, "3"]})).unwrap();
        assert_eq!(a, ["damier", "automaton", "run", "--json", "--", "2", "-1", "3"]);
        // Positionals keep the command's order whatever the keys' order.
        let a = args("walk", "count", serde_json::json!({"cols": 5, "rows": 4})).unwrap();
        assert_eq!(a, ["damier", "walk", "count", "--json", "--", "4", "5"]);
    }

    #[test]
    fn refuses_unknown_fields_commands_and_writers() {
        let e = args("automaton", "trap", serde_json::json!({"m": 1})).unwrap_err();
        assert!(matches!(e, FieldError::UnknownField { ref field, .. } if field == "m"), "{e}");
        assert!(e.to_string().contains("fields: n, threads"), "{e}");
        assert!(matches!(
            args("automaton", "bench", serde_json::json!({})),
            Err(FieldError::UnknownCommand(..))
        ));
        assert!(matches!(
            args("automaton", "nope", serde_json::json!({})),
            Err(FieldError::UnknownCommand(..))
        ));
        for (group, command, field) in [("walk", "table", "out"), ("automaton", "trap", "journal")] {
            let e = args(group, command, serde_json::json!({"n": 8, field: "/etc/x"})).unwrap_err();
            assert!(matches!(e, FieldError::Refused { field: ref f, .. } if f == field), "{e}");
            assert!(e.to_string().contains("writes a file"), "{e}");
        }
        // Hidden arguments are no fields, and are not listed.
        let e = args("automaton", "trap", serde_json::json!({"secret": 1})).unwrap_err();
        let FieldError::UnknownField { ref known, .. } = e else { panic!("{e}") };
        assert_eq!(known, "n, threads", "hidden and refused fields are not offered");
        assert_eq!(args("automaton", "trap", serde_json::json!([1])), Err(FieldError::NotAnObject));
    }

    #[test]
    fn each_argument_takes_one_shape() {
        let bad = |v: Value| {
            let e = args("automaton", "trap", v.clone()).unwrap_err();
            assert!(matches!(e, FieldError::BadValue { .. }), "{v}: {e}");
        };
        bad(serde_json::json!({"n": {"a": 1}}));
        bad(serde_json::json!({"n": [8, 9]}));
        bad(serde_json::json!({"n": true}));
        bad(serde_json::json!({"n": 8, "threads": [2]}));
        let e = args("automaton", "run", serde_json::json!({"columns": [1, [2]]})).unwrap_err();
        assert!(matches!(e, FieldError::BadValue { .. }), "{e}");
        let e = args("walk", "table", serde_json::json!({"n": 8, "from": ["a"]})).unwrap_err();
        assert!(matches!(e, FieldError::BadValue { .. }), "{e}");
        // A list of one value may be one value; null is "not given".
        let a = args("automaton", "run", serde_json::json!({"columns": 3})).unwrap();
        assert_eq!(a, ["damier", "automaton", "run", "--json", "--", "3"]);
        let a = args("automaton", "trap", serde_json::json!({"n": 8, "threads": null})).unwrap();
        assert_eq!(a, ["damier", "automaton", "trap", "--json", "--", "8"]);
        // Values that look like options stay values.
        let a = args("automaton", "trap", serde_json::json!({"n": "-5", "threads": "--help"})).unwrap();
        assert_eq!(a, ["damier", "automaton", "trap", "--threads=--help", "--json", "--", "-5"]);
    }

    #[test]
    fn input_files_take_their_content() {
        let dir = tempfile::tempdir().unwrap();
        let a =
            to_arguments(&tree(), "walk", "table", &serde_json::json!({"n": 8, "from": "1 2\n"}), dir.path())
                .unwrap();
        let path = dir.path().join("from");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "1 2\n");
        assert!(a.contains(&OsString::from(format!("--from={}", path.display()))), "{a:?}");
        // Private: readable by its owner only, whatever the umask.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
            let folder = damier_web::jobs::private_folder().unwrap();
            assert_eq!(std::fs::metadata(folder.path()).unwrap().permissions().mode() & 0o777, 0o700);
        }
    }
    #[test]
    fn argument_rules_follow_the_type() {
        use clap::{Arg, ArgAction, value_parser};
        let rule = |a: Arg| ArgRule::of(&a);
        assert_eq!(
            rule(Arg::new("out").long("out").value_parser(value_parser!(OutputPath))),
            ArgRule::Refused("writes a file on the server")
        );
        assert!(matches!(
            rule(Arg::new("x").long("x").value_parser(value_parser!(PathBuf))),
            ArgRule::Refused(_)
        ));
        assert!(matches!(
            rule(Arg::new("x").long("x").value_parser(value_parser!(OsString))),
            ArgRule::Refused(_)
        ));
        assert_eq!(rule(Arg::new("f").value_parser(value_parser!(InputFile))), ArgRule::Content);
        assert_eq!(rule(Arg::new("j").long("j").action(ArgAction::SetTrue)), ArgRule::Flag);
        assert_eq!(rule(Arg::new("n").value_parser(value_parser!(u32))), ArgRule::One);
        assert_eq!(rule(Arg::new("c").num_args(0..).value_parser(value_parser!(u32))), ArgRule::Many);
        assert_eq!(rule(Arg::new("s").long("s").action(ArgAction::Append)), ArgRule::Many);
    }

    #[test]
    fn an_argument_in_conflict_with_json_is_refused() {
        use clap::{Arg, ArgAction, Command};
        let flag = |id: &'static str| Arg::new(id).long(id).action(ArgAction::SetTrue);
        let command = Command::new("first")
            .arg(flag("json"))
            .arg(flag("columns").conflicts_with("json"))
            .arg(flag("boards"))
            .arg(flag("plain"))
            .arg(flag("terse").conflicts_with("plain"));
        let command =
            Command::new("damier").subcommand(command.mut_arg("json", |a| a.conflicts_with("boards")));
        let command = command.find_subcommand("first").unwrap();
        let rule = |id: &str| {
            ArgRule::in_command(command, command.get_arguments().find(|a| a.get_id() == id).unwrap())
        };
        // Declared on either side of the conflict.
        assert!(matches!(rule("columns"), ArgRule::Refused(why) if why.contains("JSON")));
        assert!(matches!(rule("boards"), ArgRule::Refused(_)));
        for id in ["json", "plain", "terse"] {
            assert_eq!(rule(id), ArgRule::Flag, "{id}");
        }
    }
}
