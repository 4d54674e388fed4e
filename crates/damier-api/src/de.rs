//! How a request's JSON values are read: a whole number as a JSON number or as a string of
//! digits (the pages and scripts send both, and the server took both when it handed values to
//! the command line), a flag as `true`, `false` or `null`, a list as an array or one value.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::Deserializer;
use serde::de::{self, SeqAccess, Visitor};

/// A whole number of type `T`, given as a JSON number or a string of digits.
pub(crate) fn int<'de, D: Deserializer<'de>, T: FromStr + TryFrom<u64> + TryFrom<i64>>(
    d: D,
) -> Result<T, D::Error> {
    d.deserialize_any(Int(PhantomData))
}

/// [`int`], or `None` for `null` (not given).
pub(crate) fn opt_int<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr + TryFrom<u64> + TryFrom<i64>,
{
    d.deserialize_option(OptInt(PhantomData))
}

/// A number with a fraction (a probability), as a JSON number or a string, or `None` for
/// `null` (not given).
pub(crate) fn opt_float<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    d.deserialize_option(OptFloat)
}

/// A flag: `true`, `false`, or `null` (not given: false).
pub(crate) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(<Option<bool> as serde::Deserialize>::deserialize(d)?.unwrap_or(false))
}

/// A text value (a size such as `5x5`, a share such as `1/4`, a name): a JSON string or number.
pub(crate) fn opt_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_option(OptText)
}

/// A required text value: a JSON string or number.
pub(crate) fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    d.deserialize_any(Word)
}

/// A file's content: a JSON string.
pub(crate) fn content<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    d.deserialize_any(Content)
}

/// [`content`], or `None` for `null` (not given).
pub(crate) fn opt_content<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_option(OptContent)
}

/// Words: a JSON array of numbers or strings, or one of them (a list of one).
pub(crate) fn words<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    d.deserialize_any(Words)
}

struct Int<T>(PhantomData<T>);

impl<T: FromStr + TryFrom<u64> + TryFrom<i64>> Visitor<'_> for Int<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a whole number")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        T::try_from(v).map_err(|_| E::custom(format!("{v} is out of range")))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        T::try_from(v).map_err(|_| E::custom(format!("{v} is out of range")))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.trim().parse().map_err(|_| E::custom(format!("invalid value {v:?}: expected a whole number")))
    }
}

struct OptInt<T>(PhantomData<T>);

impl<'de, T: FromStr + TryFrom<u64> + TryFrom<i64>> Visitor<'de> for OptInt<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a whole number or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        int(d).map(Some)
    }
}

struct Float;

impl Visitor<'_> for Float {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        v.trim().parse().map_err(|_| E::custom(format!("invalid value {v:?}: expected a number")))
    }
}

struct OptFloat;

impl<'de> Visitor<'de> for OptFloat {
    type Value = Option<f64>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number or null")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<f64>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<f64>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<f64>, D::Error> {
        d.deserialize_any(Float).map(Some)
    }
}

struct OptText;

impl<'de> Visitor<'de> for OptText {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or a number")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_any(Word).map(Some)
    }
}

/// One word: a string, or a number as written.
struct Word;

impl Visitor<'_> for Word {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number or a string")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Ok(v.to_string())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
}

struct Words;

impl<'de> Visitor<'de> for Words {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of numbers or strings")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Vec<String>, E> {
        Ok(Vec::new())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<String>, E> {
        Ok(vec![v.to_string()])
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
        while let Some(w) = seq.next_element::<OneWord>()? {
            out.push(w.0);
        }
        Ok(out)
    }
}

struct OneWord(String);

impl<'de> serde::Deserialize<'de> for OneWord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OneWord, D::Error> {
        d.deserialize_any(Word)
            .map(OneWord)
            .map_err(|_| de::Error::custom("expected a list of numbers or strings"))
    }
}

struct Content;

impl Visitor<'_> for Content {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the file's content as a string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_string())
    }
}

struct OptContent;

impl<'de> Visitor<'de> for OptContent {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the file's content as a string")
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<String>, D::Error> {
        d.deserialize_any(Content).map(Some)
    }
}
