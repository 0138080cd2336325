//! The public history a determinization must honour: every card that left each seat's private
//! block, in order, and every claim window that did not end the game.
//!
//! In classic the claims of C1 (winning) and C3 (pair priority) are forced (§4.4), so a window
//! that passed tells each seat of its claim order something about the block it held then: it
//! could not win on the card, and (when the window reached C4) it did not hold a pair of it that
//! C3 would have bound. A private block only loses cards after the deal, so the block a seat held
//! at a past window is its block now plus the cards it spent since.
//!
//! In 4sac (§4.5) only the win is forced (F1); a Kong or Pong claim is offered seat by seat in
//! claim order (F2), and only to seats that have one. So a window also tells, for each seat the
//! offers looked at, whether it had a claim then (it was asked) or not (it was passed over); a
//! seat that was asked and passed shows nothing more. A drawer with an exposed Pong of its draw
//! and a block at trash 0 would have won by the upgrade (F3).

use super::deck::{DECK_SIZE, MAX_PLAYERS};
use super::rules::{can_win_with, legal_discards, optional_claim, pair_priority_binds};
use super::trash::trash;
use crate::fixed::CopyVec;
use crate::game::Seat;
use crate::games::tusac::actions::{Active, Source};
use crate::games::tusac::card::Card;
use crate::games::tusac::hand::Hand;
use crate::games::tusac::options::ClaimRule;
use crate::games::tusac::options::Options;

/// Bound on the cards one seat spends: its private block, at most 21 cards.
const MAX_SPENT: usize = 21;
/// Bound on claim windows: one per discard or draw. Discards are at most the dealt cards and draws
/// at most the stock above the floor, so together at most `112 − floor`; the one-pack core
/// allows floors down to 6 (4sac's).
const MAX_WINDOWS: usize = DECK_SIZE - 6;

/// A card that left a seat's private block (discarded, or used in a meld).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Spent {
    card: Card,
    /// True for a discard, false for a meld card.
    discard: bool,
    /// How many claim windows had opened before the card left.
    windows_before: u8,
}

/// A claim window that did not end the game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Window {
    card: Card,
    /// The discarder or drawer.
    owner: Seat,
    /// True for a discard (the owner is not in the claim order), false for an own draw.
    discard: bool,
    /// True when no forced claim took the card (C4): C3 was checked for every seat.
    reached_c4: bool,
    /// Seats the optional claims of F2 looked at (bit per seat).
    scanned: u8,
    /// Seats among them that were asked, i.e. had a claim (bit per seat).
    asked: u8,
    /// The owner (a drawer) had an exposed Pong of the card, so an upgrade was open to it (F3).
    upgrade: bool,
}

impl Window {
    /// The turn player `T` of the window (§4.3): the discarder's next seat, or the drawer.
    fn turn_player(&self, opts: &Options) -> Seat {
        if self.discard {
            (self.owner + 1) % opts.players
        } else {
            self.owner
        }
    }

    /// Whether `seat`, holding `block` (of trash `block_trash`) when the window opened, would
    /// have been forced to claim: C1 for anyone in the claim order, C3 (in a window that reached
    /// C4) for all but `T`.
    fn forces(&self, seat: Seat, block: Hand, block_trash: u8, opts: &Options) -> bool {
        if self.discard && self.owner == seat {
            return false;
        }
        // a block above trash 3 cannot win (see `can_win`)
        let bit = 1u8 << seat;
        block_trash <= 3 && can_win_with(opts, block, self.card)
            || self.upgrade && self.owner == seat && block_trash == 0
            || self.reached_c4
                && opts.pair_claim_rule == ClaimRule::Forced
                && block.count(self.card) == 2
                && !(opts.pair_priority_excludes_turn_player && seat == self.turn_player(opts))
                && pair_priority_binds(block, self.card, opts)
            || self.scanned & bit != 0
                && (self.asked & bit != 0) != optional_claim(opts, block, self.card).is_some()
    }
}

/// `ln(k)` for the number of legal discards `k` (at most 21 distinct types), 0 for `k = 0`.
const LN: [f64; 22] = {
    // ln k to double precision, written out (const fn has no logarithm)
    [
        0.0,
        0.0,
        std::f64::consts::LN_2,
        1.098_612_288_668_109_8,
        1.386_294_361_119_890_6,
        1.609_437_912_434_100_3,
        1.791_759_469_228_055,
        1.945_910_149_055_313_3,
        2.079_441_541_679_835_7,
        2.197_224_577_336_219_6,
        std::f64::consts::LN_10,
        2.397_895_272_798_370_6,
        2.484_906_649_788_000_2,
        2.564_949_357_461_536_6,
        2.639_057_329_615_259,
        2.708_050_201_102_21,
        2.772_588_722_239_781,
        2.833_213_344_056_216,
        2.890_371_757_896_165,
        2.944_438_979_166_44,
        2.995_732_273_553_991,
        3.044_522_437_723_423,
    ]
};

/// What the claim windows of a game have shown: see the module docs.
#[derive(Copy, Clone, Debug, Default)]
pub struct ClaimHistory {
    spent: [CopyVec<Spent, MAX_SPENT>; MAX_PLAYERS],
    windows: CopyVec<Window, MAX_WINDOWS>,
}

/// The count returned for a block that no history can explain (more than 3 copies of a type).
pub(crate) const IMPOSSIBLE: u32 = 100;

impl ClaimHistory {
    /// Logs a card leaving `seat`'s private block: a discard, or a card of a meld.
    pub(crate) fn spend(&mut self, seat: Seat, card: Card, discard: bool) {
        let windows_before = self.windows.len() as u8;
        self.spent[seat as usize].push(Spent {
            card,
            discard,
            windows_before,
        });
    }

    /// The cards `seat`'s private block has lost since the deal.
    pub fn spent(&self, seat: Seat) -> Hand {
        let mut hand = Hand::EMPTY;
        self.spent[seat as usize]
            .as_slice()
            .iter()
            .for_each(|s| hand.add(s.card));
        hand
    }

    /// The cards `seat` has discarded (public: every discard is shown face up), whether or not
    /// another seat took them later. A private block only loses cards, so at most 3 of a type.
    pub fn discarded(&self, seat: Seat) -> Hand {
        let mut hand = Hand::EMPTY;
        self.spent[seat as usize]
            .as_slice()
            .iter()
            .filter(|s| s.discard)
            .for_each(|s| hand.add(s.card));
        hand
    }

    /// How many discards `seat` has made.
    pub fn discards(&self, seat: Seat) -> u32 {
        let log = self.spent[seat as usize].as_slice();
        log.iter().filter(|s| s.discard).count() as u32
    }

    /// Logs a claim window on `active` that did not end the game; `reached_c4` when no forced
    /// claim took the card.
    pub(crate) fn window(&mut self, active: Active, reached_c4: bool) {
        self.windows.push(Window {
            card: active.card,
            owner: active.owner,
            discard: active.source == Source::Discard,
            reached_c4,
            scanned: 0,
            asked: 0,
            upgrade: false,
        });
    }

    /// Marks, in the last window, that the drawer could have upgraded its exposed Pong (F3).
    pub(crate) fn upgrade_open(&mut self) {
        if let Some(w) = self.last_window() {
            w.upgrade = true;
        }
    }

    /// Marks, in the last window, that the offers of F2 looked at `seat`.
    pub(crate) fn scanned(&mut self, seat: Seat) {
        if let Some(w) = self.last_window() {
            w.scanned |= 1 << seat;
        }
    }

    /// Marks, in the last window, that `seat` was asked (it had an optional claim).
    pub fn asked(&mut self, seat: Seat) {
        if let Some(w) = self.last_window() {
            w.asked |= 1 << seat;
        }
    }

    fn last_window(&mut self) -> Option<&mut Window> {
        self.windows.as_mut_slice().last_mut()
    }

    /// How many past windows `seat`, holding `hand` now, would have been forced to claim: a
    /// C1 win, or a C3 pair claim in a window that reached C4. 0 for a block consistent with
    /// the history; `IMPOSSIBLE` when the block it implies at some window is not a block.
    pub fn forced_claims_missed(&self, seat: Seat, hand: Hand, opts: &Options) -> u32 {
        self.count_missed(seat, hand, opts, u32::MAX)
    }

    /// Whether `seat`, holding `hand` now, missed no forced claim (stops at the first).
    pub(crate) fn missed_no_forced_claim(&self, seat: Seat, hand: Hand, opts: &Options) -> bool {
        self.count_missed(seat, hand, opts, 1) == 0
    }

    /// [`Self::forced_claims_missed`], stopping once `enough` are found.
    fn count_missed(&self, seat: Seat, hand: Hand, opts: &Options, enough: u32) -> u32 {
        let spent = self.spent[seat as usize].as_slice();
        let mut block = hand;
        let mut block_trash = trash(block);
        let mut next = spent.len();
        let mut missed = 0;
        for (i, w) in self.windows.as_slice().iter().enumerate().rev() {
            // give back the cards spent after window i opened
            let before = next;
            while next > 0 && usize::from(spent[next - 1].windows_before) > i {
                next -= 1;
                let card = spent[next].card;
                if block.count(card) == 3 {
                    return IMPOSSIBLE;
                }
                block.add(card);
            }
            if next != before {
                block_trash = trash(block);
            }
            missed += u32::from(w.forces(seat, block, block_trash, opts));
            if missed >= enough {
                break;
            }
        }
        missed
    }

    /// `Σ ln k` over `seat`'s discards, where `k` is the number of legal discards (C7) of the
    /// block it held when it made each one, given that it holds `hand` now. A seat that picks
    /// among its legal discards at random chose its discards with probability `Π 1/k`, so this is
    /// minus the log-likelihood of its discards under that model: lower for tidier blocks.
    pub(crate) fn discard_choices(&self, seat: Seat, hand: Hand) -> f64 {
        let mut block = hand;
        let mut sum = 0.0;
        for s in self.spent[seat as usize].as_slice().iter().rev() {
            if block.count(s.card) == 3 {
                return f64::INFINITY;
            }
            block.add(s.card);
            if s.discard {
                sum += LN[legal_discards(block).count_ones() as usize];
            }
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hand {
        s.parse().unwrap()
    }

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn discard(owner: Seat, card: &str) -> Active {
        Active {
            card: c(card),
            source: Source::Discard,
            owner,
            worst: true,
        }
    }

    #[test]
    fn a_win_not_taken_is_counted_with_the_cards_spent_since() {
        let opts = Options::classic(4);
        let mut hist = ClaimHistory::default();
        hist.window(discard(0, "rH"), true);
        // rR rC would have won on rH (a chow, trash 0 left)
        assert_eq!(hist.forced_claims_missed(1, h("rR rC"), &opts), 1);
        assert_eq!(hist.forced_claims_missed(1, h("rR yA"), &opts), 0);
        // the discarder is not in the claim order
        assert_eq!(hist.forced_claims_missed(0, h("rR rC"), &opts), 0);
        // seat 1 spent rC after the window: it held rR rC then
        hist.spend(1, c("rC"), true);
        assert_eq!(hist.forced_claims_missed(1, h("rR"), &opts), 1);
        // spent before a window: that window saw the smaller block
        let mut early = ClaimHistory::default();
        early.spend(1, c("rC"), true);
        early.window(discard(0, "rH"), true);
        assert_eq!(early.forced_claims_missed(1, h("rR"), &opts), 0);
        // a fourth copy implied at a window is impossible
        let mut quad = ClaimHistory::default();
        quad.window(discard(0, "rH"), true);
        quad.spend(2, c("gP"), true);
        assert_eq!(
            quad.forced_claims_missed(2, h("gP gP gP"), &opts),
            IMPOSSIBLE
        );
    }

    #[test]
    fn a_pair_claim_not_made_is_counted_only_where_c3_was_reached_and_binds() {
        let opts = Options::classic(4);
        let mut hist = ClaimHistory::default();
        hist.window(discard(0, "rH"), true);
        // seat 2 holds a pair of rH; the triple leaves yA gE, trash 2 = trash before: C3 binds
        assert_eq!(hist.forced_claims_missed(2, h("rH rH yA gE"), &opts), 1);
        // seat 1 is T (next after the discarder): excluded from C3
        assert_eq!(hist.forced_claims_missed(1, h("rH rH yA gE"), &opts), 0);
        // a window a forced claim took (C2 or C3) says nothing of other pairs
        let mut taken = ClaimHistory::default();
        taken.window(discard(0, "rH"), false);
        assert_eq!(taken.forced_claims_missed(2, h("rH rH yA gE"), &opts), 0);
        // the waiting-pair exception: trash 2 of two pawns of different colours
        assert_eq!(hist.forced_claims_missed(2, h("rH rH yP gP"), &opts), 0);
    }

    #[test]
    fn discard_choices_sum_the_log_of_the_legal_discards_at_each_discard() {
        let mut hist = ClaimHistory::default();
        assert_eq!(hist.discard_choices(1, h("rR")), 0.0);
        // seat 1 discarded yA from rR rC rH yA wE: legal discards then were yA and wE (trash 2)
        hist.spend(1, c("yA"), true);
        let got = hist.discard_choices(1, h("rR rC rH wE"));
        assert!((got - 2f64.ln()).abs() < 1e-12, "{got}");
        // a meld card is given back but is no choice
        hist.spend(1, c("wE"), false);
        let got = hist.discard_choices(1, h("rR rC rH"));
        assert!((got - 2f64.ln()).abs() < 1e-12, "{got}");
    }

    #[test]
    fn ln_table_is_the_logarithm() {
        for (k, &v) in LN.iter().enumerate().skip(1) {
            assert!((v - (k as f64).ln()).abs() < 1e-12, "ln {k}");
        }
    }
}
