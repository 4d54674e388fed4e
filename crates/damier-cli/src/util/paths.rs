//! The types of file arguments: an [`OutputPath`] is written (and so never given by a web
//! request), an [`InputFile`] is read (its content comes in a web request). Every file
//! argument is declared with one of them; the web lab's rules (`cmd::serve::fields`) read the
//! type, not the name.

use std::ffi::OsString;
use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A path type for clap arguments: parsed from the command line as it is, read as a `Path`.
/// The two types differ only by what they tell the web lab's argument rules.
macro_rules! path_argument {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name(PathBuf);

        impl From<OsString> for $name {
            fn from(path: OsString) -> $name {
                $name(path.into())
            }
        }

        /// clap reads the argument through this parser (before `From<OsString>`): an empty
        /// value is refused as it is parsed, exit 2, where `--out ""` ran the whole command and
        /// then failed its write with exit 74 ("cannot write : No such file or directory").
        impl clap::builder::ValueParserFactory for $name {
            type Parser = clap::builder::MapValueParser<
                clap::builder::TryMapValueParser<
                    clap::builder::OsStringValueParser,
                    fn(OsString) -> Result<OsString, &'static str>,
                >,
                fn(OsString) -> $name,
            >;

            fn value_parser() -> Self::Parser {
                use clap::builder::TypedValueParser;
                let not_empty: fn(OsString) -> Result<OsString, &'static str> =
                    |path| if path.is_empty() { Err("an empty path names no file") } else { Ok(path) };
                let wrap: fn(OsString) -> $name = $name::from;
                clap::builder::OsStringValueParser::new().try_map(not_empty).map(wrap)
            }
        }

        impl Deref for $name {
            type Target = Path;
            fn deref(&self) -> &Path {
                &self.0
            }
        }

        impl AsRef<Path> for $name {
            fn as_ref(&self) -> &Path {
                &self.0
            }
        }
    };
}

path_argument!(
    /// A path the command writes, creates or appends to (`--out`, `--csv`, `--journal`, ...).
    ///
    /// Declaring an argument with this type is what keeps it off the web: the lab's argument
    /// rules refuse it over HTTP.
    OutputPath
);

path_argument!(
    /// A file the command only reads (`-` for stdin where the command says so). Over HTTP the
    /// request gives the file's content, written to a private temporary folder.
    InputFile
);
