//! What the commands print: the CLI's own records, built from the library's plain results
//! with what only the CLI knows (the files it wrote, the pictures its text shows), and the
//! text of each record. `--json` is each record's serde form (`output::Report::print`), so
//! its keys are written here or in the library's types, once (the CLI's tests pin them).
//!
//! Every problem's commands print from here (a table printed row by row as it is measured, a
//! listing streamed as it is found, stays with its command).

pub mod automaton;
pub mod factor;
pub mod lights;
pub mod queens;
pub mod walk;
