//! Adding up a count split into shares (`damier queens count --share K/M` on several
//! processes or machines, then `damier queens sum`): every share of one n exactly once, the
//! total without overflow, the unique count added back.

use super::{CountError, Counts, MAX_SHARES, TimedCounts, counts_from_total, total_from_sum};

/// One share's result: the counts of a share of the task list, which [`sum_shares`] adds up.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShareCount {
    /// Board size.
    pub n: u32,
    /// The share, 1-based.
    pub share: u32,
    /// The number of shares.
    pub shares: u32,
    /// Solutions found in this share.
    pub share_total: u64,
    /// Wall time of the share, seconds.
    pub seconds: f64,
    /// Tasks in the share (absent from reports of older versions).
    #[cfg_attr(feature = "serde", serde(default))]
    pub tasks: u64,
    /// The fingerprint of the task list the share was taken from (16 hex digits; absent from
    /// reports of older versions and of counts without a task list): shares of two lists are
    /// never added up.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub fingerprint: Option<String>,
}

/// The counts of n added up from its shares ([`TimedCounts`], `seconds` adding up the
/// shares'), and the number of shares.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SummedShares {
    /// The counts, with the shares' seconds added up.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub counts: TimedCounts,
    /// The number of shares added (in the text).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub shares: u32,
}

impl SummedShares {
    /// [`sum_shares`] of `shares`, with their number.
    pub fn of(shares: &[ShareCount]) -> Result<SummedShares, SumError> {
        let counts = sum_shares(shares)?;
        Ok(SummedShares { counts, shares: shares[0].shares })
    }
}

/// Why shares do not add up to a count.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SumError {
    /// No share at all.
    #[error("no share report given")]
    Empty,
    /// A share count outside `1..=MAX_SHARES`.
    #[error("{0} shares: the share count must be 1 to {MAX_SHARES}")]
    ShareCount(u32),
    /// Shares of two different splits.
    #[error("shares of different counts: n = {n}, {shares} shares and n = {other_n}, {other_shares} shares")]
    Mixed {
        /// n of the first share.
        n: u32,
        /// Share count of the first share.
        shares: u32,
        /// n of the other one.
        other_n: u32,
        /// Its share count.
        other_shares: u32,
    },
    /// Shares of two task lists (another damier version may split n otherwise).
    #[error(
        "shares of different task lists (fingerprints {}, {}): add up shares counted by one damier version",
        first.as_deref().unwrap_or("none"),
        other.as_deref().unwrap_or("none")
    )]
    TaskLists {
        /// The first share's fingerprint.
        first: Option<String>,
        /// The other one's.
        other: Option<String>,
    },
    /// A share number outside `1..=shares`.
    #[error("share {share} of {shares} is out of range")]
    OutOfRange {
        /// The share, 1-based.
        share: u32,
        /// The number of shares.
        shares: u32,
    },
    /// A share given twice.
    #[error("share {share} of {shares} is given twice")]
    Twice {
        /// The share, 1-based.
        share: u32,
        /// The number of shares.
        shares: u32,
    },
    /// Shares missing (the first 20 of them listed).
    #[error(
        "missing shares of {shares}: {}{}",
        missing.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
        if missing.len() == 20 { ", ..." } else { "" }
    )]
    Missing {
        /// The number of shares.
        shares: u32,
        /// The first missing shares, 1-based, at most 20.
        missing: Vec<u32>,
    },
    /// A share's seconds that are no wall time (negative, infinite, not a number), or
    /// seconds that add up past any (an edited report: `queens sum` printed "-0.998 s" and
    /// "inf s of counting").
    #[error(
        "share {share} of {shares}: seconds = {} is not a wall time (0 or more, finite, and the shares' together too)",
        crate::util::given(*seconds)
    )]
    Seconds {
        /// The share, 1-based.
        share: u32,
        /// The number of shares.
        shares: u32,
        /// Its seconds.
        seconds: f64,
    },
    /// The sum is no count of n.
    #[error(transparent)]
    Count(#[from] CountError),
}

/// Adds up `shares`: they must be the shares of one split of one n, each exactly once.
pub fn sum_shares(shares: &[ShareCount]) -> Result<TimedCounts, SumError> {
    let first = shares.first().ok_or(SumError::Empty)?;
    let (n, of) = (first.n, first.shares);
    if !(1..=MAX_SHARES).contains(&of) {
        return Err(SumError::ShareCount(of));
    }
    let mut seen = vec![false; of as usize];
    // A u128: no set of shares can wrap it (at most 10^6 shares of a u64 each).
    let (mut total, mut seconds) = (0u128, 0f64);
    for r in shares {
        if r.n != n || r.shares != of {
            return Err(SumError::Mixed { n, shares: of, other_n: r.n, other_shares: r.shares });
        }
        if r.fingerprint != first.fingerprint {
            return Err(SumError::TaskLists {
                first: first.fingerprint.clone(),
                other: r.fingerprint.clone(),
            });
        }
        if !(1..=of).contains(&r.share) {
            return Err(SumError::OutOfRange { share: r.share, shares: of });
        }
        if std::mem::replace(&mut seen[r.share as usize - 1], true) {
            return Err(SumError::Twice { share: r.share, shares: of });
        }
        total += u128::from(r.share_total);
        seconds += r.seconds;
        if !(r.seconds >= 0.0 && seconds.is_finite()) {
            return Err(SumError::Seconds { share: r.share, shares: of, seconds: r.seconds });
        }
    }
    let missing: Vec<u32> =
        seen.iter().enumerate().filter(|(_, s)| !**s).map(|(i, _)| i as u32 + 1).take(20).collect();
    if !missing.is_empty() {
        return Err(SumError::Missing { shares: of, missing });
    }
    let Counts { total, unique, .. } = counts_from_total(n, total_from_sum(total)?)?;
    Ok(TimedCounts { n, total, unique, seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(n: u32, share: u32, shares: u32, share_total: u64) -> ShareCount {
        ShareCount { n, share, shares, share_total, seconds: 0.5, tasks: 1, fingerprint: None }
    }

    #[test]
    fn the_shares_of_one_count_add_up_to_it() {
        // q(8) = 92 = 40 + 52, 12 unique.
        let s = sum_shares(&[share(8, 2, 2, 52), share(8, 1, 2, 40)]).unwrap();
        assert_eq!(s, TimedCounts { n: 8, total: 92, unique: 12, seconds: 1.0 });
    }

    #[test]
    fn the_summed_record_keeps_the_number_of_shares() {
        let s = SummedShares::of(&[share(8, 1, 2, 40), share(8, 2, 2, 52)]).unwrap();
        assert_eq!((s.counts.total, s.counts.unique, s.shares), (92, 12, 2));
        assert_eq!(SummedShares::of(&[]), Err(SumError::Empty));
    }

    /// Seconds that are no wall time, or that add up past any, are refused naming the share.
    #[test]
    fn seconds_that_are_no_wall_time_are_refused() {
        for (bad, says) in
            [(-1.0, "-1"), (f64::INFINITY, "inf"), (f64::NAN, "NaN"), (f64::MAX, "1.7976931348623157e308")]
        {
            let mut second = share(8, 2, 2, 52);
            second.seconds = bad;
            let mut first = share(8, 1, 2, 40);
            first.seconds = if bad == f64::MAX { f64::MAX } else { 0.5 };
            let err = sum_shares(&[first, second]).unwrap_err();
            assert!(matches!(err, SumError::Seconds { share: 2, shares: 2, .. }), "{bad}: {err:?}");
            assert!(err.to_string().contains(&format!("seconds = {says}")), "{bad}: {err}");
        }
        let mut zero = share(8, 1, 2, 40);
        zero.seconds = 0.0;
        assert!(sum_shares(&[zero, share(8, 2, 2, 52)]).is_ok());
    }

    #[test]
    fn bad_sets_of_shares_are_refused() {
        let e = |s: &[ShareCount]| sum_shares(s).unwrap_err().to_string();
        assert_eq!(e(&[]), "no share report given");
        assert!(e(&[share(8, 1, 0, 1)]).contains("the share count must be 1 to"));
        assert!(e(&[share(8, 1, 2, 40), share(9, 2, 2, 52)]).starts_with("shares of different counts"));
        assert_eq!(e(&[share(8, 3, 2, 40)]), "share 3 of 2 is out of range");
        assert_eq!(e(&[share(8, 1, 2, 40), share(8, 1, 2, 40)]), "share 1 of 2 is given twice");
        assert_eq!(e(&[share(8, 2, 3, 40)]), "missing shares of 3: 1, 3");
        let many: Vec<u32> = (1..=20).collect();
        assert_eq!(sum_shares(&[share(8, 30, 30, 1)]), Err(SumError::Missing { shares: 30, missing: many }));
        assert!(e(&[share(8, 1, 30, 1)]).ends_with(", ..."));
        assert!(matches!(
            sum_shares(&[share(8, 1, 2, u64::MAX), share(8, 2, 2, 1)]),
            Err(SumError::Count(CountError::TotalTooLarge { .. }))
        ));
        assert!(matches!(sum_shares(&[share(8, 1, 1, 91)]), Err(SumError::Count(_))));
    }

    /// Shares of two task lists (or one with a fingerprint, one without) are not added up:
    /// the same share number of two lists holds other tasks.
    #[test]
    fn shares_of_two_task_lists_are_refused() {
        let of = |s: u32, total: u64, f: Option<&str>| ShareCount {
            fingerprint: f.map(str::to_string),
            ..share(8, s, 2, total)
        };
        let same = sum_shares(&[of(1, 40, Some("00ab")), of(2, 52, Some("00ab"))]).unwrap();
        assert_eq!(same.total, 92);
        for other in [Some("00cd"), None] {
            let e = sum_shares(&[of(1, 40, Some("00ab")), of(2, 52, other)]).unwrap_err();
            assert!(matches!(e, SumError::TaskLists { .. }), "{e}");
            assert!(e.to_string().starts_with("shares of different task lists (fingerprints 00ab, "), "{e}");
        }
    }
}
