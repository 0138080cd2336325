//! Scoring of §8: the factors (cước) of §8.1, the combination formula of §8.2, gà (§8.3) and
//! the payout `S` of §8.4.

use super::card::{Card, IDENTITIES, LEO, TOM};
use super::hand::Hand;
use super::options::{Options, ThapThanhRule};
use std::fmt;

/// The factors of §8.1, by their stable identifiers, in the table's order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Factor {
    /// Ù thông: W also won the preceding hand.
    UThong,
    /// Ù chì: W drew c himself, or chíu-ù'd a return at his own gate.
    UChi,
    /// Thiên ù (§7.2).
    ThienU,
    /// Tôm: one per disjoint `3v 3s 7n`.
    Tom,
    /// Lèo: one per disjoint `9v 8s ch`.
    Leo,
    /// Bạch thủ.
    BachThu,
    /// Thiên khai: a 4-of-a-kind dealt whole.
    ThienKhai,
    /// Chíu: a 4-of-a-kind with 3 dealt.
    Chiu,
    /// Bòn: a 4-of-a-kind with 2 dealt.
    Bon,
    /// Bạch định: no red card.
    BachDinh,
    /// Tám đỏ: exactly 8 red cards.
    TamDo,
    /// Kính tứ chi: 4 `ch` and 16 black cards.
    KinhTuChi,
    /// Thập thành: 10 Chắn.
    ThapThanh,
}

/// Number of factor kinds.
pub(crate) const FACTORS: usize = 13;
/// Every factor in §8.1's order.
pub(crate) const ALL_FACTORS: [Factor; FACTORS] = [
    Factor::UThong,
    Factor::UChi,
    Factor::ThienU,
    Factor::Tom,
    Factor::Leo,
    Factor::BachThu,
    Factor::ThienKhai,
    Factor::Chiu,
    Factor::Bon,
    Factor::BachDinh,
    Factor::TamDo,
    Factor::KinhTuChi,
    Factor::ThapThanh,
];

impl Factor {
    /// The spec's identifier.
    pub const fn id(self) -> &'static str {
        match self {
            Factor::UThong => "UThong",
            Factor::UChi => "UChi",
            Factor::ThienU => "ThienU",
            Factor::Tom => "Tom",
            Factor::Leo => "Leo",
            Factor::BachThu => "BachThu",
            Factor::ThienKhai => "ThienKhai",
            Factor::Chiu => "Chiu",
            Factor::Bon => "Bon",
            Factor::BachDinh => "BachDinh",
            Factor::TamDo => "TamDo",
            Factor::KinhTuChi => "KinhTuChi",
            Factor::ThapThanh => "ThapThanh",
        }
    }
    /// (points, dịch) of §8.1 under the options (`quad_factor_values`, `thien_u_values`).
    pub const fn values(self, o: &Options) -> (u32, u32) {
        match self {
            Factor::UThong | Factor::UChi => (3, 1),
            Factor::ThienU => o.thien_u_values,
            Factor::Tom => (4, 1),
            Factor::Leo => (5, 2),
            Factor::BachThu => (4, 1),
            Factor::ThienKhai | Factor::Chiu | Factor::Bon => o.quad_factor_values,
            Factor::BachDinh => (7, 4),
            Factor::TamDo => (8, 5),
            Factor::KinhTuChi | Factor::ThapThanh => (12, 9),
        }
    }
    /// True for the factors `SumPointsOfColourFactors` sums by points (§9).
    const fn colour(self) -> bool {
        matches!(
            self,
            Factor::ThapThanh | Factor::BachDinh | Factor::TamDo | Factor::KinhTuChi
        )
    }
}

/// The facts of a win that scoring reads (§8.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WinFacts {
    /// `FH`: the winner's final 20 cards.
    pub(crate) fh: Hand,
    /// `initial(W)`: the dealt hand.
    pub initial: Hand,
    /// `T`: Chắn in FH (exposed, a Quad counting 2, plus the decomposition of concealed + c).
    pub t: u8,
    /// The ù card `c` (none for Thiên ù).
    pub c: Option<Card>,
    /// c's identity had an odd count among W's other 19 cards.
    pub(crate) c_single: bool,
    /// Some `Ca` of rank(c) in FH (exposed or in the decomposition).
    pub(crate) ca_of_c_rank: bool,
    /// `prev_winner = W`.
    pub(crate) u_thong: bool,
    /// The Ù chì condition holds.
    pub(crate) u_chi: bool,
}

/// A scored win: the factor instances, points, gà and `S` (§8.2–8.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Score {
    /// Instances of each factor (index = position in `ALL_FACTORS`).
    pub counts: [u8; FACTORS],
    /// Points of §8.2.
    pub points: u32,
    /// Number of gà (§8.3).
    pub ga: u32,
    /// `S = points + ga · GA_POINTS` (§8.4), per loser and unit of stake.
    pub s: u32,
}

impl Score {
    /// Instances of `f`.
    pub fn count(&self, f: Factor) -> u8 {
        self.counts[f as usize]
    }
    /// The factor instances in §8.1 order (a factor with 2 instances appears twice).
    pub fn instances(&self) -> impl Iterator<Item = Factor> + '_ {
        ALL_FACTORS
            .iter()
            .flat_map(move |&f| std::iter::repeat_n(f, self.count(f) as usize))
    }
}

impl fmt::Display for Score {
    /// `UChi BachThu; points 5, ga 1, S 10` (`Xuong` when no factor).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut any = false;
        for x in ALL_FACTORS {
            match self.count(x) {
                0 => continue,
                1 => write!(f, "{}{}", if any { " " } else { "" }, x.id())?,
                n => write!(f, "{}{}x{n}", if any { " " } else { "" }, x.id())?,
            }
            any = true;
        }
        if !any {
            f.write_str("Xuong")?;
        }
        write!(f, "; points {}, ga {}, S {}", self.points, self.ga, self.s)
    }
}

/// The factor instances of a win (§8.1). `thien_u` is §7.2's win.
pub fn factors(w: &WinFacts, thien_u: bool, o: &Options) -> [u8; FACTORS] {
    let mut n = [0u8; FACTORS];
    let fh = &w.fh;
    let red = fh.red();
    let min3 = |g: [Card; 3]| g.iter().map(|&c| fh.count(c)).min().unwrap_or(0);
    n[Factor::UThong as usize] = u8::from(w.u_thong);
    n[Factor::UChi as usize] = u8::from(w.u_chi && !thien_u);
    n[Factor::ThienU as usize] = u8::from(thien_u);
    n[Factor::Tom as usize] = min3(TOM);
    n[Factor::Leo as usize] = min3(LEO);
    n[Factor::BachThu as usize] = u8::from(if thien_u {
        o.bach_thu_on_thien_u && w.t == 6
    } else {
        w.t == 6 && w.c_single && !w.ca_of_c_rank
    });
    for i in 0..IDENTITIES {
        let c = Card::from_index(i);
        if fh.count(c) == 4 {
            let f = match w.initial.count(c) {
                4 => Factor::ThienKhai,
                3 => Factor::Chiu,
                _ => Factor::Bon,
            };
            n[f as usize] += 1;
        }
    }
    n[Factor::BachDinh as usize] = u8::from(red == 0);
    n[Factor::TamDo as usize] = u8::from(red == 8);
    n[Factor::KinhTuChi as usize] = u8::from(fh.count(Card::CH) == 4 && red == 4);
    n[Factor::ThapThanh as usize] = u8::from(w.t == 10);
    n
}

/// Combines factor instances into a [`Score`] (§8.2 points, §8.3 gà, §8.4 `S`).
pub(crate) fn combine(counts: [u8; FACTORS], o: &Options) -> Score {
    let has = |f: Factor| counts[f as usize] > 0;
    let inst = ALL_FACTORS
        .iter()
        .flat_map(|&f| std::iter::repeat_n(f, counts[f as usize] as usize));
    let points = if inst.clone().next().is_none() {
        o.xuong_points
    } else if has(Factor::ThapThanh) {
        inst.map(|f| match o.thap_thanh_rule {
            ThapThanhRule::SumAllPoints => f.values(o).0,
            ThapThanhRule::SumPointsOfColourFactors if f.colour() => f.values(o).0,
            ThapThanhRule::SumPointsOfColourFactors => f.values(o).1,
        })
        .sum()
    } else {
        // one instance with the most points (the first in §8.1 order on a tie), dịch for the rest
        let m = inst
            .clone()
            .max_by_key(|f| (f.values(o).0, std::cmp::Reverse(*f)));
        let m = m.expect("not empty");
        let dich: u32 = inst.map(|f| f.values(o).1).sum();
        m.values(o).0 + dich - m.values(o).1
    };
    let ga = u32::from(has(Factor::BachDinh))
        + u32::from(has(Factor::TamDo))
        + u32::from(has(Factor::KinhTuChi))
        + u32::from(has(Factor::ThapThanh))
        + u32::from(has(Factor::UChi) && has(Factor::BachThu));
    Score {
        counts,
        points,
        ga,
        s: points + ga * o.ga_points,
    }
}

/// Scores a win: [`factors`] then `combine`.
pub fn score(w: &WinFacts, thien_u: bool, o: &Options) -> Score {
    combine(factors(w, thien_u, o), o)
}
