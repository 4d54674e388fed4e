//! The few statistics the experiments share: the mean and its 95 % confidence interval
//! (normal approximation), one formula for every experiment and figure.
//!
//! ```
//! use damier::stats::{mean, mean_ci95};
//!
//! assert_eq!(mean(&[1.0, 2.0, 3.0]), Some(2.0));
//! let (m, interval) = mean_ci95(&[1.0, 2.0, 3.0]).unwrap();
//! let (low, high) = interval.unwrap();
//! assert!(low < m && m < high);
//! assert_eq!(mean_ci95(&[5.0]), Some((5.0, None))); // one value: no spread to measure
//! ```

/// The mean of `values`, `None` when there are none.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The 95 % confidence interval of the mean `mean` of `values`: mean ± 1.96 s / √k, with `s`
/// the sample standard deviation. `None` with fewer than two values (no spread to measure).
pub fn ci95(values: &[f64], mean: f64) -> Option<(f64, f64)> {
    let k = values.len();
    (k >= 2).then(|| {
        let var = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        let h = 1.96 * (var / k as f64).sqrt();
        (mean - h, mean + h)
    })
}

/// The mean of `values` with its 95 % interval ([`ci95`]); `None` when there are no values.
pub fn mean_ci95(values: &[f64]) -> Option<(f64, Option<(f64, f64)>)> {
    mean(values).map(|m| (m, ci95(values, m)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(mean(&[]), None);
        assert_eq!(mean_ci95(&[4.0]), Some((4.0, None)));
        // s² = 100 for 10, 20, 30: half-width 1.96 √(100/3).
        let (m, ci) = mean_ci95(&[10.0, 20.0, 30.0]).unwrap();
        let h = 1.96 * (100.0f64 / 3.0).sqrt();
        assert_eq!(m, 20.0);
        let (lo, hi) = ci.unwrap();
        assert!((lo - (20.0 - h)).abs() < 1e-12 && (hi - (20.0 + h)).abs() < 1e-12);
        assert_eq!(ci95(&[2.5, 2.5], 2.5), Some((2.5, 2.5)));
    }
}
