//! The readable log of one game (`bailab play`, golden playthroughs): the deal, every event with
//! its seat and the rule that forced it, the final hands and the payout vector.

use super::card::{format_cards, Card};
use super::engine::TuSacState;
use super::onepack::deck::DECK_SIZE;
use super::onepack::state::OnePackState;
use super::onepack::trash::trash;
use super::packs::loose::{best, max_points, Counts};
use super::packs::PacksState;
use crate::game::{GameState, Outcome, Seat};
use crate::games::kind::GameLog;
use std::fmt::Write;

/// Accumulates the log of one game as it is played.
#[derive(Clone, Debug, Default)]
pub struct TuSacLog {
    text: String,
    step: usize,
}

impl GameLog<TuSacState> for TuSacLog {
    /// Starts a log with a title line and the deal (the state right after `deal`).
    fn new(title: &str, s: &TuSacState) -> TuSacLog {
        match s {
            TuSacState::OnePack(s) => TuSacLog::one_pack(title, s),
            TuSacState::MultiPack(s) => TuSacLog::multi_pack(title, s),
        }
    }

    /// Records a decision: the seat, how many legal actions it had and its choice, then its events.
    fn decision(&mut self, seat: Seat, legal: usize, action: &str, after: &TuSacState) {
        let _ = writeln!(
            self.text,
            "        seat {seat} chooses `{action}` ({legal} legal)"
        );
        self.events(after.last_events());
    }

    /// Closes the log with the final hands and the outcome.
    fn finish(mut self, s: &TuSacState) -> String {
        let _ = writeln!(self.text, "final:");
        match s {
            TuSacState::OnePack(s) => self.one_pack_final(s),
            TuSacState::MultiPack(s) => self.multi_pack_final(s),
        }
        if let Some(o) = s.outcome() {
            let _ = writeln!(self.text, "{}", outcome_line(&o));
        }
        self.text
    }
}

impl TuSacLog {
    /// The start of a one-pack game's log.
    fn one_pack(title: &str, s: &OnePackState) -> TuSacLog {
        let mut log = TuSacLog::default();
        let o = s.options();
        let _ = writeln!(log.text, "{title}");
        let _ = writeln!(
            log.text,
            "rules: Tứ Sắc {}, {} players, first player {}",
            o.variant, o.players, o.first_player
        );
        let deck = super::card::format_cards(s.deck().iter().copied());
        let _ = writeln!(log.text, "deck ({DECK_SIZE} cards, §1.3 order): {deck}");
        let _ = writeln!(log.text, "deal:");
        for seat in 0..s.players() as Seat {
            let h = s.private(seat);
            let _ = writeln!(
                log.text,
                "  seat {seat}: {h} ({} cards, trash {}, Khaps {})",
                h.len(),
                trash(h),
                s.khaps(seat)
            );
        }
        let _ = writeln!(log.text, "  stock: {} cards", s.stock_len());
        log.events(s.last_events());
        let _ = writeln!(log.text, "play:");
        log
    }

    /// The start of a multi-pack game's log: the packs' deck, then every seat's hand with its
    /// loose cards and points (§3.3, §3.6: the fewest loose cards and the most points with them),
    /// its most points with loose cards allowed (the hand's part of §4.6 S5's current points) and
    /// its face-down quadruples.
    fn multi_pack(title: &str, s: &PacksState) -> TuSacLog {
        let mut log = TuSacLog::default();
        let o = s.options();
        let _ = writeln!(log.text, "{title}");
        let _ = writeln!(
            log.text,
            "rules: Tứ Sắc {}, {} players, first player {}, {} packs",
            o.variant, o.players, o.first_player, o.decks
        );
        let deck = format_cards(s.deck().iter().copied());
        let _ = writeln!(
            log.text,
            "deck ({} cards, §1.3 order): {deck}",
            s.deck().len()
        );
        let _ = writeln!(log.text, "deal:");
        for seat in 0..s.players() as Seat {
            let hand = s.hand(seat);
            let (loose, points) = best(hand, s.set_rules());
            let _ = writeln!(
                log.text,
                "  seat {seat}: {} ({} cards, loose {loose}, points {points}, max points {}) | \
                 face down {}",
                cards_of(hand),
                s.hand_len(seat),
                max_points(hand, s.set_rules()),
                face_down_of(s, seat)
            );
        }
        let _ = writeln!(log.text, "  stock: {} cards", s.stock_len());
        log.events(s.last_events());
        let _ = writeln!(log.text, "play:");
        log
    }

    /// The final blocks of a multi-pack game.
    fn multi_pack_final(&mut self, s: &PacksState) {
        for seat in 0..s.players() as Seat {
            // the cards only: the classic names (Khui…) do not apply here
            let sets: Vec<String> = s
                .melded(seat)
                .iter()
                .map(|x| format!("[{}]", format_cards(x.cards().iter().copied())))
                .collect();
            let _ = writeln!(
                self.text,
                "  seat {seat}: hand {} | face down {} | melded {}",
                cards_of(s.hand(seat)),
                face_down_of(s, seat),
                sets.join(" ")
            );
        }
        let _ = writeln!(self.text, "  stock: {} cards", s.stock_len());
    }

    /// The final blocks of a one-pack game.
    fn one_pack_final(&mut self, s: &OnePackState) {
        for seat in 0..s.players() as Seat {
            let sets: Vec<String> = s.public_sets(seat).iter().map(|x| x.to_string()).collect();
            let _ = writeln!(
                self.text,
                "  seat {seat}: private {} | public {}",
                s.private(seat),
                sets.join(" ")
            );
        }
        let _ = writeln!(self.text, "  stock: {} cards", s.stock_len());
    }

    /// Records the events of the last step (`last_events`), numbering them.
    fn events(&mut self, events: &[super::actions::Event]) {
        for e in events {
            self.step += 1;
            let _ = writeln!(self.text, "  {:>4}. {e}", self.step);
        }
    }
}

/// The cards of a count array, in card order.
fn cards_of(hand: &Counts) -> String {
    format_cards(Card::all().flat_map(|c| std::iter::repeat_n(c, usize::from(hand[c.index()]))))
}

/// A seat's face-down quadruples as sets, e.g. `[gH gH gH gH]`.
fn face_down_of(s: &PacksState, seat: Seat) -> String {
    let sets: Vec<String> = s
        .face_down(seat)
        .map(|c| format!("[{}]", format_cards(std::iter::repeat_n(c, 4))))
        .collect();
    sets.join(" ")
}

/// One line describing an outcome: winner, reason, hand value, penalty and payouts.
pub(crate) fn outcome_line(o: &Outcome) -> String {
    let pays: Vec<String> = o.payouts().iter().map(|p| format!("{p:+}")).collect();
    let who = match o.winner {
        Some(w) => format!("seat {w} wins ({}), hand value {}", o.reason, o.hand_value),
        None => format!("drawn ({})", o.reason),
    };
    let pen = o
        .penalized
        .map(|d| format!(", penalty paid by seat {d}"))
        .unwrap_or_default();
    format!(
        "outcome: {who}, {} turns{pen}; payouts [{}]",
        o.turns,
        pays.join(", ")
    )
}
