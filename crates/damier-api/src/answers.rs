//! The tool's answers read back (`queens check`'s input): the placements of a JSON answer
//! (the records of this layer: `queens first|list|solve --json`, `automaton run --json`), or
//! else of the text forms ([`Placement::parse_all`]); the witness of `queens max` in either.
//! The library reads placements, not the front ends' JSON shapes: the reader is the layer's,
//! beside the records it reads.
//!
//! JSON is read as the text goes by: no tree of values is built (a `serde_json::Value` holds
//! about 100 bytes a column), only the lists of columns themselves, 4 bytes a column, grown
//! without aborting. What is read: every `columns` list (else `placement`) of an object and
//! every list of its `solutions`, in the objects of the top level and of nested arrays; every
//! other value is skipped unread.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use damier::queens::Placement;
use damier::queens::placement::{PlacementError, Witness};
use damier::util::{OutOfMemory, try_with_capacity};

/// Every placement in what the tool prints, its JSON included ([`Placement::parse_all`] for
/// text): every `columns` list and every list of `solutions` in a JSON answer of `damier
/// queens first|list|solve --json`, and the `placement` of `damier automaton run --json`
/// (1-based columns). What `damier queens check` reads. A JSON array of plain numbers (`[1, 5,
/// 8, 6, 3, 7, 2, 4]`) is read as text: one bracketed placement.
///
/// ```
/// use damier::queens::Placement;
/// use damier_api::answers::read_placements;
///
/// let json = r#"{"n": 4, "method": "construct", "seconds": 0.0, "columns": [2, 4, 1, 3]}"#;
/// assert_eq!(read_placements(json).unwrap(), [Placement::parse("2 4 1 3").unwrap()]);
/// assert_eq!(read_placements("[2, 4, 1, 3]").unwrap().len(), 1);
/// ```
pub fn read_placements(text: &str) -> Result<Vec<Placement>, PlacementError> {
    json_placements(text).unwrap_or_else(|| Placement::parse_all(text))
}

/// The witness `damier queens max` prints when fewer than n queens fit (R(n) < n), in its
/// text ([`Placement::read_witness`]) or its JSON, whose `columns` hold a 0 for an empty row;
/// `None` when `text` holds no such witness.
///
/// ```
/// use damier_api::answers::read_witness;
///
/// let json = r#"{"n": 3, "max": 2, "columns": [1, 3, 0]}"#;
/// assert_eq!(read_witness(json).unwrap().unwrap(), (3, vec![(0, 0), (1, 2)]));
/// assert!(read_witness("S = (2, 4, 1, 3)").is_none());
/// ```
pub fn read_witness(text: &str) -> Option<Result<Witness, PlacementError>> {
    Placement::read_witness(text).or_else(|| json_witness(text))
}

/// The placements of a JSON answer: every `columns` (or `placement`) list and every list of
/// `solutions`, read as the text goes by; `None` when the text is not JSON or holds no object
/// (plain arrays are text's brackets).
fn json_placements(text: &str) -> Option<Result<Vec<Placement>, PlacementError>> {
    let t = text.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    placements(t)
}

/// The witness of a JSON answer whose `columns` hold a 0 (an empty row: `queens max --json`
/// when R(n) < n).
fn json_witness(text: &str) -> Option<Result<Witness, PlacementError>> {
    match top_columns(text.trim_start())? {
        Ok(cols) => cols.has_empty_row().then(|| cols.witness()),
        Err(e) => Some(Err(e.into())),
    }
}

/// One list of 1-based columns as read, 4 bytes a column: a column beyond `u32` is kept as
/// `u32::MAX`, the first of them aside (its row and value) for the error that names it.
#[derive(Debug, Default)]
struct Columns {
    /// The columns, 1-based.
    pub cols: Vec<u32>,
    /// The first column beyond `u32`: its 0-based row and its value.
    pub big: Option<(usize, u64)>,
}

/// What a walk found: the placements (until the first list that is none), whether an object
/// was met, the first refusal of memory.
#[derive(Default)]
struct Found {
    placements: Vec<Placement>,
    error: Option<PlacementError>,
    object: bool,
    oom: Option<OutOfMemory>,
}

/// The placements of the JSON `text`, in order: `None` when `text` is not JSON or holds no
/// object (a plain list of numbers is text's bracketed placement).
fn placements(text: &str) -> Option<Result<Vec<Placement>, PlacementError>> {
    let mut found = Found::default();
    let read = walk_text(text, Walk { found: &mut found });
    if let Some(e) = found.oom {
        return Some(Err(e.into()));
    }
    if !(read && found.object) {
        return None;
    }
    Some(match (found.error, found.placements) {
        (Some(e), _) => Err(e),
        (None, p) if p.is_empty() => Err(PlacementError::NoneInJson),
        (None, mut p) => {
            p.shrink_to_fit();
            Ok(p)
        }
    })
}

/// The `columns` of the object at the top of the JSON `text` (the witness of `queens max
/// --json`): `None` when `text` is not JSON, not an object, or its `columns` are no list of
/// whole numbers.
fn top_columns(text: &str) -> Option<Result<Columns, OutOfMemory>> {
    let mut found = Found::default();
    let mut top = None;
    let read = walk_text(text, Top { found: &mut found, top: &mut top });
    if let Some(e) = found.oom {
        return Some(Err(e));
    }
    if !read {
        return None;
    }
    top.map(Ok)
}

impl Columns {
    /// The first row (0-based) whose column is out of `1..=n` (a `bad` column), and that column.
    fn first_out(&self, bad: impl Fn(u32) -> bool) -> Option<(usize, u64)> {
        let big = self.big.map(|(r, _)| r);
        let r = self.cols.iter().enumerate().position(|(r, &c)| bad(c) || Some(r) == big)?;
        Some((r, self.big.filter(|&(b, _)| b == r).map_or(u64::from(self.cols[r]), |(_, v)| v)))
    }

    /// The placement of these 1-based columns, in place.
    fn placement(self) -> Result<Placement, PlacementError> {
        let n = self.cols.len();
        if n == 0 {
            return Err(PlacementError::Empty);
        }
        if u32::try_from(n).is_err() {
            return Err(PlacementError::TooLarge(n));
        }
        if let Some((r, column)) = self.first_out(|c| c == 0 || c as usize > n) {
            return Err(PlacementError::OutOfRange { row: r + 1, column, n });
        }
        let mut cols = self.cols;
        for c in &mut cols {
            *c -= 1;
        }
        Placement::new(cols)
    }

    /// Whether a column is 0 (an empty row of a witness).
    fn has_empty_row(&self) -> bool {
        self.cols.contains(&0)
    }

    /// The witness of these 1-based columns, 0 an empty row: the board size and the queens.
    fn witness(self) -> Result<Witness, PlacementError> {
        let n = self.cols.len();
        if n == 0 {
            return Err(PlacementError::Empty);
        }
        let size = u32::try_from(n).map_err(|_| PlacementError::TooLarge(n))?;
        if let Some((r, column)) = self.first_out(|c| c as usize > n) {
            return Err(PlacementError::OutOfRange { row: r + 1, column, n });
        }
        let mut queens = try_with_capacity(self.cols.iter().filter(|&&c| c != 0).count())?;
        queens
            .extend(self.cols.iter().enumerate().filter(|&(_, &c)| c != 0).map(|(r, &c)| (r as u32, c - 1)));
        Ok((size, queens))
    }
}

/// Runs `seed` on the JSON `text` to its end; whether it was JSON.
fn walk_text<'de, S: DeserializeSeed<'de, Value = ()>>(text: &'de str, seed: S) -> bool {
    let mut d = serde_json::Deserializer::from_str(text);
    seed.deserialize(&mut d).is_ok() && d.end().is_ok()
}

/// A refusal of memory, kept in `found` and turned into an error that stops the walk.
fn refused<E: de::Error>(oom: &mut Option<OutOfMemory>, e: OutOfMemory) -> E {
    *oom = Some(e);
    E::custom(e)
}

/// Any value inside an array (or the top level): arrays are walked, objects read.
struct Walk<'f> {
    found: &'f mut Found,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// The scalar visits of a visitor that skips them, answering `$skip`.
macro_rules! skip_scalars {
    ($skip:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($skip)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($skip)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($skip)
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($skip)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($skip)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($skip)
        }
    };
}

/// The visit of an object by a visitor that skips it to its end, answering `$skip`.
macro_rules! skip_objects {
    ($skip:expr) => {
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok($skip)
        }
    };
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    skip_scalars!(());

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Walk { found: &mut *self.found })?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let found = self.found;
        found.object = true;
        let (columns, placement, solutions) = read_object(map, &mut found.oom, true)?;
        // `placement` (the solution of `automaton run --json`) only where no `columns` key is.
        let own = match columns {
            Some(columns) => columns,
            None => placement,
        };
        if found.error.is_some() {
            return Ok(());
        }
        match own.map(Columns::placement) {
            Some(Ok(p)) => push(&mut found.placements, p, &mut found.oom)?,
            Some(Err(e)) => {
                found.error = Some(e);
                return Ok(());
            }
            None => {}
        }
        if let Some((placements, error)) = solutions {
            if found.placements.is_empty() {
                found.placements = placements;
            } else {
                let bytes = (size_of::<Placement>() * placements.len()) as u64;
                found
                    .placements
                    .try_reserve(placements.len())
                    .map_err(|_| refused(&mut found.oom, OutOfMemory::refused(bytes)))?;
                found.placements.extend(placements);
            }
            found.error = error;
        }
        Ok(())
    }
}

/// The top level, for its object's `columns` only.
struct Top<'f> {
    found: &'f mut Found,
    top: &'f mut Option<Columns>,
}

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    skip_scalars!(());

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let (columns, _, _) = read_object(map, &mut self.found.oom, false)?;
        *self.top = columns.flatten();
        Ok(())
    }
}

/// The keys read; every other is skipped.
enum Key {
    Columns,
    Placement,
    Solutions,
    Other,
}

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(match key {
            "columns" => Key::Columns,
            "placement" => Key::Placement,
            "solutions" => Key::Solutions,
            _ => Key::Other,
        })
    }
}

/// An object's `columns` (`None` without the key, `Some(None)` when it is no list of whole
/// numbers), `placement` and `solutions` (the lists of whole numbers among its items); the
/// last two only when `all`. A repeated key keeps its last value, as a JSON object does.
#[allow(clippy::type_complexity)]
fn read_object<'de, A: MapAccess<'de>>(
    mut map: A,
    oom: &mut Option<OutOfMemory>,
    all: bool,
) -> Result<(Option<Option<Columns>>, Option<Columns>, Option<Listed>), A::Error> {
    let (mut columns, mut placement, mut solutions) = (None, None, None);
    while let Some(key) = map.next_key_seed(Key::Other)? {
        match key {
            Key::Columns => columns = Some(map.next_value_seed(List { oom: &mut *oom })?),
            Key::Placement if all => placement = map.next_value_seed(List { oom: &mut *oom })?,
            Key::Solutions if all => solutions = map.next_value_seed(Lists { oom: &mut *oom })?,
            _ => {
                map.next_value::<IgnoredAny>()?;
            }
        }
    }
    Ok((columns, placement, solutions))
}

/// A list of whole numbers (`None`: any other value, skipped to its end).
struct List<'o> {
    oom: &'o mut Option<OutOfMemory>,
}

impl<'de> DeserializeSeed<'de> for List<'_> {
    type Value = Option<Columns>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Columns>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for List<'_> {
    type Value = Option<Columns>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of columns")
    }

    skip_scalars!(None);
    skip_objects!(None);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Columns>, A::Error> {
        let mut list = Some(Columns::default());
        while let Some(item) = seq.next_element_seed(Column)? {
            let (Some(c), Some(l)) = (item, list.as_mut()) else {
                // Not a whole number: the list is no placement; the rest is skipped.
                list = None;
                continue;
            };
            let row = l.cols.len();
            // PERF: grown by doubling without aborting; shrunk to its length once read.
            l.cols
                .try_reserve(1)
                .map_err(|_| refused(self.oom, OutOfMemory::refused(8 * (row as u64 + 1))))?;
            let small = u32::try_from(c).unwrap_or(u32::MAX);
            if small == u32::MAX && l.big.is_none() {
                l.big = Some((row, c));
            }
            l.cols.push(small);
        }
        if let Some(l) = list.as_mut() {
            l.cols.shrink_to_fit();
        }
        Ok(list)
    }
}

/// The placements of `solutions`: its items that are lists of whole numbers, up to the first
/// that is no placement, and that one's error (`None`: not a list).
struct Lists<'o> {
    oom: &'o mut Option<OutOfMemory>,
}

/// The placements of a list of lists, and the error of the first that is none.
type Listed = (Vec<Placement>, Option<PlacementError>);

impl<'de> DeserializeSeed<'de> for Lists<'_> {
    type Value = Option<Listed>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Listed>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Lists<'_> {
    type Value = Option<Listed>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of placements")
    }

    skip_scalars!(None);
    skip_objects!(None);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Listed>, A::Error> {
        let (mut placements, mut error) = (Vec::new(), None);
        while let Some(list) = seq.next_element_seed(List { oom: &mut *self.oom })? {
            // PERF: each list becomes its placement as soon as read (in place, 4 bytes a row),
            // so that no list of lists is held besides the placements.
            match list.map(Columns::placement) {
                Some(Ok(p)) if error.is_none() => push(&mut placements, p, self.oom)?,
                Some(Err(e)) if error.is_none() => error = Some(e),
                _ => {}
            }
        }
        Ok(Some((placements, error)))
    }
}

/// Pushes `p`, growing `placements` without aborting.
fn push<E: de::Error>(
    placements: &mut Vec<Placement>,
    p: Placement,
    oom: &mut Option<OutOfMemory>,
) -> Result<(), E> {
    let bytes = size_of::<Placement>() as u64 * 2 * (placements.len() as u64 + 1);
    placements.try_reserve(1).map_err(|_| refused(oom, OutOfMemory::refused(bytes)))?;
    placements.push(p);
    Ok(())
}

/// One item of a list of columns: a whole number, or `None` (any other value, skipped).
struct Column;

impl<'de> DeserializeSeed<'de> for Column {
    type Value = Option<u64>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<u64>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Column {
    type Value = Option<u64>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a column")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Option<u64>, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<u64>, E> {
        Ok(u64::try_from(v).ok())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<u64>, E> {
        Ok(Some(v))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Option<u64>, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Option<u64>, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<u64>, E> {
        Ok(None)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<u64>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    skip_objects!(None);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    /// What the reading did with a tree of values (before issue 49): the reference.
    fn tree(text: &str) -> Option<Result<Vec<Placement>, PlacementError>> {
        let v: Value = serde_json::from_str(text).ok()?;
        fn columns(v: &Value) -> Option<Vec<String>> {
            v.as_array()?.iter().map(|c| c.as_u64().map(|c| c.to_string())).collect()
        }
        fn walk(v: &Value, found: &mut Vec<Vec<String>>) -> bool {
            match v {
                Value::Array(items) => items.iter().fold(false, |o, i| walk(i, found) | o),
                Value::Object(map) => {
                    found.extend(map.get("columns").or_else(|| map.get("placement")).and_then(columns));
                    if let Some(list) = map.get("solutions").and_then(Value::as_array) {
                        found.extend(list.iter().filter_map(columns));
                    }
                    true
                }
                _ => false,
            }
        }
        let mut found = Vec::new();
        if !walk(&v, &mut found) {
            return None;
        }
        if found.is_empty() {
            return Some(Err(PlacementError::NoneInJson));
        }
        Some(found.iter().map(|c| Placement::from_tokens(c)).collect())
    }

    /// A bracketed list of columns is JSON too: it was read as a JSON answer without a
    /// `columns` key and refused.
    #[test]
    fn json_answers_are_read_and_a_plain_json_list_is_one_placement() {
        let eight = Placement::parse("1 5 8 6 3 7 2 4").unwrap();
        assert_eq!(read_placements("[1, 5, 8, 6, 3, 7, 2, 4]").unwrap(), std::slice::from_ref(&eight));
        let list = r#"{"n": 4, "solutions": [[2, 4, 1, 3], [3, 1, 4, 2]], "count": 2}"#;
        assert_eq!(read_placements(list).unwrap().len(), 2);
        let nested = r#"[{"columns": [1, 5, 8, 6, 3, 7, 2, 4]}, {"columns": [2, 4, 1, 3]}]"#;
        assert_eq!(read_placements(nested).unwrap()[0], eight);
        // `automaton run --json` (issue 52 §4).
        let run = r#"{"model": "pair", "n": 8, "solved": true, "placement": [1, 5, 8, 6, 3, 7, 2, 4]}"#;
        assert_eq!(read_placements(run).unwrap(), std::slice::from_ref(&eight));
        let none = r#"{"columns": null, "method": "construct", "n": 3}"#;
        assert_eq!(read_placements(none), Err(PlacementError::NoneInJson));
        assert!(matches!(read_placements(r#"{"columns": [1, 9]}"#), Err(PlacementError::OutOfRange { .. })));
        // Not JSON: the text forms.
        assert_eq!(read_placements("S = (1, 5, 8, 6, 3, 7, 2, 4)").unwrap(), [eight]);
    }

    /// The witness of `queens max 3 --json` (a 0 for its empty row); a placement is none.
    #[test]
    fn a_json_witness_with_empty_rows_is_read() {
        let json = r#"{"n": 3, "max": 2, "columns": [1, 3, 0], "method": "search"}"#;
        assert_eq!(read_witness(json), Some(Ok((3, vec![(0, 0), (1, 2)]))));
        assert_eq!(read_witness(r#"{"columns": [2, 4, 1, 3]}"#), None);
        let text = "witness (column per row, 0 = empty row): 1 3 0";
        assert_eq!(read_witness(text), Some(Ok((3, vec![(0, 0), (1, 2)]))));
    }

    fn same(text: &str) {
        assert_eq!(placements(text), tree(text), "{text}");
    }

    #[test]
    fn reads_what_the_tree_of_values_read() {
        for text in [
            r#"{"columns": [2, 4, 1, 3]}"#,
            r#"{"columns": null, "placement": [2, 4, 1, 3]}"#,
            r#"{"placement": [2, 4, 1, 3], "columns": [1, 1.5]}"#,
            r#"{"columns": [2, 4, 1, 3], "columns": [3, 1, 4, 2]}"#,
            r#"{"solutions": [[2, 4, 1, 3], "x", [1, -2], [3, 1, 4, 2]], "columns": [1]}"#,
            r#"[{"columns": [1, 5]}, {"columns": [1, 9]}]"#,
            r#"[{"columns": [1, 9]}, {"columns": [1, 5]}]"#,
            r#"{"columns": [1, 4294967296]}"#,
            r#"{"columns": [4294967295, 4294967296]}"#,
            r#"{"columns": []}"#,
            r#"{"n": {"columns": [1]}}"#,
            r#"[[{"columns": [1]}], 3]"#,
            r#"{"columns": [1]} trailing"#,
            r#"[1, 2]"#,
            r#"{"solutions": [[1], [{"a": 1}]], "x": [[[]]]}"#,
        ] {
            same(text);
        }
        assert!(matches!(
            placements(r#"{"columns": [1, 4294967296]}"#),
            Some(Err(PlacementError::OutOfRange { row: 2, column: 4294967296, n: 2 }))
        ));
        let top = |t| top_columns(t).map(|c| c.unwrap().witness());
        assert_eq!(top(r#"{"columns": [1, 3, 0]}"#), Some(Ok((3, vec![(0, 0), (1, 2)]))));
        assert!(top(r#"[{"columns": [1, 3, 0]}]"#).is_none());
        assert!(top(r#"{"columns": [1, "3", 0]}"#).is_none());
    }

    /// A JSON value of the shapes answers take: objects with the keys read and others,
    /// lists, numbers (small, negative, fractional, beyond `u32`), strings, null.
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            (0u64..6).prop_map(Value::from),
            Just(json!(-1)),
            Just(json!(1.5)),
            Just(json!(4_294_967_296u64)),
            Just(json!("2")),
            Just(Value::Null),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            let key = prop_oneof![Just("columns"), Just("placement"), Just("solutions"), Just("n")];
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((key, inner), 0..4).prop_map(|entries| {
                    Value::Object(entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
                }),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_answer_reads_as_the_tree_read_it(v in value()) {
            let text = v.to_string();
            prop_assert_eq!(placements(&text), tree(&text), "{}", text);
        }
    }
}
