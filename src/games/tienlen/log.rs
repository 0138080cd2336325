//! The readable log of one Tiến Lên game (`bailab play`, golden playthroughs): the rules and the
//! deal, every decision and every event with the rule that forced it, the hands left, the places
//! and the payouts.

use super::state::TienLenState;
use crate::game::{GameState, Seat};
use crate::games::kind::GameLog;
use std::fmt::Write;

/// Accumulates the log of one game as it is played.
#[derive(Clone, Debug, Default)]
pub struct TienLenLog {
    text: String,
    step: usize,
}

impl TienLenLog {
    /// Adds the events of the last step, numbered.
    fn events(&mut self, s: &TienLenState) {
        for e in s.last_events() {
            self.step += 1;
            let _ = writeln!(self.text, "  {:>4}. {e}", self.step);
        }
    }
}

impl GameLog<TienLenState> for TienLenLog {
    fn new(title: &str, s: &TienLenState) -> TienLenLog {
        let mut log = TienLenLog::default();
        let setup = s.setup();
        let _ = writeln!(log.text, "{title}");
        let _ = writeln!(
            log.text,
            "rules: Tiến Lên (southern), {} players, dealer {}, {} game, leader {}{}",
            s.players(),
            setup.dealer,
            if setup.initial { "initial" } else { "normal" },
            s.leader(),
            s.required()
                .map(|c| format!(", whose first play must contain {c}"))
                .unwrap_or_default()
        );
        let deck = super::format_cards(s.deck().iter().copied());
        let _ = writeln!(log.text, "deck (52 cards, §2.3 order): {deck}");
        let _ = writeln!(log.text, "deal:");
        for seat in 0..s.players() as Seat {
            let _ = writeln!(log.text, "  seat {seat}: {}", s.hand(seat));
        }
        if !s.set_aside().is_empty() {
            let _ = writeln!(log.text, "  set aside: {}", s.set_aside());
        }
        let _ = writeln!(log.text, "play:");
        log.events(s);
        log
    }

    fn decision(&mut self, seat: Seat, legal: usize, action: &str, after: &TienLenState) {
        let _ = writeln!(
            self.text,
            "        seat {seat} chooses `{action}` ({legal} legal)"
        );
        self.events(after);
    }

    fn finish(mut self, s: &TienLenState) -> String {
        let _ = writeln!(self.text, "final:");
        for seat in 0..s.players() as Seat {
            let hand = s.hand(seat);
            let place = s.places()[seat as usize];
            let _ = writeln!(
                self.text,
                "  seat {seat}: place {}, holds {}",
                if place == 0 {
                    "-".to_string()
                } else {
                    place.to_string()
                },
                if hand.is_empty() {
                    "nothing".to_string()
                } else {
                    hand.to_string()
                }
            );
        }
        if let Some(o) = s.outcome() {
            let pays: Vec<String> = o.payouts().iter().map(|p| format!("{p:+}")).collect();
            let _ = writeln!(
                self.text,
                "outcome: seat {} is first ({}), {} plays; payouts in half-cược [{}]",
                o.winner.map_or("-".to_string(), |w| w.to_string()),
                o.reason,
                o.turns,
                pays.join(", ")
            );
        }
        self.text
    }
}
