//! A count split into shares between processes or machines (`--share K/M`).

/// Most shares a count can be split into (more would leave most shares empty).
pub const MAX_SHARES: u32 = 1_000_000;

/// Why a share `K/M` was refused ([`Share::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    /// No `/` between the two numbers.
    #[error("expected K/M, for instance 3/8")]
    NoSlash,
    /// `K` is not a number.
    #[error("share {0:?} is not a positive integer")]
    BadIndex(String),
    /// `M` is not a number.
    #[error("share count {0:?} is not a positive integer")]
    BadCount(String),
    /// `M` is 0 or above [`MAX_SHARES`].
    #[error("the share count must be 1 to {MAX_SHARES}")]
    CountOutOfRange,
    /// `K` is 0 or above `M`.
    #[error("share {k} of {m}: K must be 1 to {m}")]
    IndexOutOfRange {
        /// The 1-based share given, as written (a whole number, perhaps past any integer type).
        k: String,
        /// The share count given.
        m: u32,
    },
}

/// One share of a count split between processes or machines (see [`count_share`](super::count_share)).
///
/// Share `index` of `of` holds the engine's tasks `i` with `i % of == index`: interleaved, so
/// that the shares cost about the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Share {
    index: u32,
    of: u32,
}

impl Share {
    /// The whole count as a single share.
    pub const WHOLE: Share = Share { index: 0, of: 1 };

    /// Share `index` (0-based) of `of`, or `None` unless `index < of`.
    pub fn new(index: u32, of: u32) -> Option<Share> {
        (index < of).then_some(Share { index, of })
    }

    /// This share's 0-based index.
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many shares the count is split into.
    pub fn of(self) -> u32 {
        self.of
    }

    /// Parses `K/M`, share `K` (1-based) of `M`, with `M` in `1..=`[`MAX_SHARES`] and `K` in
    /// `1..=M` (spaces around either number allowed).
    pub fn parse(text: &str) -> Result<Share, ShareError> {
        let (k, m) = text.split_once('/').ok_or(ShareError::NoSlash)?;
        // A whole number too large for a u32 is out of range, not "not a positive integer".
        let whole = |s: &str| !s.trim().is_empty() && s.trim().bytes().all(|b| b.is_ascii_digit());
        let m: u32 = match m.trim().parse() {
            Ok(m) => m,
            Err(_) if whole(m) => return Err(ShareError::CountOutOfRange),
            Err(_) => return Err(ShareError::BadCount(m.to_string())),
        };
        let out_of_range = || ShareError::IndexOutOfRange { k: k.trim().to_string(), m };
        if !(1..=MAX_SHARES).contains(&m) {
            return Err(ShareError::CountOutOfRange);
        }
        let k: u32 = match k.trim().parse() {
            Ok(k) if (1..=m).contains(&k) => k,
            Ok(_) => return Err(out_of_range()),
            Err(_) if whole(k) => return Err(out_of_range()),
            Err(_) => return Err(ShareError::BadIndex(k.to_string())),
        };
        Ok(Share { index: k - 1, of: m })
    }

    /// This share's part of a task list.
    pub(crate) fn take<T>(self, tasks: Vec<T>) -> Vec<T> {
        if self == Share::WHOLE {
            return tasks;
        }
        self.pick(tasks.into_iter()).collect()
    }

    /// This share's part of the tasks `tasks` yields, in order, picked as they come (the
    /// others are never kept).
    pub(crate) fn pick<T>(self, tasks: impl Iterator<Item = T>) -> impl Iterator<Item = T> {
        tasks.skip(self.index as usize).step_by(self.of as usize)
    }

    /// How many of `len` tasks this share takes (as many as [`Share::take`] keeps).
    pub(crate) fn len_of(self, len: u64) -> u64 {
        len.saturating_sub(u64::from(self.index)).div_ceil(u64::from(self.of))
    }
}
