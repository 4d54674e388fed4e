//! Numbers as people read them, one format for the library's messages and the front ends'
//! text tables (the CLI's, the Python package's warnings): three significant digits, plain
//! from 0.001 to 99 999, scientific notation beyond.
//!
//! ```
//! use damier::util::number;
//!
//! assert_eq!(number(3048.2), "3048");
//! assert_eq!(number(134_000.0), "1.34e5");
//! assert_eq!(number(2.5e-4), "2.5e-4");
//! ```

/// A measured quantity in a message or a text table: three significant digits, plain from
/// 0.001 to 99 999 (`18`, `3050`, `0.0123`), in scientific notation beyond (`1.34e5`,
/// `2.5e-4`); trailing zeros dropped.
pub fn number(v: f64) -> String {
    fn trimmed(s: &str) -> &str {
        if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
    }
    if !v.is_finite() || v == 0.0 {
        return if v == 0.0 { "0".into() } else { v.to_string() };
    }
    let a = v.abs();
    if (1e-3..99_999.5).contains(&a) {
        let decimals = (2 - a.log10().floor() as i32).max(0) as usize;
        return trimmed(&format!("{v:.decimals$}")).to_string();
    }
    let s = format!("{v:.2e}");
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    format!("{}e{exponent}", trimmed(mantissa))
}

/// A number someone gave (an option, a request's field), quoted in a message: exact, as
/// Rust's shortest round trip writes it (`0.3`, `-2`, `NaN`, `0.000001`), but when that is
/// longer than 16 characters, the shorter of it and its scientific notation (`1e308`, not the
/// 309 digits of its plain expansion; `1e-300`, not 300 zeros; `-1234567890123.4568`, not
/// `-1.2345678901234568e12`). Both are exact: the text reads back as the same number.
pub fn given(v: f64) -> String {
    let plain = v.to_string();
    if plain.len() <= 16 {
        return plain;
    }
    let scientific = format!("{v:e}");
    if scientific.len() < plain.len() { scientific } else { plain }
}

/// An integer bound in a message: exact, but the type limits by name (`2^64 - 1`, not
/// `18446744073709551615`; issue 38, section 3).
pub fn bound(v: u64) -> String {
    match v {
        u64::MAX => "2^64 - 1".into(),
        v if v == u64::from(u32::MAX) => "2^32 - 1".into(),
        v => v.to_string(),
    }
}

/// An inclusive range of integers in a message, as the README writes it: `2 to 2^64 - 1`,
/// `1 to 1024` (not Rust's `2..=18446744073709551615`).
pub fn range(low: u64, high: u64) -> String {
    format!("{} to {}", bound(low), bound(high))
}

/// The member of `all` whose `name` is `s`, else the error every engine's `FromStr` gives:
/// `invalid value "s": LIST` (`list` names them in words, as `--help` does).
pub(crate) fn named<T: Copy>(
    s: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    list: &str,
) -> Result<T, String> {
    all.iter().copied().find(|&m| name(m) == s).ok_or_else(|| format!("invalid value {s:?}: {list}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_number_format() {
        let cases = [
            (0.0, "0"),
            (18.0, "18"),
            (11.8, "11.8"),
            (3048.2, "3048"),
            (0.0123, "0.0123"),
            (0.5, "0.5"),
            (99_999.0, "99999"),
            (134_000.0, "1.34e5"),
            (1e10, "1e10"),
            (2.5e-4, "2.5e-4"),
            (-1.5e6, "-1.5e6"),
            (f64::INFINITY, "inf"),
        ];
        for (v, s) in cases {
            assert_eq!(number(v), s, "{v}");
        }
    }

    #[test]
    fn a_given_number_is_quoted_exactly_and_compactly() {
        let cases = [
            (0.3, "0.3"),
            (-2.0, "-2"),
            (1e308, "1e308"),
            (-1.7976931348623157e308, "-1.7976931348623157e308"),
            (1e-300, "1e-300"),
            (123456.75, "123456.75"),
            (0.000001, "0.000001"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
            // Plain past 16 characters where scientific notation is longer still (it was
            // chosen: 1.2345678901234567e16, 21 characters for 17).
            (12345678901234567.0, "12345678901234568"),
            (-1234567890123.4567, "-1234567890123.4568"),
            (0.00012345678901234, "1.2345678901234e-4"),
            (1.5e17, "1.5e17"),
            (-2.5e-15, "-2.5e-15"),
        ];
        for (v, s) in cases {
            assert_eq!(given(v), s, "{v:e}");
        }
    }

    proptest::proptest! {
        /// Any number: quoted exactly (it reads back as itself), plain up to 16 characters,
        /// and never longer than either of its plain and scientific forms past that.
        #[test]
        fn a_given_number_is_exact_and_the_shorter_form(bits in proptest::num::u64::ANY) {
            let v = f64::from_bits(bits);
            let (quoted, plain, scientific) = (given(v), v.to_string(), format!("{v:e}"));
            if v.is_nan() {
                proptest::prop_assert_eq!(&quoted, "NaN");
            } else {
                proptest::prop_assert_eq!(quoted.parse::<f64>().unwrap().to_bits(), bits);
            }
            if plain.len() <= 16 {
                proptest::prop_assert_eq!(&quoted, &plain);
            } else {
                proptest::prop_assert!(quoted.len() <= plain.len().min(scientific.len()), "{quoted}");
            }
        }
    }

    #[test]
    fn ranges_read_as_words() {
        assert_eq!(range(2, u64::MAX), "2 to 2^64 - 1");
        assert_eq!(range(1, u64::from(u32::MAX)), "1 to 2^32 - 1");
        assert_eq!(range(4, 28), "4 to 28");
        assert_eq!(bound(0), "0");
    }
}
