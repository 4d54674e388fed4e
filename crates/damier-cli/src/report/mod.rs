//! What the commands print: the CLI's own records, built from the library's plain results
//! with what only the CLI knows (the files it wrote, the pictures its text shows), and the
//! text of each record. `--json` is each record's serde form (`output::Report::print`), so
//! its keys are written here or in the library's types, once (the CLI's tests pin them).
//!
//! The walk, Lights Out, the factoring automaton and `queens estimate` print from here; the
//! other queens commands and the queens automaton still keep their text beside their
//! commands.

pub mod factor;
pub mod lights;
pub mod queens;
pub mod walk;
