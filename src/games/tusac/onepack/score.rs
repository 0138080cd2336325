//! Payouts: classic (§6.1) with side payments and the worst-card penalty (§5.3), and 4sac's
//! Kong deduction (§6.2).

use crate::game::{Seat, MAX_SEATS};
use crate::games::tusac::options::Options;

/// A loser's special sets at the end of the game, which drive the side payments of §6.1.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Holdings {
    /// Dealt Quads (Quan).
    pub(crate) quans: u32,
    /// Melded Quads (Khui).
    pub(crate) khuis: u32,
    /// Private triples still held (Khap).
    pub khaps: u32,
}

impl Holdings {
    /// `q_L = 8·#Quan + 6·#Khui`.
    pub(crate) fn q(&self) -> i64 {
        i64::from(8 * self.quans + 6 * self.khuis)
    }
    /// `k_L = 3·#Khap`.
    pub(crate) fn k(&self) -> i64 {
        i64::from(3 * self.khaps)
    }
}

/// The facts of a win that the payout needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Win {
    /// The winner.
    pub winner: Seat,
    /// The hand value `hv`.
    pub hand_value: u32,
    /// The winner owns a Quan or Khui (the winning meld counts), so `m = quan_khui_multiplier`.
    pub(crate) doubled: bool,
    /// The discarder who pays the whole winning amount (§5.3), if the penalty applies.
    pub penalized: Option<Seat>,
}

/// `Wamt = m·(base + hv) + flat` (§6.1).
pub(crate) fn winning_amount(opts: &Options, win: &Win) -> i64 {
    let m = if win.doubled {
        opts.quan_khui_multiplier
    } else {
        1
    };
    m * (opts.base + i64::from(win.hand_value)) + opts.flat
}

/// The net payout vector of a classic win: the standard flow (or the penalty in its place) and
/// the side payments. `holdings[s]` is seat `s`'s special sets; the winner's entry is ignored.
pub(crate) fn classic_payouts(
    opts: &Options,
    win: &Win,
    holdings: &[Holdings],
) -> [i64; MAX_SEATS] {
    let n = holdings.len();
    let w = win.winner as usize;
    let wamt = winning_amount(opts, win);
    let mut net = [0i64; MAX_SEATS];
    let mut pay = |from: usize, to: usize, amount: i64| {
        net[from] -= amount;
        net[to] += amount;
    };
    for l in (0..n).filter(|&l| l != w) {
        match win.penalized {
            Some(d) if d as usize == l => pay(l, w, (n as i64 - 1) * wamt),
            Some(_) => {}
            None => pay(l, w, wamt),
        }
        pay(w, l, holdings[l].q());
        for other in (0..n).filter(|&o| o != w && o != l) {
            pay(other, l, holdings[l].q() + holdings[l].k());
        }
    }
    net
}

/// The net payout vector of a 4sac win (§6.2): each loser `L` pays the winner
/// `k · WP − kong_L`, where `WP` is the winner's hand value, `k` the option `points_multiplier`
/// and `kong_L = 8·#dealt Kong + 6·#melded Kong` ([`Holdings::q`]); floored at 0 only under
/// `kong_deduction_floor_zero` (a negative amount is paid by the winner). No Pong side payments
/// and no penalty.
pub(crate) fn kong_payouts(opts: &Options, win: &Win, holdings: &[Holdings]) -> [i64; MAX_SEATS] {
    let w = win.winner as usize;
    let wp = opts.points_multiplier * i64::from(win.hand_value);
    let mut net = [0i64; MAX_SEATS];
    for (l, h) in holdings.iter().enumerate().filter(|&(l, _)| l != w) {
        let mut amount = wp - h.q();
        if opts.kong_deduction_floor_zero {
            amount = amount.max(0);
        }
        net[l] -= amount;
        net[w] += amount;
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example_c1_holdings() -> [Holdings; 4] {
        [
            Holdings::default(),
            Holdings {
                quans: 0,
                khuis: 1,
                khaps: 1,
            },
            Holdings {
                quans: 1,
                khuis: 0,
                khaps: 0,
            },
            Holdings::default(),
        ]
    }

    #[test]
    fn example_c1() {
        let opts = Options::classic(4);
        let win = Win {
            winner: 0,
            hand_value: 15,
            doubled: true,
            penalized: None,
        };
        assert_eq!(winning_amount(&opts, &win), 46);
        let net = classic_payouts(&opts, &win, &example_c1_holdings());
        assert_eq!(net[..4], [124, -30, -31, -63]);
    }

    #[test]
    fn example_c2_penalty() {
        let opts = Options::classic(4);
        let win = Win {
            winner: 0,
            hand_value: 15,
            doubled: true,
            penalized: Some(3),
        };
        let net = classic_payouts(&opts, &win, &example_c1_holdings());
        assert_eq!(net[..4], [124, 16, 15, -155]);
    }

    #[test]
    fn example_c3_three_players() {
        let opts = Options::classic(3);
        let win = Win {
            winner: 0,
            hand_value: 9,
            doubled: false,
            penalized: None,
        };
        assert_eq!(winning_amount(&opts, &win), 22);
        let h = [
            Holdings::default(),
            Holdings {
                khaps: 1,
                ..Holdings::default()
            },
            Holdings::default(),
        ];
        let net = classic_payouts(&opts, &win, &h);
        assert_eq!(net[..3], [44, -19, -25]);
    }

    fn kongs(dealt: u32, melded: u32) -> Holdings {
        Holdings {
            quans: dealt,
            khuis: melded,
            khaps: 0,
        }
    }

    fn four_sac_win(hand_value: u32) -> Win {
        Win {
            winner: 0,
            hand_value,
            doubled: false,
            penalized: None,
        }
    }

    #[test]
    fn example_f1_kong_deduction() {
        // §6.2 F1: WP = 17; East a dealt Kong (pays 9), North a melded Kong (11), West none (17)
        let opts = Options::four_sac(4);
        let h = [Holdings::default(), kongs(1, 0), kongs(0, 1), kongs(0, 0)];
        let net = kong_payouts(&opts, &four_sac_win(17), &h);
        assert_eq!(net[..4], [37, -9, -11, -17]);
    }

    #[test]
    fn example_f2_negative_payment() {
        // §6.2 F2: WP = 5; East holds a dealt and a melded Kong (14): the winner pays East 9
        let opts = Options::four_sac(4);
        let h = [Holdings::default(), kongs(1, 1), kongs(0, 0), kongs(0, 0)];
        let net = kong_payouts(&opts, &four_sac_win(5), &h);
        assert_eq!(net[..4], [1, 9, -5, -5]);
        // with the floor option East pays 0 instead; the multiplier scales WP only
        let floored = Options {
            kong_deduction_floor_zero: true,
            points_multiplier: 2,
            ..opts
        };
        let net = kong_payouts(&floored, &four_sac_win(5), &h);
        assert_eq!(net[..4], [20, 0, -10, -10]);
    }
}
