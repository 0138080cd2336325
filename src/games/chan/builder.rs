//! Chắn positions built by hand, for tests and examples: [`Chan::position`] starts an empty
//! one and [`Position`]'s builder methods fill in hands, melds, history, stock and phase.

use super::card::Card;
use super::hand::Hand;
use super::rules::{Meld, MeldKind, MeldSource};
use super::state::{Chan, ChanState};
use super::types::{Live, Origin, Phase, Setup, Via, DECK_SIZE};
use crate::game::Seat;

impl Chan {
    /// An empty position to build by hand (tests, examples): see [`Position`].
    pub fn position(&self) -> Position {
        Position {
            s: ChanState::empty(*self.options(), Setup::default()),
        }
    }
}

/// A position built by hand, for tests and examples: hands, melds and history per seat, the
/// stock, the live card and the phase. Nothing is checked: it is the caller's position.
#[derive(Copy, Clone, Debug)]
pub struct Position {
    s: ChanState,
}

fn cards(text: &str) -> Hand {
    text.parse()
        .unwrap_or_else(|e| panic!("position: bad cards '{text}': {e}"))
}

fn card(text: &str) -> Card {
    text.parse()
        .unwrap_or_else(|e| panic!("position: bad card '{text}': {e}"))
}

impl Position {
    /// Sets `seat`'s concealed cards.
    pub fn hand(mut self, seat: Seat, text: &str) -> Position {
        self.s.seats[seat as usize].concealed = cards(text);
        self
    }
    /// Adds cards `seat` was dealt and no longer holds (they count in `initial` only).
    pub fn spent(mut self, seat: Seat, text: &str) -> Position {
        let p = &mut self.s.seats[seat as usize];
        p.spent = p.spent.plus(cards(text));
        self
    }
    /// Adds an exposed meld made by `source`, with its hand cards counted as dealt, and the
    /// history it implies (`Taken`, `EatenCa`, `chiu_count`).
    pub fn meld(
        mut self,
        seat: Seat,
        hand_card: &str,
        taken: &str,
        source: MeldSource,
    ) -> Position {
        let (h, t) = (card(hand_card), card(taken));
        let p = &mut self.s.seats[seat as usize];
        let kind = match source {
            MeldSource::Eat if h == t => MeldKind::Chan,
            MeldSource::Eat => MeldKind::Ca,
            _ => MeldKind::Quad,
        };
        match source {
            MeldSource::Eat => {
                p.spent.add(h);
                p.taken |= t.bit();
                if kind == MeldKind::Ca {
                    p.eaten_ca |= 1 << t.rank_index().expect("a Ca has a rank");
                }
            }
            MeldSource::Chiu => {
                p.spent.add_n(t, 3);
                p.taken |= t.bit();
                p.chiu_count += 1;
            }
            MeldSource::ThienKhai => p.spent.add_n(t, 4),
        }
        p.melds.push(Meld {
            kind,
            hand_card: h,
            taken: t,
            source,
        });
        self
    }
    /// Records that `seat` discarded `card` earlier (`Dsc`; the card counts as dealt).
    pub fn discarded(mut self, seat: Seat, text: &str) -> Position {
        let p = &mut self.s.seats[seat as usize];
        for c in cards(text).cards() {
            p.dsc |= c.bit();
            p.spent.add(c);
        }
        self
    }
    /// Records that `seat` declined `card` at its gate when a take was legal (`Dec`).
    pub fn declined(mut self, seat: Seat, text: &str) -> Position {
        let p = &mut self.s.seats[seat as usize];
        for c in cards(text).cards() {
            p.dec |= c.bit();
            p.offers |= c.bit();
        }
        self
    }
    /// Sets the first player and the previous winner.
    pub fn setup(mut self, setup: Setup) -> Position {
        self.s.setup = setup;
        self
    }
    /// Sets the stock, top first (the rest of the deck is left unspecified).
    pub fn stock(mut self, text: &str) -> Position {
        let list = super::card::parse_cards(text).expect("position: bad stock");
        let start = DECK_SIZE - list.len();
        self.s.deck[start..].copy_from_slice(&list);
        self.s.next_draw = start as u8;
        self
    }
    /// Places `card` live at `G(gate)`.
    pub fn live(
        mut self,
        card_text: &str,
        gate: Seat,
        origin: Origin,
        via: Via,
        releaser: Option<Seat>,
    ) -> Position {
        self.s.live = Some(Live {
            card: card(card_text),
            gate,
            origin,
            via,
            releaser,
        });
        self
    }
    /// The state, in `phase` (a seat asked in an ù window counts as asked in it).
    pub fn at(mut self, phase: Phase) -> ChanState {
        self.s.phase = phase;
        if let Phase::UWindow { seat, .. } = phase {
            self.s.asked = 1 << seat;
        }
        self.s
    }
}
