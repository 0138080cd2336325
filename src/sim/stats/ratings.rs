//! Ratings from pair results: each agent's strength in payout units per game, fitted so that
//! the difference of two ratings matches the mean paired payout difference of their pair, by
//! weighted least squares (each pair weighted by the inverse of its mean's variance), with one
//! agent anchored at 0. The intervals come from the fit's covariance and treat the pairs as
//! independent (docs/tournament.md says when they are not).

use crate::sim::stats::interval::Z_975;

/// One pair's result: agent `a` minus agent `b`, in payout units per game.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct PairResult {
    /// Index of the first agent.
    pub a: usize,
    /// Index of the second agent.
    pub b: usize,
    /// Mean paired payout difference `a − b` per game.
    pub mean: f64,
    /// The variance of that mean (the squared standard error).
    pub(crate) variance: f64,
}

/// A fitted rating with its 95% interval (NaN when the agent is not linked to the anchor).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Rating {
    /// Payout units per game above the anchor.
    pub rating: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
}

/// The smallest variance a pair's mean is given: a pair whose every deal gave the same
/// difference (two agents that always play alike) would otherwise get an infinite weight.
const VARIANCE_FLOOR: f64 = 1e-9;

/// Fits the ratings of `agents` agents from `pairs`, agent `anchor` at 0. Pairs with a
/// non-finite mean or variance (no deals, or one) are left out; an agent that no chain of pairs
/// links to the anchor gets NaN.
pub(crate) fn fit(agents: usize, anchor: usize, pairs: &[PairResult]) -> Vec<Rating> {
    let used: Vec<&PairResult> = pairs
        .iter()
        .filter(|p| p.mean.is_finite() && p.variance.is_finite())
        .collect();
    let linked = linked_to(agents, anchor, &used);
    // unknowns: the linked agents other than the anchor
    let index: Vec<Option<usize>> = {
        let mut next = 0;
        (0..agents)
            .map(|i| {
                (linked[i] && i != anchor).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    };
    let m = index.iter().flatten().count();
    let mut normal = vec![vec![0.0; m]; m];
    let mut rhs = vec![0.0; m];
    for p in &used {
        if !linked[p.a] {
            continue;
        }
        let w = 1.0 / p.variance.max(VARIANCE_FLOOR);
        let terms = [(index[p.a], 1.0), (index[p.b], -1.0)];
        for &(i, si) in &terms {
            let Some(i) = i else { continue };
            rhs[i] += w * si * p.mean;
            for &(j, sj) in &terms {
                if let Some(j) = j {
                    normal[i][j] += w * si * sj;
                }
            }
        }
    }
    let inverse = invert(normal);
    (0..agents)
        .map(|i| match (i == anchor, index[i], &inverse) {
            (true, _, _) => Rating {
                rating: 0.0,
                lo: 0.0,
                hi: 0.0,
            },
            (false, Some(k), Some(inv)) => {
                let r: f64 = (0..m).map(|j| inv[k][j] * rhs[j]).sum();
                let half = Z_975 * inv[k][k].max(0.0).sqrt();
                Rating {
                    rating: r,
                    lo: r - half,
                    hi: r + half,
                }
            }
            _ => Rating {
                rating: f64::NAN,
                lo: f64::NAN,
                hi: f64::NAN,
            },
        })
        .collect()
}

/// Which agents a chain of pairs links to `anchor`.
fn linked_to(agents: usize, anchor: usize, pairs: &[&PairResult]) -> Vec<bool> {
    let mut linked = vec![false; agents];
    linked[anchor] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for p in pairs {
            if linked[p.a] != linked[p.b] {
                linked[p.a] = true;
                linked[p.b] = true;
                grew = true;
            }
        }
    }
    linked
}

/// The inverse of a symmetric positive definite matrix by Gauss–Jordan elimination with partial
/// pivoting; `None` when it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..n {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..n {
            let f = a[row][col];
            if row == col || f == 0.0 {
                continue;
            }
            for j in 0..n {
                a[row][j] -= f * a[col][j];
                inv[row][j] -= f * inv[col][j];
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: usize, b: usize, mean: f64, variance: f64) -> PairResult {
        PairResult {
            a,
            b,
            mean,
            variance,
        }
    }

    #[test]
    fn consistent_pairs_give_their_differences_and_a_lone_agent_no_rating() {
        // 0 beats 1 by 1, 1 beats 2 by 2, 0 beats 2 by 3: ratings 0, -1, -3 exactly
        let pairs = [
            pair(0, 1, 1.0, 0.1),
            pair(1, 2, 2.0, 0.1),
            pair(0, 2, 3.0, 0.1),
            pair(3, 3, 0.0, f64::NAN),
        ];
        let r = fit(4, 0, &pairs);
        for (got, want) in r.iter().zip([0.0, -1.0, -3.0]) {
            assert!((got.rating - want).abs() < 1e-12, "{r:?}");
        }
        assert!(r[1].lo < -1.0 && r[1].hi > -1.0 && r[1].hi - r[1].lo > 0.0);
        assert!(r[3].rating.is_nan());
        // the anchor moves every rating by the same amount
        let again = fit(4, 2, &pairs);
        assert!((again[0].rating - 3.0).abs() < 1e-12 && again[2].rating == 0.0);
    }

    #[test]
    fn a_pair_measured_more_closely_weighs_more() {
        // two measurements of 0 − 1 disagree through 2; the precise one wins
        let pairs = [
            pair(0, 1, 1.0, 0.001),
            pair(0, 2, 0.0, 1.0),
            pair(2, 1, 0.0, 1.0),
        ];
        let r = fit(3, 0, &pairs);
        assert!((r[1].rating + 1.0).abs() < 0.01, "{r:?}");
    }
}
