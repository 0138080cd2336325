//! The readable log of one hand (`bailab play`, golden playthroughs): the deal with each hand's
//! decomposition, every decision and event (forced ones with their rule id), the final hands and
//! the outcome with the winner's factors.

use super::decompose::decompose;
use super::state::ChanState;
use super::types::DECK_SIZE;
use crate::game::{GameState, Seat};
use crate::games::kind::GameLog;
use crate::notation::spaced;
use std::fmt::Write;

/// Accumulates the log of one hand as it is played.
#[derive(Clone, Debug, Default)]
pub struct ChanLog {
    text: String,
    step: usize,
}

fn seat_line(s: &ChanState, seat: Seat) -> String {
    let p = s.seat(seat);
    let d = decompose(&p.concealed);
    let melds = spaced(p.melds.as_slice().iter());
    format!(
        "{} ({} cards; chan {}, ca {}, lone {}{}){}",
        p.concealed,
        p.concealed.len(),
        p.exposed_chan() + d.chan,
        d.ca + p.melds.as_slice().iter().filter(|m| m.chan() == 0).count() as u8,
        d.lone_count(),
        if d.b() > 0 { ", ba dau" } else { "" },
        if melds.is_empty() {
            String::new()
        } else {
            format!(" | exposed {melds}")
        }
    )
}

impl GameLog<ChanState> for ChanLog {
    fn new(title: &str, s: &ChanState) -> ChanLog {
        let mut log = ChanLog::default();
        let o = s.options();
        let setup = s.setup();
        let _ = writeln!(log.text, "{title}");
        let _ = writeln!(
            log.text,
            "rules: Chắn standard, {} players, first player {}, previous winner {}",
            o.players,
            setup.first,
            setup
                .prev_winner
                .map_or("none".to_string(), |w| w.to_string())
        );
        let _ = writeln!(
            log.text,
            "deck ({DECK_SIZE} cards, §2.4 order): {}",
            spaced(s.deck().iter())
        );
        let _ = writeln!(log.text, "deal:");
        for seat in 0..s.players() as Seat {
            let _ = writeln!(log.text, "  seat {seat}: {}", seat_line(s, seat));
        }
        let _ = writeln!(log.text, "  stock: {} cards", s.stock_len());
        log.events(s);
        let _ = writeln!(log.text, "play:");
        log
    }

    fn decision(&mut self, seat: Seat, legal: usize, action: &str, after: &ChanState) {
        let _ = writeln!(
            self.text,
            "        seat {seat} chooses `{action}` ({legal} legal)"
        );
        self.events(after);
    }

    fn finish(mut self, s: &ChanState) -> String {
        let _ = writeln!(self.text, "final:");
        for seat in 0..s.players() as Seat {
            let _ = writeln!(self.text, "  seat {seat}: {}", seat_line(s, seat));
        }
        let _ = writeln!(
            self.text,
            "  stock: {} cards; dead: {}",
            s.stock_len(),
            s.dead()
        );
        if let Some(o) = s.outcome() {
            let pays: Vec<String> = o.payouts().iter().map(|p| format!("{p:+}")).collect();
            let who = match (o.winner, s.score()) {
                (Some(w), Some(sc)) => format!("seat {w} wins ({}): {sc}", o.reason),
                _ => format!("drawn ({})", o.reason),
            };
            let _ = writeln!(
                self.text,
                "outcome: {who}, {} turns; payouts [{}]",
                o.turns,
                pays.join(", ")
            );
        }
        self.text
    }
}

impl ChanLog {
    fn events(&mut self, s: &ChanState) {
        for e in s.last_events() {
            self.step += 1;
            let _ = writeln!(self.text, "  {:>4}. {e}", self.step);
        }
    }
}
