//! The paired root of a one-step search: root actions compared with a baseline move over common
//! determinizations, the SPARTA rule for leaving the baseline, and a prior from another judge.

/// Root actions compared with the rollout policy's choice over common determinizations: each
/// determinization is played through every action still in contention (a sweep), and per action
/// the sums of its payout minus the choice's payout are kept. With halving, the half of the
/// contenders with the lowest mean gain is dropped at the end of each round (the choice is kept).
#[derive(Default)]
pub(super) struct PairedRoot {
    baseline: usize,
    payouts: Vec<f64>,
    diff: Vec<f64>,
    diff_sq: Vec<f64>,
    /// Sweeps each action took part in.
    worlds: Vec<u32>,
    /// The actions still in contention, in the order a sweep plays them.
    active: Vec<usize>,
    /// The position in `active` of the next action of the current sweep.
    next: usize,
    /// Sweeps per round under halving; `u32::MAX` for a plain sweep (one round).
    round_worlds: u32,
    /// Sweeps finished in the current round.
    round_done: u32,
    /// Iterations per round under halving.
    round_budget: u32,
}

impl PairedRoot {
    /// Room for `actions` root actions (the game's action capacity), so searches never allocate.
    pub(super) fn with_room(actions: usize) -> PairedRoot {
        let room = || Vec::with_capacity(actions);
        PairedRoot {
            payouts: room(),
            diff: room(),
            diff_sq: room(),
            worlds: Vec::with_capacity(actions),
            active: Vec::with_capacity(actions),
            ..PairedRoot::default()
        }
    }

    /// Starts a search over `actions` root actions, compared with `baseline`; with `halving`,
    /// `iterations` are split evenly over ⌈log2 actions⌉ rounds.
    pub(super) fn reset(
        &mut self,
        actions: usize,
        baseline: usize,
        halving: bool,
        iterations: u32,
    ) {
        for v in [&mut self.payouts, &mut self.diff, &mut self.diff_sq] {
            v.clear();
            v.resize(actions, 0.0);
        }
        self.worlds.clear();
        self.worlds.resize(actions, 0);
        self.active.clear();
        self.active.extend(0..actions);
        self.baseline = baseline;
        self.next = 0;
        self.round_done = 0;
        let rounds = actions.next_power_of_two().trailing_zeros().max(1);
        self.round_budget = if halving {
            iterations / rounds
        } else {
            u32::MAX
        };
        self.round_worlds = self.worlds_per_round();
    }

    fn worlds_per_round(&self) -> u32 {
        match self.round_budget {
            u32::MAX => u32::MAX,
            budget => (budget / self.active.len() as u32).max(1),
        }
    }

    /// The root action the next iteration plays.
    pub(super) fn action(&self) -> usize {
        self.active[self.next]
    }

    /// Whether the next iteration starts a sweep (and so needs a fresh determinization).
    pub(super) fn starts_sweep(&self) -> bool {
        self.next == 0
    }

    /// The searching seat's payout from the action [`Self::action`] named; the last action of a
    /// sweep folds the sweep into the sums, and the last sweep of a round halves the contenders.
    pub(super) fn record(&mut self, payout: f64) {
        self.payouts[self.active[self.next]] = payout;
        self.next += 1;
        if self.next < self.active.len() {
            return;
        }
        self.next = 0;
        let base = self.payouts[self.baseline];
        for &k in &self.active {
            let d = self.payouts[k] - base;
            self.diff[k] += d;
            self.diff_sq[k] += d * d;
            self.worlds[k] += 1;
        }
        self.round_done += 1;
        if self.round_done >= self.round_worlds && self.active.len() > 2 {
            self.halve();
        }
    }

    /// Keeps the better half of the contenders by mean gain (ties: legal order), and the baseline.
    fn halve(&mut self) {
        let diff = &self.diff;
        self.active
            .sort_unstable_by(|&a, &b| diff[b].total_cmp(&diff[a]).then(a.cmp(&b)));
        let keep = self.active.len().div_ceil(2);
        if let Some(at) = self.active.iter().position(|&k| k == self.baseline) {
            if at >= keep {
                self.active.swap(keep - 1, at);
            }
        }
        self.active.truncate(keep);
        self.active.sort_unstable();
        self.round_done = 0;
        self.round_worlds = self.worlds_per_round();
    }

    /// The mean gain of action `k` over the baseline and its standard error, over the sweeps it
    /// took part in; `None` before two.
    fn gain(&self, k: usize) -> Option<(f64, f64)> {
        let n = f64::from(self.worlds[k]);
        if n < 2.0 {
            return None;
        }
        let mean = self.diff[k] / n;
        let var = ((self.diff_sq[k] - n * mean * mean) / (n - 1.0)).max(0.0);
        Some((mean, (var / n).sqrt()))
    }

    /// The baseline, or the contender with the highest mean gain over it among those whose
    /// paired t-statistic exceeds `z`.
    pub(super) fn choose(&self, z: f64) -> usize {
        self.choose_with_prior(z, &[], 0.0)
    }

    /// [`Self::choose`] with a prior: `prior[k]`, another judge's gain of action `k` over the
    /// baseline (payout points), counts as `weight` sweeps of it. Each contender's gain is the
    /// mean of its sweeps and the prior so weighted, its standard error shrunk alike; `weight`
    /// 0 is [`Self::choose`].
    pub(super) fn choose_with_prior(&self, z: f64, prior: &[f64], weight: f64) -> usize {
        let mut best = (0.0, self.baseline);
        for &k in &self.active {
            let Some((mean, se)) = self.gain(k) else {
                continue;
            };
            let n = f64::from(self.worlds[k]);
            let (gain, bar) = if weight > 0.0 {
                with_prior(mean, se, n, prior[k], weight, z)
            } else {
                (mean, z * se)
            };
            if gain > best.0 && gain > bar {
                best = (gain, k);
            }
        }
        best.1
    }

    /// Each action's mean gain over the baseline on the sweeps it took part in (0 for the
    /// baseline), once a sweep has been recorded.
    pub(super) fn gains(&self) -> Option<impl Iterator<Item = f64> + '_> {
        let searched = self.worlds.iter().any(|&n| n > 0);
        searched.then(|| {
            self.diff
                .iter()
                .zip(&self.worlds)
                .map(|(d, &n)| d / f64::from(n.max(1)))
        })
    }

    /// The contender with the highest mean gain (ties: legal order).
    pub(super) fn best_mean(&self) -> usize {
        let mut best = (f64::NEG_INFINITY, self.baseline);
        for &k in &self.active {
            let mean = self.diff[k] / f64::from(self.worlds[k].max(1));
            if mean > best.0 {
                best = (mean, k);
            }
        }
        best.1
    }
}

/// An action's mean gain `mean` over `n` sweeps, of standard error `se`, and another judge's gain
/// `prior` counted as `weight` sweeps: their weighted mean, and the bar it must clear, `z` times
/// the standard error shrunk alike. Without a prior the search's own mean and `z · se` are used
/// as they are, not through this formula, whose rounding (`n · mean / n`) can move a decision at
/// a near tie and so change games the plain search played before priors existed.
fn with_prior(mean: f64, se: f64, n: f64, prior: f64, weight: f64, z: f64) -> (f64, f64) {
    (
        (n * mean + weight * prior) / (n + weight),
        z * se * n / (n + weight),
    )
}

#[cfg(test)]
mod tests {
    use super::PairedRoot;

    fn paired(baseline: usize, worlds: &[[f64; 3]]) -> PairedRoot {
        let mut p = PairedRoot::with_room(3);
        p.reset(3, baseline, false, 0);
        for w in worlds {
            for &payout in w {
                p.record(payout);
            }
        }
        p
    }

    #[test]
    fn paired_root_deviates_only_on_a_significant_gain() {
        // action 2 gains 1 in every world: no variance, a clear gain
        let sure: Vec<[f64; 3]> = (0..10)
            .map(|w| [w as f64, w as f64, w as f64 + 1.0])
            .collect();
        assert_eq!(paired(0, &sure).choose(2.5), 2);
        // action 1 gains +3/−2 in turn: mean +0.5, se ≈ 0.83 over 10 worlds: kept at z = 2.5
        let noisy: Vec<[f64; 3]> = (0..10)
            .map(|w| [0.0, if w % 2 == 0 { 3.0 } else { -2.0 }, -1.0])
            .collect();
        assert_eq!(paired(0, &noisy).choose(2.5), 0);
        assert_eq!(paired(0, &noisy).choose(0.5), 1);
        // the baseline's own difference is 0, never a gain; one world proves nothing
        assert_eq!(paired(2, &sure).choose(0.0), 2);
        assert_eq!(paired(0, &sure[..1]).choose(0.0), 0);
    }

    #[test]
    fn a_prior_counts_as_so_many_sweeps() {
        // action 2 gains 1 in every world of 10; action 1 gains +3/−2 in turn (mean +0.5)
        let mixed: Vec<[f64; 3]> = (0..10)
            .map(|w| [0.0, if w % 2 == 0 { 3.0 } else { -2.0 }, 1.0])
            .collect();
        let p = paired(0, &mixed);
        assert_eq!(p.choose_with_prior(2.5, &[0.0; 3], 0.0), p.choose(2.5));
        // a prior of −3 for action 2 worth 10 sweeps takes it to (10 − 30) / 20 < 0: out
        assert_eq!(p.choose_with_prior(0.5, &[0.0, 0.0, -3.0], 10.0), 1);
        // a prior of +3 for action 1 worth 10 sweeps lifts it to (5 + 30) / 20 = 1.75, above action
        // 2 at (10 + 0) / 20 = 0.5
        assert_eq!(p.choose_with_prior(0.5, &[0.0, 3.0, 0.0], 10.0), 1);
        assert_eq!(p.choose_with_prior(0.5, &[0.0, 0.0, 0.0], 10.0), 2);
        // a weak prior barely moves the sweeps' verdict
        assert_eq!(p.choose_with_prior(2.5, &[0.0, 3.0, -3.0], 0.01), 2);
    }

    #[test]
    fn an_unfinished_sweep_is_not_counted() {
        let mut p = PairedRoot::with_room(3);
        p.reset(3, 0, false, 0);
        p.record(0.0);
        p.record(5.0);
        assert_eq!(p.worlds, [0, 0, 0]);
        p.record(1.0);
        assert_eq!(p.worlds, [1, 1, 1]);
        assert_eq!(p.diff, vec![0.0, 5.0, 1.0]);
    }

    /// Plays `sweeps` sweeps in which action k pays `payout(k)`, as the search loop does.
    fn run(p: &mut PairedRoot, sweeps: usize, payout: impl Fn(usize) -> f64) {
        for _ in 0..sweeps {
            loop {
                p.record(payout(p.action()));
                if p.starts_sweep() {
                    break;
                }
            }
        }
    }

    #[test]
    fn halving_keeps_the_best_half_and_the_baseline_each_round() {
        // 6 actions: ⌈log2 6⌉ = 3 rounds of 60 iterations, 10 sweeps in the first round
        let mut p = PairedRoot::with_room(6);
        p.reset(6, 0, true, 180);
        let pays = [0.0, 1.0, 5.0, 4.0, -1.0, 3.0];
        run(&mut p, 10, |k| pays[k]);
        // the best three are 2, 3, 5; the baseline 0 takes the third place
        assert_eq!(p.active, [0, 2, 3]);
        assert_eq!(p.worlds, [10; 6]);
        // 60 / 3 = 20 sweeps of the three, then the best two (the baseline kept)
        run(&mut p, 20, |k| pays[k]);
        assert_eq!(p.active, [0, 2]);
        assert_eq!(p.worlds, [30, 10, 30, 30, 10, 10]);
        // two contenders are never halved further
        run(&mut p, 100, |k| pays[k]);
        assert_eq!(p.active, [0, 2]);
        // action 2's gain (+5 in every world) is certain; the dropped 3 is out of the choice
        assert_eq!(p.choose(2.5), 2);
        assert_eq!(p.best_mean(), 2);
    }

    #[test]
    fn halving_of_two_actions_is_a_plain_sweep() {
        let mut halved = PairedRoot::with_room(2);
        halved.reset(2, 1, true, 40);
        let mut swept = PairedRoot::with_room(2);
        swept.reset(2, 1, false, 0);
        let pays = |k: usize| if k == 0 { 2.0 } else { 1.0 };
        run(&mut halved, 20, pays);
        run(&mut swept, 20, pays);
        assert_eq!((halved.active, halved.diff), (swept.active, swept.diff));
    }
}
