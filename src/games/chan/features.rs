//! Chắn's features of a candidate action, for rule lists (`rules:PATH`): computed from the
//! acting seat's view only (see [`crate::agent::features`]).
//!
//! They aim at what `greedy` (a one-step lone-card minimiser) does not see:
//! - the Chắn requirement of `WinShape` (§3.4: at least 6 Chắn), which makes breaking a
//!   concealed Chắn worse than breaking a Cạ (`card_in_chan`, `card_in_ca`, `chan_after`);
//! - the restriction predicates of §6, whose history makes cards undiscardable or unusable for
//!   eats: a card that is both is a *dead lone* card that only the ù card can pair, and since a
//!   hand never gains concealed cards, two of them mean the hand can no longer win
//!   (`blocked_after`, `dead_lone_after`, `makes_danh_ca`, `ca_barred`, `declines_take`);
//! - the value of the ù a hand waits for (§8: Bạch thủ, Tôm, Lèo, quads, red counts) and its
//!   number of unseen winning cards (`u_outs_after`, `u_value_after`, `group_partners`, `red_*`);
//! - what the card released feeds: whether the seat receiving it is publicly barred from
//!   eating it (`feeds_next`).
//!
//! The `*_after` features read the seat's position after the action: after a discard; after an
//! eat or a chíu, with its best following discard (fewest dead lone cards, then fewest lone
//! cards, then most Chắn, most ù outs, highest ù value, fewest blocked cards); after a decline
//! the hand is unchanged (only `Dec` may grow); after an ù, the winning hand.
//!
//! Per decision the seat's record, its decomposition, the unseen counts and the receiver's bars
//! are computed once; each action then costs one decomposition and one legal-discard mask (a
//! take: one per following discard). Nothing allocates.

use super::card::{Card, COPIES, IDENTITIES, LEO, TOM};
use super::decompose::{decompose, win_shape};
use super::hand::Hand;
use super::options::Options;
use super::rules::{after_chiu, after_eat, legal_discards, MeldKind, SeatState};
use super::score::{score, WinFacts};
use super::types::{Action, Origin, Phase, Via};
use super::ChanView;
use crate::agent::features::{feature, FeatureInfo, FeatureRow};
use crate::game::{Seat, SeatView};

/// Row slots, in the order of [`FEATURES`].
#[derive(Copy, Clone)]
#[repr(usize)]
enum F {
    IsDiscard,
    IsEatChan,
    IsEatCa,
    IsChiu,
    IsDecline,
    IsU,
    DeclinesTake,
    CardRank,
    CardSuit,
    CardRed,
    CardLone,
    CardInChan,
    CardInCa,
    CardInBadau,
    ChanOuts,
    CaOuts,
    CaBarred,
    MakesDanhCa,
    FeedsNext,
    GroupPartners,
    RedDelta,
    LoneAfter,
    ChanAfter,
    CaAfter,
    WaitingAfter,
    UOutsAfter,
    UValueAfter,
    BlockedAfter,
    DeadLoneAfter,
    Stock,
    HandSize,
    LoneNow,
    RedHeld,
    OppPairsMax,
    NextPairs,
    /// Number of features (not a slot).
    Count,
}

/// The features, in row order.
pub const FEATURES: &[FeatureInfo] = &[
    FeatureInfo {
        name: "is_discard",
        about: "1 for a discard (the opening discard, a discard after a take, or the return after \
                an out-of-turn chíu), else 0",
    },
    FeatureInfo {
        name: "is_eat_chan",
        about: "1 for an eat that makes a Chắn (the hand card is the live card's identity), else 0",
    },
    FeatureInfo {
        name: "is_eat_ca",
        about: "1 for an eat that makes a Cạ (same rank, other suit), else 0",
    },
    FeatureInfo {
        name: "is_chiu",
        about:
            "1 for a chíu (in turn or out of turn: three held copies plus the live card make an \
                exposed quad, 2 Chắn), else 0",
    },
    FeatureInfo {
        name: "is_decline",
        about: "1 for not taking the card offered: draw, pass the drawn card, end the hand on an \
                empty stock, or decline an ù/chíu window; else 0",
    },
    FeatureInfo {
        name: "is_u",
        about: "1 for claiming ù or declaring Thiên ù (ends the hand as the winner), else 0",
    },
    FeatureInfo {
        name: "declines_take",
        about:
            "1 for a draw, pass or end of hand at the seat's gate while some eat or chíu of the \
                card was legal: the card enters Dec, so held copies can no longer be discarded \
                (D1) nor eat (E2), and its rank can no longer be eaten as a Cạ (E4); else 0",
    },
    FeatureInfo {
        name: "card_rank",
        about: "rank of the action's card (the discard, or the live card taken, declined or \
                claimed): 2..9, 10 for chi chi, 0 when there is none (Thiên ù)",
    },
    FeatureInfo {
        name: "card_suit",
        about: "suit of the action's card: 1 vạn, 2 văn, 3 sách; 0 for chi chi or no card",
    },
    FeatureInfo {
        name: "card_red",
        about: "1 when the action's card is red (8v 8s 9v 9s ch), else 0",
    },
    FeatureInfo {
        name: "card_lone",
        about: "1 when the hand card the action removes (the discard, an eat's hand card, a \
                chíu's odd third copy) is a lone card (què: alone in its rank, or an odd chi \
                chi), else 0",
    },
    FeatureInfo {
        name: "card_in_chan",
        about: "1 when the hand card the action removes is one of a concealed Chắn (an even count \
                of its identity): the action breaks a Chắn, else 0",
    },
    FeatureInfo {
        name: "card_in_ca",
        about: "1 when the hand card the action removes is in a concealed Cạ (odd count, one \
                other suit of its rank odd): the action breaks a Cạ, else 0",
    },
    FeatureInfo {
        name: "card_in_badau",
        about: "1 when the hand card the action removes is in a ba đầu (all three suits of its \
                rank held an odd number of times), else 0",
    },
    FeatureInfo {
        name: "chan_outs",
        about: "unseen copies of the hand card the action removes (cards that would pair it as a \
                Chắn), 0..3; 0 when it removes none",
    },
    FeatureInfo {
        name: "ca_outs",
        about: "unseen cards of the removed hand card's rank in the other two suits (cards that \
                would pair it as a Cạ), 0..8; 0 for chi chi or none",
    },
    FeatureInfo {
        name: "ca_barred",
        about: "for a discard: 1 when the seat's history already bars eating a Cạ with this \
                identity (E3 đánh cạ, E4, E5 a card of the rank discarded, E6; always for chi \
                chi), so its Cạ outs only count through an ù; else 0",
    },
    FeatureInfo {
        name: "makes_danh_ca",
        about: "for a discard: 1 when the seat has discarded another suit of this rank, so the \
                discard makes DanhCa and bars every later Cạ eat (E3); else 0",
    },
    FeatureInfo {
        name: "feeds_next",
        about: "1 when the action sends a card (a discard or the drawn card passed on) to a seat \
                (the next one; for a return, the gate's owner) not publicly barred from eating \
                it: it has not discarded it, let it pass at its gate, nor eaten a Cạ of its \
                rank, and an unseen copy or usable other-suit card remains; else 0",
    },
    FeatureInfo {
        name: "group_partners",
        about: "for the card discarded (lost) or taken/claimed (gained) when it belongs to Tôm \
                (3v 3s 7n) or Lèo (9v 8s ch): how many of the group's other two identities the \
                seat holds (concealed or exposed), 0..2; 0 otherwise",
    },
    FeatureInfo {
        name: "red_delta",
        about: "change in the seat's red cards (concealed + exposed) by the action: -1 for a red \
                discard, +1 for taking or claiming a red card, else 0 (Bạch định needs 0 red, \
                Tám đỏ exactly 8 in the final 20 cards)",
    },
    FeatureInfo {
        name: "lone_after",
        about: "lone cards (què, a ba đầu's third included) of the concealed hand after the \
                action (a take: with its best following discard), 0..20; an ù gives 0",
    },
    FeatureInfo {
        name: "chan_after",
        about: "TotalChan after the action (exposed Chắn, a quad counting 2, plus the concealed \
                decomposition's), 0..10; ù needs at least 6",
    },
    FeatureInfo {
        name: "ca_after",
        about: "Cạ after the action (exposed Cạ plus the concealed decomposition's), 0..10; a \
                winning hand holds at most 4",
    },
    FeatureInfo {
        name: "waiting_after",
        about: "1 when the seat is Waiting after the action (§6.1: one lone card or one ba đầu \
                left and at least 5 Chắn; it then may not eat a Cạ, E9), else 0",
    },
    FeatureInfo {
        name: "u_outs_after",
        about: "unseen cards on which the hand after the action would ù (WinShape), 0..11; 0 \
                after an ù",
    },
    FeatureInfo {
        name: "u_value_after",
        about: "S (points + gà, per loser) of the best ù on one of those unseen cards, scored as \
                won on another seat's draw (no Ù chì), 0 when none; for an ù action, the S of \
                this ù; 0..~60",
    },
    FeatureInfo {
        name: "blocked_after",
        about: "concealed cards the seat may not discard after the action (D1-D5: declined, \
                twin of a discard, twin of a taken card, rank of an eaten Cạ ...), 0..20",
    },
    FeatureInfo {
        name: "dead_lone_after",
        about: "lone cards after the action that the seat can neither discard nor pair by any \
                legal eat (only the ù card can pair them), 0..20: 2 or more means the hand can \
                no longer win",
    },
    FeatureInfo {
        name: "stock",
        about: "cards left in the stock, 0..23 at 4 players (same for every action)",
    },
    FeatureInfo {
        name: "hand_size",
        about: "the seat's concealed cards now, 0..20 (same for every action)",
    },
    FeatureInfo {
        name: "lone_now",
        about: "lone cards of the seat's concealed hand now, 0..20 (same for every action)",
    },
    FeatureInfo {
        name: "red_held",
        about: "red cards the seat holds now, concealed and exposed, 0..20 (same for every \
                action)",
    },
    FeatureInfo {
        name: "opp_pairs_max",
        about: "the most exposed pairs of any other seat (a Chắn or Cạ meld 1, a quad 2), 0..10: \
                how far the most advanced opponent has visibly come (same for every action)",
    },
    FeatureInfo {
        name: "next_pairs",
        about: "exposed pairs of the next seat, the one that may eat what this seat discards, \
                0..10 (same for every action)",
    },
];

const N: usize = F::Count as usize;
const _: () = assert!(FEATURES.len() == N && N < crate::agent::features::MAX_FEATURES);

/// The Tôm and Lèo groups (§1.3) as identity masks.
const TOM_MASK: u32 = TOM[0].bit() | TOM[1].bit() | TOM[2].bit();
const LEO_MASK: u32 = LEO[0].bit() | LEO[1].bit() | LEO[2].bit();

/// The three identities of `c`'s rank as a mask (chi chi: itself).
const fn rank_mask(c: Card) -> u32 {
    match c.rank_index() {
        Some(r) => 0b111 << (r * 3),
        None => c.bit(),
    }
}

/// True when `set` holds two identities of one rank in different suits (`DanhCa` of §4).
const fn two_of_a_rank(set: u32) -> bool {
    const LANES: u32 = 0o11111111;
    let (v, n, s) = (set & LANES, set >> 1 & LANES, set >> 2 & LANES);
    v & n | v & s | n & s != 0
}

/// Sum of `unseen` over the identities of `mask`.
fn unseen_in(unseen: &[u8; IDENTITIES], mut mask: u32) -> u32 {
    let mut sum = 0;
    while mask != 0 {
        sum += u32::from(unseen[mask.trailing_zeros() as usize]);
        mask &= mask - 1;
    }
    sum
}

/// The seat's position after an action: its record (concealed cards and history) and its
/// exposed melds summed up.
#[derive(Copy, Clone)]
struct After {
    rec: SeatState,
    exposed: Hand,
    exposed_chan: u8,
    exposed_ca: u8,
    /// Ranks of exposed Cạ, a mask of rank indices.
    ca_ranks: u8,
}

impl After {
    /// `f` of this position after discarding (or returning) `x`: applied in place, then undone.
    fn with_discard<R>(&mut self, x: Card, f: impl FnOnce(&After) -> R) -> R {
        let dsc = self.rec.dsc;
        self.rec.concealed.remove(x);
        self.rec.dsc |= x.bit();
        let r = f(self);
        self.rec.concealed.add(x);
        self.rec.dsc = dsc;
        r
    }
}

/// The `*_after` features of a position.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
struct Shape {
    lone: u8,
    chan: u8,
    ca: u8,
    waiting: bool,
    u_outs: u8,
    u_value: u32,
    blocked: u8,
    dead: u8,
}

impl Shape {
    /// Order of preference for the discard after a take (smaller is better).
    fn key(&self) -> (u8, u8, u8, u8, u32, u8) {
        (
            self.dead,
            self.lone,
            u8::MAX - self.chan,
            u8::MAX - self.u_outs,
            u32::MAX - self.u_value,
            self.blocked,
        )
    }
}

/// What every action of one decision shares.
struct Ctx<'a> {
    o: &'a Options,
    base: After,
    /// Identities held odd times in the concealed hand.
    odd: u32,
    /// Identities held, concealed or exposed.
    held: u32,
    initial: Hand,
    unseen: [u8; IDENTITIES],
    u_thong: bool,
}

impl Ctx<'_> {
    /// The role of the odd copy of `x` in the concealed hand: lone, in a Cạ, in a ba đầu; or
    /// one of a Chắn when `x`'s count is even. Slots `CardLone..=CardInBadau`.
    fn role(&self, x: Card) -> F {
        if self.odd & x.bit() == 0 {
            return F::CardInChan;
        }
        match (self.odd & rank_mask(x)).count_ones() {
            2 => F::CardInCa,
            3 => F::CardInBadau,
            _ => F::CardLone,
        }
    }

    /// True when `x` (a lone card of `rec`) can still be paired by some legal eat with `x` as
    /// the hand card: as a Chắn (E1, E2, E6; an unseen copy left) or as a Cạ (E2–E6, E8, E11;
    /// an unseen card of another suit not held). E9 (Waiting) is passing, so it is not read.
    fn pairable(&self, rec: &SeatState, x: Card) -> bool {
        if rec.dec & x.bit() != 0 || x.rank_index().is_some_and(|r| rec.eaten_ca >> r & 1 == 1) {
            return false; // E2 and E6 bar both kinds
        }
        let u = &self.unseen;
        if u[x.index()] > 0 && rec.dsc & x.bit() == 0 {
            return true;
        }
        if x.is_ch() {
            return false;
        }
        let rank = rank_mask(x);
        let others = rank & !x.bit();
        let c = &rec.concealed;
        !two_of_a_rank(rec.dsc)
            && rec.dec & others == 0
            && rec.dsc & rank == 0
            && c.odd() & rank == x.bit()
            && unseen_in(u, others & !c.present()) > 0
    }

    /// The shape of a position with an odd concealed hand.
    fn shape(&self, a: &After) -> Shape {
        let c = &a.rec.concealed;
        let d = decompose(c);
        let blocked_mask = c.present() & !legal_discards(&a.rec, self.o);
        let mut blocked = 0;
        let mut m = blocked_mask;
        while m != 0 {
            blocked += c.counts()[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        let mut dead = 0;
        let mut m = d.lone & blocked_mask;
        while m != 0 {
            let x = Card::from_index(m.trailing_zeros() as usize);
            dead += u8::from(!self.pairable(&a.rec, x));
            m &= m - 1;
        }
        let chan = a.exposed_chan + d.chan;
        let (mut u_outs, mut u_value) = (0, 0);
        if d.lone_count() == 1 {
            let x = Card::from_index(d.lone.trailing_zeros() as usize);
            let mut cands = rank_mask(x);
            while cands != 0 {
                let w = Card::from_index(cands.trailing_zeros() as usize);
                cands &= cands - 1;
                let k = self.unseen[w.index()];
                if k > 0 && win_shape(c, a.exposed_chan, Some(w)) {
                    u_outs += k;
                    u_value = u_value.max(self.win_value(a, Some(w), false, false));
                }
            }
        }
        Shape {
            lone: d.lone_count() as u8,
            chan,
            ca: a.exposed_ca + d.ca,
            waiting: matches!((d.l(), d.b()), (1, 0) | (0, 1)) && chan >= 5,
            u_outs,
            u_value,
            blocked,
            dead,
        }
    }

    /// The shape of the best following discard of a position with an even concealed hand
    /// (after a take).
    fn best_discard(&self, a: &mut After) -> Shape {
        let mut legal = legal_discards(&a.rec, self.o);
        if legal == 0 {
            legal = a.rec.concealed.present(); // §5.1 fallback
        }
        let mut best: Option<Shape> = None;
        while legal != 0 {
            let x = Card::from_index(legal.trailing_zeros() as usize);
            legal &= legal - 1;
            let s = a.with_discard(x, |a| self.shape(a));
            if best.is_none_or(|b| s.key() < b.key()) {
                best = Some(s);
            }
        }
        best.unwrap_or_default()
    }

    /// The shape of the winning hand of an ù on `c` (Thiên ù: `None`), with its S.
    fn win_shape_of(&self, c: Option<Card>, u_chi: bool) -> Shape {
        let a = &self.base;
        let h = c.map_or(a.rec.concealed, |c| a.rec.concealed.with(c));
        let d = decompose(&h);
        Shape {
            chan: a.exposed_chan + d.chan,
            ca: a.exposed_ca + d.ca,
            u_value: self.win_value(a, c, u_chi, c.is_none()),
            ..Shape::default()
        }
    }

    /// S of an ù of position `a` on `c` (§8; Thiên ù when `thien_u`), as `claim_u` scores it.
    fn win_value(&self, a: &After, c: Option<Card>, u_chi: bool, thien_u: bool) -> u32 {
        let held = a.exposed.plus(a.rec.concealed);
        let h = c.map_or(a.rec.concealed, |c| a.rec.concealed.with(c));
        let d = decompose(&h);
        let facts = WinFacts {
            fh: c.map_or(held, |c| held.with(c)),
            initial: self.initial,
            t: a.exposed_chan + d.chan,
            c,
            c_single: c.is_some_and(|c| held.count(c) % 2 == 1),
            ca_of_c_rank: c
                .and_then(Card::rank_index)
                .is_some_and(|r| d.has_ca_of_rank(r) || a.ca_ranks >> r & 1 == 1),
            u_thong: self.u_thong,
            u_chi,
        };
        score(&facts, thien_u, self.o).s
    }

    /// How many of the other two identities of `c`'s Tôm or Lèo group the seat holds.
    fn group_partners(&self, c: Card) -> u8 {
        let group = [TOM_MASK, LEO_MASK]
            .into_iter()
            .find(|g| g & c.bit() != 0)
            .unwrap_or(0);
        (self.held & group & !c.bit()).count_ones() as u8
    }
}

/// [`ChanView::unseen`], counted from the melds directly instead of through hands.
fn unseen(view: &ChanView<'_>) -> [u8; IDENTITIES] {
    let mut u = [COPIES; IDENTITIES];
    let (own, dead) = (view.own().concealed, view.dead());
    for (i, x) in u.iter_mut().enumerate() {
        *x -= own.counts()[i] + dead.counts()[i];
    }
    for s in 0..view.players() as Seat {
        for m in view.melds(s) {
            if m.kind == MeldKind::Quad {
                u[m.taken.index()] -= 4;
            } else {
                u[m.hand_card.index()] -= 1;
                u[m.taken.index()] -= 1;
            }
        }
    }
    if let Some(l) = view.live() {
        u[l.card.index()] -= 1;
    }
    u
}

/// Exposed pairs of a seat's melds (a Chắn or Cạ 1, a quad 2).
fn pairs(melds: &[super::rules::Meld]) -> u8 {
    melds.iter().map(|m| (m.len() / 2) as u8).sum()
}

/// Writes the features of each legal action into `rows` (one row per action).
///
/// Long: the hot path of greedy; one pass sharing the per-decision values across actions.
pub fn features(view: &ChanView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
    let me = view.seat();
    let n = view.players() as Seat;
    let p = view.own();
    let melds = view.melds(me);
    let mut base = After {
        rec: *p,
        exposed: Hand::EMPTY,
        exposed_chan: 0,
        exposed_ca: 0,
        ca_ranks: 0,
    };
    for m in melds {
        base.exposed = base.exposed.plus(m.cards());
        base.exposed_chan += m.chan();
        if m.kind == MeldKind::Ca {
            base.exposed_ca += 1;
            base.ca_ranks |= 1 << m.taken.rank_index().unwrap_or(0);
        }
    }
    let ctx = Ctx {
        o: view.options(),
        base,
        odd: p.concealed.odd(),
        held: base.exposed.present() | p.concealed.present(),
        initial: p.initial(),
        unseen: unseen(view),
        u_thong: view.setup().prev_winner == Some(me),
    };
    let hand = p.concealed;
    let phase = view.phase();
    let live = view.live();
    let gate_owner = matches!(phase, Phase::Turn(_) | Phase::Drawn(_));
    let takes_legal = legal
        .iter()
        .any(|a| matches!(a, Action::Eat { .. } | Action::Chiu(_)));
    let danh_ca = two_of_a_rank(p.dsc);

    // the seat a released card goes to, and the ranks it has eaten a Cạ of
    let receiver = match phase {
        Phase::Opening(q) | Phase::MustDiscard(q) | Phase::Drawn(q) => Some((q + 1) % n),
        Phase::MustReturn { gate, .. } => Some(gate),
        _ => None,
    };
    let (r_dsc, r_offers, r_ca_ranks) = receiver.map_or((0, 0, 0), |r| {
        let ca = view.melds(r).iter().filter(|m| m.kind == MeldKind::Ca);
        let ranks = ca.fold(0u32, |acc, m| acc | rank_mask(m.taken));
        (view.discards(r), view.offers(r), ranks)
    });
    let feeds = |t: Card| -> bool {
        if receiver.is_none() || (r_dsc | r_offers | r_ca_ranks) & t.bit() != 0 {
            return false;
        }
        let (dsc, rank) = (r_dsc, rank_mask(t));
        let u = &ctx.unseen;
        u[t.index()] > 0
            || (!t.is_ch()
                && !two_of_a_rank(dsc)
                && dsc & rank == 0
                && unseen_in(u, rank & !t.bit()) > 0)
    };

    // the situation
    let d_now = decompose(&hand);
    let situation = [
        (F::Stock, feature(view.stock_len())),
        (F::HandSize, feature(hand.len())),
        (F::LoneNow, feature(d_now.lone_count())),
        (F::RedHeld, feature(ctx.base.exposed.plus(hand).red())),
        (
            F::OppPairsMax,
            feature(
                (0..n)
                    .filter(|&s| s != me)
                    .map(|s| pairs(view.melds(s)))
                    .max()
                    .unwrap_or(0),
            ),
        ),
        (F::NextPairs, feature(pairs(view.melds((me + 1) % n)))),
    ];
    let mut unchanged: Option<Shape> = None;
    let mut scratch = ctx.base;

    for (&action, row) in legal.iter().zip(rows.iter_mut()) {
        row[..N].fill(0);
        for &(f, v) in &situation {
            row[f as usize] = v;
        }
        let mut set = |f: F, v: i16| row[f as usize] = v;
        // the action's card, the hand card it removes, and the position after it
        let (card, removed, shape) = match action {
            Action::Discard(x) => {
                set(F::IsDiscard, 1);
                let others = rank_mask(x) & !x.bit();
                let barred = x.rank_index().is_none_or(|r| {
                    danh_ca
                        || p.dec & others != 0
                        || p.dsc & rank_mask(x) != 0
                        || p.eaten_ca >> r & 1 == 1
                });
                set(F::CaBarred, i16::from(barred));
                set(
                    F::MakesDanhCa,
                    i16::from(!danh_ca && !x.is_ch() && p.dsc & others != 0),
                );
                set(F::FeedsNext, i16::from(feeds(x)));
                set(F::GroupPartners, feature(ctx.group_partners(x)));
                set(F::RedDelta, -i16::from(x.is_red()));
                (Some(x), Some(x), scratch.with_discard(x, |a| ctx.shape(a)))
            }
            Action::Eat { hand: h, card: t } => {
                let chan = h == t;
                set(if chan { F::IsEatChan } else { F::IsEatCa }, 1);
                set(F::GroupPartners, feature(ctx.group_partners(t)));
                set(F::RedDelta, i16::from(t.is_red()));
                let mut a = ctx.base;
                a.rec = after_eat(p, h, t);
                a.exposed = a.exposed.with(h).with(t);
                if chan {
                    a.exposed_chan += 1;
                } else {
                    a.exposed_ca += 1;
                    a.ca_ranks |= 1 << t.rank_index().unwrap_or(0);
                }
                (Some(t), Some(h), ctx.best_discard(&mut a))
            }
            Action::Chiu(t) => {
                set(F::IsChiu, 1);
                set(F::GroupPartners, feature(ctx.group_partners(t)));
                set(F::RedDelta, i16::from(t.is_red()));
                let mut a = ctx.base;
                a.rec = after_chiu(p, t);
                let mut quad = Hand::EMPTY;
                quad.add_n(t, 4);
                a.exposed = a.exposed.plus(quad);
                a.exposed_chan += 2;
                (Some(t), Some(t), ctx.best_discard(&mut a))
            }
            Action::Draw | Action::PassDrawn | Action::EndHand | Action::Decline => {
                set(F::IsDecline, 1);
                let t = live.map(|l| l.card);
                let records = gate_owner && takes_legal && action != Action::Decline;
                set(F::DeclinesTake, i16::from(records));
                if action == Action::PassDrawn {
                    set(F::FeedsNext, i16::from(t.is_some_and(feeds)));
                }
                let shape = match (records, t) {
                    (true, Some(t)) => {
                        let mut a = ctx.base;
                        a.rec.dec |= t.bit();
                        ctx.shape(&a)
                    }
                    _ => *unchanged.get_or_insert_with(|| ctx.shape(&ctx.base)),
                };
                (t, None, shape)
            }
            Action::ClaimU(c) => {
                set(F::IsU, 1);
                set(F::GroupPartners, feature(ctx.group_partners(c)));
                set(F::RedDelta, i16::from(c.is_red()));
                let u_chi = live.is_some_and(|l| {
                    l.gate == me
                        && match (l.origin, l.via) {
                            (Origin::Stock, Via::Draw) => true,
                            (Origin::Stock, Via::PassDrawn) => ctx.o.chi_includes_passed_draw,
                            (Origin::Return, Via::MustReturn) => true,
                            _ => false,
                        }
                });
                (Some(c), None, ctx.win_shape_of(Some(c), u_chi))
            }
            Action::DeclareThienU => {
                set(F::IsU, 1);
                (None, None, ctx.win_shape_of(None, false))
            }
        };
        if let Some(c) = card {
            set(F::CardRank, c.rank().map_or(10, i16::from));
            set(F::CardSuit, c.suit().map_or(0, |s| s as i16 + 1));
            set(F::CardRed, i16::from(c.is_red()));
        }
        if let Some(x) = removed {
            set(ctx.role(x), 1);
            set(F::ChanOuts, feature(ctx.unseen[x.index()]));
            set(
                F::CaOuts,
                feature(unseen_in(&ctx.unseen, rank_mask(x) & !x.bit())),
            );
        }
        set(F::LoneAfter, feature(shape.lone));
        set(F::ChanAfter, feature(shape.chan));
        set(F::CaAfter, feature(shape.ca));
        set(F::WaitingAfter, i16::from(shape.waiting));
        set(F::UOutsAfter, feature(shape.u_outs));
        set(F::UValueAfter, feature(shape.u_value));
        set(F::BlockedAfter, feature(shape.blocked));
        set(F::DeadLoneAfter, feature(shape.dead));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::uniform_index;
    use crate::game::{Game, GameState};
    use crate::games::chan::Chan;
    use crate::rng::{stream_rng, DEAL_STREAM};

    /// The unseen counts read from the melds are the view's.
    #[test]
    fn unseen_matches_the_view() {
        let game = Chan::standard(4).unwrap();
        let mut legal = <super::super::ChanState as GameState>::Actions::default();
        for index in 0..50 {
            let mut s = game.deal(&mut stream_rng(5, index, DEAL_STREAM));
            let mut rng = stream_rng(5, index, 1);
            while s.to_move().is_some() {
                for x in 0..4 {
                    assert_eq!(unseen(&s.view(x)), s.view(x).unseen());
                }
                s.legal_actions(&mut legal);
                s.apply(legal[uniform_index(legal.len(), &mut rng)]);
            }
        }
    }
}
