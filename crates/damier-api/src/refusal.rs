//! Why a request is not answered with a record.

/// Why a request is not answered with a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Malformed or invalid input (HTTP 400, exit 2).
    #[error("{0}")]
    Input(String),
    /// Beyond the server's bounds (HTTP 422; exit 77 from the server's job process); the
    /// message names the bound.
    #[error("{0}")]
    Bound(String),
    /// Not answered in these surroundings (the browser has no threads, files or clock of its
    /// own for it): HTTP 404.
    #[error("{0}")]
    NotHere(String),
    /// A "no" answer that has no record, only messages (exit 1), one per line.
    #[error("{0}")]
    No(String),
    /// A failure of the machine, not of the request (exit 74).
    #[error("{0}")]
    Fault(String),
}

impl Refusal {
    /// [`Refusal::Input`] with the error's message.
    pub fn input(e: impl std::fmt::Display) -> Refusal {
        Refusal::Input(e.to_string())
    }

    /// The refusal with its message on one line: a line break a value brought into it (a
    /// board's content named in an error) written `\n`.
    pub fn one_line(self) -> Refusal {
        let line = |m: String| m.replace('\r', "\\r").replace('\n', "\\n");
        match self {
            Refusal::Input(m) => Refusal::Input(line(m)),
            Refusal::Bound(m) => Refusal::Bound(line(m)),
            Refusal::NotHere(m) => Refusal::NotHere(line(m)),
            Refusal::No(m) => Refusal::No(m),
            Refusal::Fault(m) => Refusal::Fault(line(m)),
        }
    }
}
