//! The readable log of one game (`bailab play`, golden playthroughs): the deal, every event with
//! its seat and the rule that forced it, the final hands and the payout vector.

use super::state::{TuSacState, DECK_SIZE};
use super::trash::trash;
use crate::game::{GameState, Outcome, Seat};
use crate::games::GameLog;
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
        log.events(s);
        let _ = writeln!(log.text, "play:");
        log
    }

    /// Records a decision: the seat, how many legal actions it had and its choice, then its events.
    fn decision(&mut self, seat: Seat, legal: usize, action: &str, after: &TuSacState) {
        let _ = writeln!(
            self.text,
            "        seat {seat} chooses `{action}` ({legal} legal)"
        );
        self.events(after);
    }

    /// Closes the log with the final hands and the outcome.
    fn finish(mut self, s: &TuSacState) -> String {
        let _ = writeln!(self.text, "final:");
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
        if let Some(o) = s.outcome() {
            let _ = writeln!(self.text, "{}", outcome_line(&o));
        }
        self.text
    }
}

impl TuSacLog {
    /// Records the events of the last step (`last_events`), numbering them.
    fn events(&mut self, s: &TuSacState) {
        for e in s.last_events() {
            self.step += 1;
            let _ = writeln!(self.text, "  {:>4}. {e}", self.step);
        }
    }
}

/// One line describing an outcome: winner, reason, hand value, penalty and payouts.
pub fn outcome_line(o: &Outcome) -> String {
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
