//! Intervals of the statistics: Wilson for proportions, Student t for means (statrs).

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// A proportion with its Wilson 95% interval.
pub(crate) fn wilson(successes: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let z = Normal::standard().inverse_cdf(0.975);
    let (n, p) = (n as f64, successes as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (p, centre - half, centre + half)
}

/// Degrees of freedom from which [`t_975`] uses its expansion rather than statrs.
const T_EXPANSION_FROM: f64 = 1000.0;

/// The 97.5% quantile of Student's t with `df` degrees of freedom.
///
/// Below 1,000 degrees of freedom it is statrs' inverse CDF. From there on it is the
/// Cornish–Fisher expansion around the normal quantile to the 1/df³ term, which agrees with
/// statrs to 10⁻¹² at 1,000 and 10,000 degrees of freedom; statrs' own answer drifts above about
/// 50,000 (1.9598 at 10⁶, 1.83 at 10⁷, where the quantile is 1.95997).
pub(crate) fn t_975(df: f64) -> f64 {
    if df < T_EXPANSION_FROM {
        return StudentsT::new(0.0, 1.0, df)
            .expect("df > 0")
            .inverse_cdf(0.975);
    }
    let z = Z_975;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    let g1 = (z3 + z) / 4.0;
    let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
    let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
    z + g1 / df + g2 / (df * df) + g3 / (df * df * df)
}

/// The 97.5% quantile of the standard normal distribution.
pub(crate) const Z_975: f64 = 1.959_963_984_540_054;

/// Mean, standard deviation and Student-t 95% interval from exact sums of `n` values divided by
/// `scale`: returns `(mean, lo, hi, sd)`.
pub(crate) fn mean_interval(sum: i128, sum_sq: i128, n: u64, scale: f64) -> (f64, f64, f64, f64) {
    if n == 0 {
        return (f64::NAN, f64::NAN, f64::NAN, f64::NAN);
    }
    let nf = n as f64;
    let mean = sum as f64 / nf / scale;
    if n < 2 {
        return (mean, f64::NAN, f64::NAN, f64::NAN);
    }
    // n·Σx² − (Σx)² is exact in integers; divide once.
    let spread = (i128::from(n as i64) * sum_sq - sum * sum) as f64;
    let var = spread / (nf * (nf - 1.0)) / (scale * scale);
    let sd = var.max(0.0).sqrt();
    let half = t_975(nf - 1.0) * sd / nf.sqrt();
    (mean, mean - half, mean + half, sd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_t_quantile_is_right_for_any_degrees_of_freedom() {
        // published values: t(0.975; 30) = 2.0423, t(0.975; 1000) = 1.96234; the limit is z
        assert!((t_975(30.0) - 2.042_272).abs() < 1e-5);
        assert!((t_975(1000.0) - 1.962_339).abs() < 1e-5);
        // both sides of the switch agree, and the quantile falls towards z as df grows
        let below = StudentsT::new(0.0, 1.0, 999.0).unwrap().inverse_cdf(0.975);
        assert!((below - t_975(999.0)).abs() < 1e-9);
        let mut last = t_975(1000.0);
        for df in [1e4, 1e5, 1e6, 1e7, 1e9] {
            let t = t_975(df);
            assert!(t < last && t > Z_975, "t({df}) = {t}");
            last = t;
        }
        assert!((t_975(1e9) - Z_975).abs() < 1e-8);
    }

    #[test]
    fn wilson_matches_a_known_value() {
        // 50 of 100: Wilson 95% interval (0.4038, 0.5962)
        let (p, lo, hi) = wilson(50, 100);
        assert_eq!(p, 0.5);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
    }

    #[test]
    fn t_interval_matches_a_known_value() {
        // values 1..=10: mean 5.5, sd 3.02765, t(9) = 2.26216 → half-width 2.16585
        let sum: i128 = (1..=10).sum();
        let sq: i128 = (1..=10).map(|x: i128| x * x).sum();
        let (m, lo, hi, sd) = mean_interval(sum, sq, 10, 1.0);
        assert!((m - 5.5).abs() < 1e-12);
        assert!((sd - 3.02765).abs() < 1e-5);
        assert!((hi - m - 2.16585).abs() < 1e-4 && (m - lo - 2.16585).abs() < 1e-4);
    }
}
