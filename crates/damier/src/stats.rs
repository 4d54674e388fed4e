//! The statistics of every experiment and figure, in one place: the mean and its 95 %
//! interval (normal approximation), the median of runs some of which were censored, order
//! statistics and the bootstrap, least squares, and the Student-t interval of a mean or a
//! ratio estimated from a sample of a finite population (the cost projections).
//!
//! ```
//! use damier::stats::{censored_median, mean, mean_ci95};
//!
//! assert_eq!(mean(&[1.0, 2.0, 3.0]), Some(2.0));
//! let (m, interval) = mean_ci95(&[1.0, 2.0, 3.0]).unwrap();
//! let (low, high) = interval.unwrap();
//! assert!(low < m && m < high);
//! assert_eq!(mean_ci95(&[5.0]), Some((5.0, None))); // one value: no spread to measure
//! // A censored run (None) counts as longer than every finished one.
//! assert_eq!(censored_median([Some(4.0), None, Some(1.0)]), Some(4.0));
//! assert_eq!(censored_median([Some(4.0), None]), None);
//! ```

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::random::below;

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

/// The median of runs of which some were censored (`None`: stopped before finishing, so
/// longer than every finished run): exact while fewer than half are censored, `None` from
/// half on (the middle is then a censored run) and for no runs at all.
pub fn censored_median(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let mut runs = 0;
    let mut finished: Vec<f64> = values.into_iter().inspect(|_| runs += 1).flatten().collect();
    let censored = runs - finished.len();
    if runs == 0 || 2 * censored >= runs {
        return None;
    }
    finished.sort_by(f64::total_cmp);
    Some(if runs % 2 == 1 { finished[runs / 2] } else { (finished[runs / 2 - 1] + finished[runs / 2]) / 2.0 })
}

/// The `q` quantile (0 to 1) of sorted values, by linear interpolation between order
/// statistics; NaN for no values.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// The central 95 % of `values` (sorted in place): their 2.5 % and 97.5 % quantiles, the
/// percentile interval of a bootstrap.
pub fn central95(values: &mut [f64]) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    (quantile(values, 0.025), quantile(values, 0.975))
}

/// The mean of `xs` resampled with replacement (one bootstrap resample, drawn from `rng`);
/// NaN for no values.
pub fn resampled_mean(rng: &mut Xoshiro256PlusPlus, xs: &[f64]) -> f64 {
    let k = xs.len() as u64;
    (0..xs.len()).map(|_| xs[below(rng, k) as usize]).sum::<f64>() / xs.len() as f64
}

/// Least-squares slope and intercept of `ys` against `xs` (NaN unless there are at least two
/// distinct xs).
pub fn least_squares(xs: &[f64], ys: &[f64]) -> (f64, f64) {
    let (mx, my) = (mean(xs).unwrap_or(f64::NAN), mean(ys).unwrap_or(f64::NAN));
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    let slope = sxy / sxx;
    (slope, my - slope * mx)
}

/// Two-sided 95% quantile of Student's t with `df` degrees of freedom (1.96 for large df,
/// infinite for none).
pub fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        // Within 0.01 of the true quantile from 31 on.
        _ => 1.96 + 2.4 / df as f64,
    }
}

/// Mean, standard deviation and the half-width of the 95% interval (Student's t) of the mean
/// of a population of `population` values from a sample drawn without replacement; `exact`
/// says the sampled values are exact (the finite-population correction then applies), not
/// estimates themselves (two-stage sampling: no correction, conservatively). One value of
/// many gives an unbounded interval (no spread is known); no values give NaN.
pub fn mean_interval(sample: &[f64], population: u64, exact: bool) -> (f64, f64, f64) {
    let k = sample.len() as f64;
    let mean = sample.iter().sum::<f64>() / k;
    let var = if sample.len() > 1 {
        sample.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0)
    } else {
        0.0
    };
    let sd = var.sqrt();
    let big_n = population as f64;
    let fpc = match (exact, population > 1) {
        (false, _) => 1.0,
        (true, true) => ((big_n - k).max(0.0) / (big_n - 1.0)).sqrt(),
        (true, false) => 0.0,
    };
    let half = if sample.len() > 1 || fpc == 0.0 {
        t95(sample.len().saturating_sub(1)) * sd / k.sqrt() * fpc
    } else {
        f64::INFINITY
    };
    (mean, sd, half)
}

/// The ratio `sum(y) / sum(x)` of two totals from a sample of pairs drawn without replacement
/// from `population`, and the half-width of its 95% interval: the ratio estimator's
/// (linearised) interval, from the spread of `y - ratio x`, over the mean of `x`. `exact` as
/// for [`mean_interval`]. NaN when the sample's `x` add up to 0.
pub fn ratio_interval(x: &[f64], y: &[f64], population: u64, exact: bool) -> (f64, f64) {
    let (sum_x, sum_y) = (x.iter().sum::<f64>(), y.iter().sum::<f64>());
    if sum_x.is_nan() || sum_x <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    let ratio = sum_y / sum_x;
    let residuals: Vec<f64> = x.iter().zip(y).map(|(x, y)| y - ratio * x).collect();
    let (_, _, half) = mean_interval(&residuals, population, exact);
    (ratio, half / (sum_x / x.len() as f64))
}

#[cfg(test)]
mod tests {
    use rand_xoshiro::rand_core::SeedableRng;

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

    #[test]
    fn censored_runs_sort_after_every_finished_one_in_the_median() {
        let m = |v: &[Option<f64>]| censored_median(v.iter().copied());
        assert_eq!(m(&[]), None);
        assert_eq!(m(&[None]), None);
        assert_eq!(m(&[Some(7.0)]), Some(7.0));
        // Order 1, 2, 3, 5, censored: the median is 3.
        assert_eq!(m(&[Some(5.0), Some(1.0), None, Some(3.0), Some(2.0)]), Some(3.0));
        // Even counts average the two middle runs, known while both finished.
        assert_eq!(m(&[Some(4.0), Some(1.0), Some(2.0), None]), Some(3.0));
        assert_eq!(m(&[Some(4.0), None, Some(2.0), None]), None);
        assert_eq!(m(&[Some(1.0), None]), None);
    }

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.5), 3.0);
        assert_eq!(quantile(&[0.0, 10.0], 0.25), 2.5);
        assert!(quantile(&[], 0.5).is_nan());
        let mut v: Vec<f64> = (0..=40).rev().map(f64::from).collect();
        assert_eq!(central95(&mut v), (1.0, 39.0));
    }

    #[test]
    fn a_resampled_mean_draws_from_the_values_and_repeats_with_its_seed() {
        let xs = [1.0, 2.0, 3.0, 10.0];
        let draw = |seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            (0..50).map(|_| resampled_mean(&mut rng, &xs)).collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert!(draw(3).iter().all(|m| (1.0..=10.0).contains(m)));
        assert_eq!(resampled_mean(&mut Xoshiro256PlusPlus::seed_from_u64(1), &[2.5]), 2.5);
    }

    #[test]
    fn least_squares_fits_a_line_exactly() {
        let (slope, intercept) = least_squares(&[1.0, 2.0, 3.0], &[5.0, 7.0, 9.0]);
        assert!((slope - 2.0).abs() < 1e-12 && (intercept - 3.0).abs() < 1e-12);
        assert!(least_squares(&[1.0], &[2.0]).0.is_nan());
    }

    #[test]
    fn student_t_and_the_interval_of_a_sampled_mean() {
        assert!((t95(1000) - 1.962).abs() < 0.002 && t95(31) < t95(30) && t95(30) < t95(29));
        assert_eq!(t95(0), f64::INFINITY);
        // Half-width t(3) sd / sqrt(k) * fpc for 1, 2, 3, 2 of 1000.
        let (m, sd, half) = mean_interval(&[1.0, 2.0, 3.0, 2.0], 1000, true);
        let expected = 3.182 * (2.0f64 / 3.0).sqrt() / 2.0 * (996.0f64 / 999.0).sqrt();
        assert!(m == 2.0 && (sd - (2.0f64 / 3.0).sqrt()).abs() < 1e-12 && (half - expected).abs() < 1e-12);
        // The whole population: no uncertainty; one value of many: no spread known.
        assert_eq!(mean_interval(&[1.0, 2.0], 2, true).2, 0.0);
        assert_eq!(mean_interval(&[1.0], 10, true).2, f64::INFINITY);
        // Estimated values: no finite-population correction.
        assert!(mean_interval(&[1.0, 2.0], 2, false).2 > 0.0);
    }

    #[test]
    fn the_cost_per_solution_is_a_ratio_of_totals_with_its_interval() {
        // Times exactly proportional to the counts: the ratio is known without spread.
        let (ratio, half) = ratio_interval(&[1.0, 4.0, 10.0], &[2.0, 8.0, 20.0], 1000, true);
        assert_eq!((ratio, half), (2.0, 0.0));
        // Noisy: the ratio of the sums, and an interval about it.
        let (ratio, half) = ratio_interval(&[1.0, 4.0, 10.0], &[3.0, 7.0, 20.0], 1000, true);
        assert!((ratio - 30.0 / 15.0).abs() < 1e-12 && half > 0.0 && half.is_finite());
        // The whole population: nothing left to estimate.
        assert_eq!(ratio_interval(&[1.0, 4.0, 10.0], &[3.0, 7.0, 20.0], 3, true).1, 0.0);
        assert!(ratio_interval(&[0.0, 0.0], &[1.0, 2.0], 10, true).0.is_nan());
    }
}
