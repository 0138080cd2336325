//! The multi-pack game and its deal (§1.1, §1.3, §1.4): the deck-order convention, the redeal
//! check, the double rank, face-down quadruples and `F`'s natural win.

use super::loose::{win_score, Counts};
use super::state::{HandFacts, PacksState, Window, MAX_DECK, MAX_PLAYERS};
use crate::fixed::CopyVec;
use crate::game::{Game, Seat};
use crate::games::kind::{DeckError, RuleError};
use crate::games::tusac::actions::{Event, Phase, Rule};
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::options::{
    ClaimRule, Core, DealtQuad, DiscardRule, DrawnKing, Options, PassedDraw, Payout, WinTest,
};
use crate::games::tusac::sets::SetRules;
use crate::rng::{shuffle, GameRng};
use rand::Rng;
use std::sync::OnceLock;

/// A sisepai21 or dirtyking26 game: its validated rule options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MultiPack {
    opts: Options,
}

/// Checks that the multi-pack core can honour `opts` (a combination it cannot is an error).
fn validate(o: &Options) -> Result<(), RuleError> {
    let fail = |what: &str| Err(RuleError::Unsupported(format!("{}: {what}", o.variant)));
    if o.core() != Core::MultiPack {
        return fail("the multi-pack core runs only options without the Khap lock");
    }
    if !(2..=MAX_PLAYERS as u8).contains(&o.players) {
        return fail(&format!(
            "{} players: the multi-pack core seats 2 to 8",
            o.players
        ));
    }
    if o.first_player >= o.players {
        return fail(&format!("first player {} is not a seat", o.first_player));
    }
    if !(1..=4).contains(&o.decks) {
        return fail(&format!("{} packs: 1 to 4 are supported", o.decks));
    }
    let dealt = usize::from(o.players) * usize::from(o.hand_size) + 1;
    if o.hand_size == 0 || o.hand_size > 26 || dealt >= o.deck_len() {
        return fail(&format!(
            "hand size {} does not fit {} packs for {} players (1 to 26 cards, stock not empty)",
            o.hand_size, o.decks, o.players
        ));
    }
    let fixed = [
        (
            o.dealt_quad == DealtQuad::FaceDownLocked,
            "dealt_quad must be FaceDownLocked",
        ),
        (
            o.discard_rule == DiscardRule::AnyNonKing,
            "discard_rule must be AnyNonKing",
        ),
        (
            o.khui_rule == ClaimRule::Optional,
            "khui_rule must be optional",
        ),
        (
            o.pair_claim_rule == ClaimRule::Optional,
            "pair_claim_rule must be optional",
        ),
        (
            o.passed_draw == PassedDraw::DrawerDiscards,
            "passed_draw must be DrawerDiscards",
        ),
        (
            o.drawn_king == DrawnKing::WinCallsThenForcedLone,
            "drawn_king must be WinCallsThenForcedLone",
        ),
        (
            !o.exposed_triple_upgrade,
            "exposed_triple_upgrade is not a multi-pack rule",
        ),
        (
            o.win_test != WinTest::TrashZero,
            "win_test must be a points test",
        ),
        (o.payout == Payout::Points, "payout must be Points"),
        (
            !o.worst_card_penalty,
            "the worst-card penalty is a classic rule",
        ),
    ];
    match fixed.iter().find(|(ok, _)| !ok) {
        Some((_, why)) => fail(why),
        None => Ok(()),
    }
}

/// §1.4 step 1 ("lacks both"): how many copies of `card` make a hand live, one King or three
/// identical non-King cards.
pub(crate) fn live_copies(card: Card) -> usize {
    if card.is_king() {
        1
    } else {
        3
    }
}

/// §1.4 step 1: the seat holds three identical non-King cards or a King.
fn live_hand(hand: &Counts) -> bool {
    Card::all().any(|c| usize::from(hand[c.index()]) >= live_copies(c))
}

impl MultiPack {
    /// A game with these options; errors when the multi-pack core cannot run them.
    pub fn new(opts: Options) -> Result<MultiPack, RuleError> {
        validate(&opts)?;
        Ok(MultiPack { opts })
    }

    /// The sisepai21 preset for `players` (2–8).
    pub fn sisepai21(players: u8) -> Result<MultiPack, RuleError> {
        MultiPack::new(Options::sisepai21(players))
    }

    /// The dirtyking26 preset for `players` (2–8).
    pub fn dirtyking26(players: u8) -> Result<MultiPack, RuleError> {
        MultiPack::new(Options::dirtyking26(players))
    }

    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The cards of all packs in canonical order (`deck_len` of the array are used).
    pub fn fresh_deck(&self) -> [Card; MAX_DECK] {
        // made once per number of packs (1 to 4)
        static DECKS: OnceLock<[[Card; MAX_DECK]; 4]> = OnceLock::new();
        let decks = DECKS.get_or_init(|| {
            std::array::from_fn(|k| {
                let copies = 4 * (k + 1);
                std::array::from_fn(|i| Card::from_index((i / copies) % CARD_TYPES))
            })
        });
        decks[usize::from(self.opts.decks) - 1]
    }

    /// The hands dealt from `deck` by the convention of §1.3 item 4, before §1.4.
    fn hands(&self, deck: &[Card]) -> [Counts; MAX_PLAYERS] {
        let o = self.opts;
        let (n, f, hs) = (
            usize::from(o.players),
            usize::from(o.first_player),
            usize::from(o.hand_size),
        );
        let mut hands = [[0u8; CARD_TYPES]; MAX_PLAYERS];
        for (k, c) in deck[..n * hs].iter().enumerate() {
            hands[(f + k) % n][c.index()] += 1;
        }
        hands[f][deck[n * hs].index()] += 1;
        hands
    }

    /// Whether every seat of this deck passes the redeal check (§1.4 step 1).
    pub fn deck_is_live(&self, deck: &[Card]) -> bool {
        self.dead_seat(deck).is_none()
    }

    /// The first seat of this deck holding neither a King nor three identical non-King cards,
    /// whose hand makes §1.4 step 1 redeal (whatever `redeal_dead_hands` says).
    pub(crate) fn dead_seat(&self, deck: &[Card]) -> Option<Seat> {
        let hands = self.hands(deck);
        (0..self.opts.players).find(|&s| !live_hand(&hands[usize::from(s)]))
    }

    /// Deals a recorded deck (§1.3 item 4), then runs §1.4 with `reshuffle_seed` for the dead
    /// pile's reshuffle. The deck must hold exactly the cards of the packs, and it must pass the
    /// redeal check: a deck that fails it is an error (a played game never starts from one,
    /// the redeals come before it).
    pub fn deal_deck(&self, deck: &[Card], reshuffle_seed: u64) -> Result<PacksState, DeckError> {
        self.deal_recorded(deck, reshuffle_seed, 0)
    }

    /// [`MultiPack::deal_deck`] for a record whose deal came after `redeals` redeals (reported
    /// by the deal's `Redealt` event, as in the game that was recorded).
    pub fn deal_recorded(
        &self,
        deck: &[Card],
        reshuffle_seed: u64,
        redeals: u16,
    ) -> Result<PacksState, DeckError> {
        if deck.len() != self.opts.deck_len() {
            return Err(DeckError::Length {
                variant: self.opts.variant.to_string(),
                holds: self.opts.deck_len(),
                given: deck.len(),
            });
        }
        let mut counts = [0u8; CARD_TYPES];
        deck.iter().for_each(|c| counts[c.index()] += 1);
        if let Some(c) = Card::all().find(|c| counts[c.index()] != self.opts.copies()) {
            return Err(DeckError::Copies {
                card: c.to_string(),
                held: counts[c.index()],
                copies: self.opts.copies(),
            });
        }
        if self.opts.redeal_dead_hands && !self.deck_is_live(deck) {
            return Err(DeckError::Redeal);
        }
        Ok(self.deal_from(deck, reshuffle_seed, redeals))
    }

    /// Deals a constructed deck for a position or a test: any cards, at most the copies of each
    /// type, enough for the hands and one stock card; no redeal check (§1.4 steps 2–5 run).
    pub fn deal_position(
        &self,
        deck: &[Card],
        reshuffle_seed: u64,
    ) -> Result<PacksState, DeckError> {
        let o = self.opts;
        let dealt = usize::from(o.players) * usize::from(o.hand_size) + 1;
        if deck.len() <= dealt || deck.len() > o.deck_len() {
            return Err(DeckError::PositionLength {
                least: dealt,
                most: o.deck_len(),
            });
        }
        let mut counts = [0u8; CARD_TYPES];
        deck.iter().for_each(|c| counts[c.index()] += 1);
        if let Some(c) = Card::all().find(|c| counts[c.index()] > o.copies()) {
            return Err(DeckError::Overused {
                card: c.to_string(),
                copies: o.copies(),
            });
        }
        Ok(self.deal_from(deck, reshuffle_seed, 0))
    }

    /// §1.3 and §1.4 steps 2–5 on a deck already checked.
    fn deal_from(&self, deck: &[Card], reshuffle_seed: u64, redeals: u16) -> PacksState {
        let o = self.opts;
        let dealt = usize::from(o.players) * usize::from(o.hand_size) + 1;
        let mut cards = [Card::default(); MAX_DECK];
        cards[..deck.len()].copy_from_slice(deck);
        let len = deck.len() as u16;
        let mut s = PacksState {
            opts: o,
            rules: SetRules::new(&o, None),
            deck: cards,
            deck_len: len,
            stock: cards,
            next: dealt as u16,
            end: len,
            public_from: len,
            hands: self.hands(deck),
            face_down: [0; MAX_PLAYERS],
            melded: [CopyVec::default(); MAX_PLAYERS],
            fixed: [0; MAX_PLAYERS],
            facts: [HandFacts::default(); MAX_PLAYERS],
            dead: [0; CARD_TYPES],
            discarded: [[0; CARD_TYPES]; MAX_PLAYERS],
            passed: [0; MAX_PLAYERS],
            active: None,
            phase: Phase::MustDiscard(o.first_player),
            window: Window::default(),
            double_rank: None,
            reshuffle_seed,
            reshuffles_left: o.reshuffles,
            redeals,
            outcome: None,
            turns: 0,
            events: CopyVec::default(),
        };
        if redeals > 0 {
            s.events.push(Event::Redealt { times: redeals });
        }
        if o.double_rank {
            double_rank(&mut s, dealt);
        }
        face_down_quads(&mut s);
        for seat in 0..o.players {
            s.recount(seat);
        }
        let f = o.first_player;
        if o.natural_win_for_first {
            let fixed = s.fixed_points(f);
            if let Some(score) = win_score(&s.hands[f as usize], fixed, &s.rules, o.win_test) {
                s.finish_win(f, score, Rule::NaturalWin);
                return s;
            }
        }
        s.must_discard(f);
        s
    }
}

/// §1.4 step 2: the bottom non-King card of the stock names the double rank; it and the Kings
/// under it were looked at (public) and stay in the stock.
fn double_rank(s: &mut PacksState, stock_start: usize) {
    let end = usize::from(s.end);
    if let Some(k) = (stock_start..end).rev().find(|&k| !s.stock[k].is_king()) {
        let card = s.stock[k];
        s.double_rank = Some(card.rank());
        s.rules.double_rank = Some(card.rank());
        s.public_from = k as u16;
        s.events.push(Event::DoubleRank { card });
    }
}

/// §1.4 step 3: exactly four cards of every non-King type held four or more times go face down.
fn face_down_quads(s: &mut PacksState) {
    for seat in 0..s.opts.players {
        let hand = &mut s.hands[seat as usize];
        for c in Card::all().filter(|c| !c.is_king()) {
            if hand[c.index()] >= 4 {
                hand[c.index()] -= 4;
                s.face_down[seat as usize] |= 1 << c.index();
                s.events.push(Event::FaceDown { seat: seat as Seat });
            }
        }
    }
}

impl Game for MultiPack {
    type State = PacksState;
    fn name(&self) -> &'static str {
        "tusac"
    }
    fn variant(&self) -> &'static str {
        self.opts.variant
    }
    fn seats(&self) -> usize {
        usize::from(self.opts.players)
    }
    /// Shuffles until the deal passes the redeal check (§1.4 step 1, each redeal from the game's
    /// RNG), then draws the reshuffle seed from the same RNG and deals. Panics after 65,535
    /// redeals (only options with tiny hands can get there).
    fn deal(&self, rng: &mut GameRng) -> PacksState {
        let len = self.opts.deck_len();
        let mut deck = self.fresh_deck();
        let mut redeals = 0u16;
        loop {
            shuffle(&mut deck[..len], rng);
            if !self.opts.redeal_dead_hands || self.deck_is_live(&deck[..len]) {
                break;
            }
            redeals = redeals
                .checked_add(1)
                .expect("no live deal in 65,535 tries: the options deal too few cards");
        }
        let seed: u64 = rng.random();
        self.deal_from(&deck[..len], seed, redeals)
    }
}
