//! How a request's JSON object becomes its typed request: the keys each takes and those it
//! refuses, by name.

use serde_json::{Map, Value};

use crate::refusal::Refusal;

/// Most worker threads one request may ask for (`threads` of the counters).
pub const MAX_THREADS: u64 = 64;

/// The fields a request type takes, for the messages of an unknown or refused field.
pub(crate) trait Fields: serde::de::DeserializeOwned {
    /// The keys it accepts, in the command's order.
    const FIELDS: &'static [&'static str];
    /// The command's options that are not available over HTTP, and why.
    const REFUSED: Refused = &[];
    /// Refuses values the command itself refuses whatever the bounds (out of its range, a name
    /// it does not know): bad input comes before the bounds.
    fn check(&self) -> Result<(), Refusal> {
        Ok(())
    }
}

/// The fields of a table over the square boards up to a side (`lights table`, `walk table`):
/// `to`, the largest side, `DEFAULT` when absent, refused outside `MIN` to `MAX`.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpTo<const DEFAULT: u64, const MIN: u64, const MAX: u64> {
    /// The largest side (`DEFAULT` when `None`).
    #[serde(default, deserialize_with = "crate::de::opt_int")]
    pub to: Option<u64>,
}

impl<const DEFAULT: u64, const MIN: u64, const MAX: u64> UpTo<DEFAULT, MIN, MAX> {
    /// The largest side asked for.
    pub fn side(&self) -> u64 {
        self.to.unwrap_or(DEFAULT)
    }
}

impl<const DEFAULT: u64, const MIN: u64, const MAX: u64> Fields for UpTo<DEFAULT, MIN, MAX> {
    const FIELDS: &'static [&'static str] = &["to"];

    fn check(&self) -> Result<(), Refusal> {
        in_range("to", self.side(), MIN, MAX)
    }
}

/// Refuses `field`'s value outside `low..=high` (the command line's range).
pub(crate) fn in_range(field: &str, v: u64, low: u64, high: u64) -> Result<(), Refusal> {
    if !(low..=high).contains(&v) {
        return Err(Refusal::Input(format!(
            "field `{field}`: {v} is out of range: {low} to {high} is supported"
        )));
    }
    Ok(())
}

/// Options of a command that a request may not give, each with the reason.
pub type Refused = &'static [(&'static str, &'static str)];

/// Why a field that chooses the text form is refused.
pub(crate) const TEXT_FORM: &str = "chooses a text form, and the API always answers JSON";
/// Why a field that writes a file is refused.
pub(crate) const WRITES: &str = "writes a file on the server";

/// `fields` as the request type `T` of `path`: unknown and refused keys named, and a value's
/// error named by its key.
pub(crate) fn typed<T: Fields>(path: &str, fields: &Map<String, Value>) -> Result<T, Refusal> {
    for key in fields.keys() {
        if let Some((_, why)) = T::REFUSED.iter().find(|(k, _)| k == key) {
            return Err(Refusal::Input(format!("field `{key}` {why}: not available over HTTP")));
        }
        if !T::FIELDS.contains(&key.as_str()) {
            return Err(Refusal::Input(format!(
                "unknown field `{key}` for `{}` (fields: {})",
                path.replace('/', " "),
                T::FIELDS.join(", ")
            )));
        }
    }
    // Owned: a field's error names its key (serde_path_to_error).
    let value = Value::Object(fields.clone());
    let typed: T = serde_path_to_error::deserialize(value).map_err(|e| {
        let key = e.path().to_string();
        let inner = e.into_inner();
        if key == "." || key.is_empty() {
            Refusal::input(inner)
        } else {
            Refusal::Input(format!("field `{key}`: {inner}"))
        }
    })?;
    typed.check()?;
    Ok(typed)
}
