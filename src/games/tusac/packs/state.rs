//! The multi-pack state machine: the phases of §4.3 with the Sisepai rules S1–S7 of §4.6, the
//! end conditions of §4.7 and the payouts of §6.3–6.4.
//!
//! Claim windows (S2) are simultaneous: the turn player `T` answers in `TurnOption`, then every
//! other seat holding two copies of the active card in `Claim`; the answers stay hidden in the
//! state (no event, not in any view) until the last one, then the highest set by §2.4 is played
//! (ties to the earlier seat in the claim order, `T` first).

use super::loose::{best, complete_win_score, max_points, set_points, win_score, Counts};
use super::melds::{
    gated_shape_set, identical_claims, meld_points, melded_set, precedence, shapes_in,
};
use crate::fixed::CopyVec;
use crate::game::{GameState, Outcome, Seat, MAX_SEATS};
use crate::games::tusac::actions::{Action, Active, Event, Phase, Rule, Source};
use crate::games::tusac::card::{Card, Rank, CARD_TYPES};
use crate::games::tusac::meld::{Meld, Melds};
use crate::games::tusac::options::Options;
use crate::games::tusac::sets::SetRules;
use crate::games::tusac::sets::{Origin, SetInstance, SetKind, Zone};
use crate::rng::{shuffle, stream_rng};
use arrayvec::ArrayVec;

/// Most cards in play: four packs.
pub(crate) const MAX_DECK: usize = 4 * 112;
/// Most players (§1.2).
pub(crate) const MAX_PLAYERS: usize = MAX_SEATS;
/// Bound on a seat's melded sets: every meld but a drawn King's lone meld takes at least one of
/// the seat's at most 26 hand cards, and at most 16 Kings exist (4 packs): 26 + 16.
pub(crate) const MAX_MELDED: usize = 42;
/// Bound on the legal actions of one decision: discards are distinct non-King types (24); a turn
/// option offers at most 8 melds plus a draw; a claim at most 2 melds plus a pass.
pub const MAX_ACTIONS: usize = 24;
const _: () = assert!(
    MAX_ACTIONS <= crate::games::tusac::actions::MAX_ACTIONS,
    "the shared list holds every action"
);
/// Bound on the events of one step: the deal reports a redeal, the double rank, at most 6
/// face-down quads per seat and a natural win (51); an action chains at most a discard, a
/// declined draw and then, per King drawn (at most 16), a no-discard, a reshuffle, a draw and a
/// meld, then the end.
pub(crate) const MAX_EVENTS: usize = 4 * 16 + 8 + 8 * 6 + 4;
/// The RNG stream of the dead-pile reshuffle, under the game's reshuffle seed (§4.7).
pub(crate) const RESHUFFLE_STREAM: u64 = 0;

/// A seat's melded sets.
pub(crate) type MeldedSets = CopyVec<SetInstance, MAX_MELDED>;

/// What the loose-card solver says of one seat's hand, kept beside the hand: every change of
/// the hand refreshes it (`PacksState::recount`), so the claim windows and the agents read it
/// instead of solving the same hand again. (The pair gate's best-value points, [`max_points`],
/// are solved only when a gate asks for them.)
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct HandFacts {
    /// Loose cards of the best partition (§3.4, [`best`]).
    pub loose: u8,
    /// Points of that partition (dealt values, doubling applied).
    pub points: u32,
}

impl HandFacts {
    /// The facts of `hand` under `rules`.
    pub fn of(hand: &Counts, rules: &SetRules) -> HandFacts {
        let (loose, points) = best(hand, rules);
        HandFacts { loose, points }
    }
}

/// What the open claim window is collecting.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(super) enum WindowKind {
    /// No window is open.
    #[default]
    Closed,
    /// S2: simultaneous declarations, `T` first.
    Declare,
    /// S1 (dirtyking26): the optional King Quad, asked in claim order, first taker wins.
    KingQuad,
}

/// The seats an open window asks, in claim order, with their hidden answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(super) struct Window {
    pub(super) kind: WindowKind,
    pub(super) seats: [Seat; MAX_PLAYERS],
    pub(super) len: u8,
    /// The position in `seats` of the seat asked now.
    pub(super) at: u8,
    /// The declarations so far, by position.
    pub(super) declared: [Option<Meld>; MAX_PLAYERS],
    /// A declaration window's legal melds for the turn player (`seats[0]`) as a shape set
    /// ([`shape_set`](super::melds::shape_set)), made once when the window opens: the engine's
    /// S2.1 win check and `T`'s legal actions both read it.
    pub(super) turn_shapes: u8,
}

/// A sisepai21 / dirtyking26 game in progress. A plain `Copy` value.
#[derive(Copy, Clone, Debug)]
pub struct PacksState {
    pub(super) opts: Options,
    pub(super) rules: SetRules,
    /// The deck as dealt (§1.3 item 4), `deck_len` cards.
    pub(super) deck: [Card; MAX_DECK],
    pub(super) deck_len: u16,
    /// The stock: the next card drawn is `stock[next]`, the last `stock[end - 1]`.
    pub(super) stock: [Card; MAX_DECK],
    pub(super) next: u16,
    pub(super) end: u16,
    /// `stock[public_from..end]` was looked at for the double rank (public); `end` if none.
    pub(super) public_from: u16,
    pub(super) hands: [Counts; MAX_PLAYERS],
    /// Face-down block: bit `t` set when four cards of type `t` lie face down.
    pub(super) face_down: [u32; MAX_PLAYERS],
    pub(super) melded: [MeldedSets; MAX_PLAYERS],
    /// Each seat's points in face-down and melded sets ([`PacksState::recount`] keeps it).
    pub(super) fixed: [u32; MAX_PLAYERS],
    /// Each seat's hand facts ([`PacksState::recount`] keeps them).
    pub(super) facts: [HandFacts; MAX_PLAYERS],
    pub(super) dead: Counts,
    /// The cards each seat has discarded (public; declined draws of S4 included).
    pub(super) discarded: [Counts; MAX_PLAYERS],
    /// Bit `t` of seat `x`: a card of type `t` went by in a window nobody took (S3, S4) with
    /// `x` in its claim order, so `x` held fewer than two copies then or let them pass
    /// (public; read only by [`PacksView::determinize_inferred`](super::view::PacksView)).
    pub(super) passed: [u32; MAX_PLAYERS],
    pub(super) active: Option<Active>,
    pub(super) phase: Phase,
    pub(super) window: Window,
    pub(super) double_rank: Option<Rank>,
    pub(super) reshuffle_seed: u64,
    pub(super) reshuffles_left: u8,
    pub(super) redeals: u16,
    pub(super) outcome: Option<Outcome>,
    pub(super) turns: u32,
    pub(super) events: CopyVec<Event, MAX_EVENTS>,
}

impl PacksState {
    /// The rule options in force.
    pub fn options(&self) -> &Options {
        &self.opts
    }
    /// The set rules in force (with the double rank).
    pub fn set_rules(&self) -> &SetRules {
        &self.rules
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        self.opts.players as usize
    }
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The active card, if any.
    pub fn active(&self) -> Option<Active> {
        self.active
    }
    /// A seat's hand (hidden: agents get it only for their own seat, through the view).
    pub fn hand(&self, seat: Seat) -> &Counts {
        &self.hands[seat as usize]
    }
    /// The card types of a seat's face-down quadruples (hidden from the other seats).
    pub fn face_down(&self, seat: Seat) -> impl Iterator<Item = Card> + '_ {
        let mask = self.face_down[seat as usize];
        Card::all().filter(move |c| mask >> c.index() & 1 == 1)
    }
    /// Cards in a seat's face-down block (public).
    pub fn face_down_len(&self, seat: Seat) -> usize {
        4 * self.face_down[seat as usize].count_ones() as usize
    }
    /// A seat's melded sets (public).
    pub fn melded(&self, seat: Seat) -> &[SetInstance] {
        self.melded[seat as usize].as_slice()
    }
    /// Counts of the dead pile.
    pub fn dead(&self) -> &Counts {
        &self.dead
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        usize::from(self.end - self.next)
    }
    /// The cards a seat has discarded, taken later or not (public; the declined draws it
    /// discarded by S4 included).
    pub fn discarded(&self, seat: Seat) -> &Counts {
        &self.discarded[seat as usize]
    }
    /// The cards of the stock's public part: the cards looked at for the double rank (§1.4
    /// step 2) not yet drawn (empty without them, and after a reshuffle).
    pub fn public_stock(&self) -> &[Card] {
        let from = usize::from(self.public_from.max(self.next));
        &self.stock[from..usize::from(self.end)]
    }
    /// Whether the dead pile has become the stock (§4.7): the whole stock is then the old dead
    /// pile less the cards drawn since, known to every seat as a set (not in its order).
    pub fn reshuffled(&self) -> bool {
        self.reshuffles_left < self.opts.reshuffles
    }
    /// The deck the game was dealt from (§1.3 item 4).
    pub fn deck(&self) -> &[Card] {
        &self.deck[..usize::from(self.deck_len)]
    }
    /// The double rank (dirtyking26, public).
    pub fn double_rank(&self) -> Option<Rank> {
        self.double_rank
    }
    /// The seed of the dead-pile reshuffle (§4.7), drawn at the deal; records keep it.
    pub(crate) fn reshuffle_seed(&self) -> u64 {
        self.reshuffle_seed
    }
    /// Reshuffles still allowed.
    pub(crate) fn reshuffles_left(&self) -> u8 {
        self.reshuffles_left
    }
    /// How many deals were redone before this one (§1.4 step 1).
    pub fn redeals(&self) -> u16 {
        self.redeals
    }
    /// Number of discards made so far (declined draws included).
    pub fn turns(&self) -> u32 {
        self.turns
    }
    /// Cards in a seat's hand.
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.hands[seat as usize]
            .iter()
            .map(|&n| usize::from(n))
            .sum()
    }
    /// Every card in play, counted in every zone (cards are conserved: this is the deck size).
    pub fn total_cards(&self) -> usize {
        let seats = 0..self.opts.players;
        let held: usize = seats
            .map(|s| {
                let sets: usize = self.melded(s).iter().map(|m| m.cards().len()).sum();
                self.hand_len(s) + self.face_down_len(s) + sets
            })
            .sum();
        let dead: usize = self.dead.iter().map(|&n| usize::from(n)).sum();
        held + dead + self.stock_len() + usize::from(self.active.is_some())
    }

    pub(super) fn next_seat(&self, seat: Seat) -> Seat {
        (seat + 1) % self.opts.players
    }

    /// The points of a seat's face-down and melded sets (§2.5, doubling included).
    pub fn fixed_points(&self, seat: Seat) -> u32 {
        self.fixed[seat as usize]
    }

    /// What the solver says of a seat's hand (hidden, as the hand is).
    pub fn facts(&self, seat: Seat) -> HandFacts {
        self.facts[seat as usize]
    }

    /// Refreshes `seat`'s hand facts; called whenever its hand alone changes (a discard).
    fn refresh_facts(&mut self, seat: Seat) {
        self.facts[seat as usize] = HandFacts::of(&self.hands[seat as usize], &self.rules);
    }

    /// Recounts `seat`'s fixed points from its face-down block and melded sets, and refreshes
    /// its hand facts; called when its block or sets are made anew (the deal, a
    /// determinization). A meld adds its own points ([`meld_points`]).
    pub(super) fn recount(&mut self, seat: Seat) {
        self.refresh_facts(seat);
        let face_down: u32 = self
            .face_down(seat)
            .map(|c| {
                let quad = SetInstance::new(SetKind::Quad, &[c; 4], Zone::FaceDown, Origin::Dealt);
                set_points(&quad, &self.rules)
            })
            .sum();
        let melded: u32 = self
            .melded(seat)
            .iter()
            .map(|s| set_points(s, &self.rules))
            .sum();
        self.fixed[seat as usize] = face_down + melded;
    }

    /// The score `seat` wins with if it makes `meld` on the active card `card` (§4.7), or `None`.
    fn win_with(&self, seat: Seat, meld: Meld, card: Card) -> Option<u32> {
        let mut hand = self.hands[seat as usize];
        for c in meld.used() {
            hand[c.index()] -= 1;
        }
        let fixed = self.fixed_points(seat) + meld_points(meld, card, &self.rules);
        win_score(&hand, fixed, &self.rules, self.opts.win_test)
    }

    /// The best winning meld among `melds` (highest score, then canonical order, §3.6).
    fn best_win(&self, seat: Seat, melds: &[Meld], card: Card) -> Option<Meld> {
        // A win leaves no loose card, and taking k cards out of a hand lowers its loose count by
        // at most k (a partition of H − c plus c loose is one of H): a meld using fewer hand
        // cards than the hand has loose ones cannot win.
        let mut best: Option<(u32, Meld)> = None;
        let loose = usize::from(self.facts(seat).loose);
        for &m in melds.iter().filter(|m| loose <= m.used().len()) {
            if let Some(score) = self.win_with(seat, m, card) {
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, m));
                }
            }
        }
        best.map(|(_, m)| m)
    }

    /// The claim order of §4.3 for the active card: the turn player first.
    pub(super) fn claim_order(&self, a: Active) -> impl Iterator<Item = Seat> + Clone {
        let n = self.opts.players;
        let (t, len) = match a.source {
            Source::Discard => (self.next_seat(a.owner), n - 1),
            _ => (a.owner, n),
        };
        (t..t + len).map(move |x| if x < n { x } else { x - n })
    }

    /// The turn player's legal melds on the active card (S2, S5), as a shape set.
    pub(super) fn turn_shapes(&self, t: Seat, card: Card) -> u8 {
        let hand = &self.hands[t as usize];
        let fixed = self.fixed_points(t);
        // the best partition's points are at most the best-value ones S5 reads
        let at_least = fixed + self.facts(t).points;
        let current = || fixed + max_points(hand, &self.rules);
        let (cross, gate) = (self.rules.cross_colour, self.opts.pair_meld_min_points);
        gated_shape_set(hand, card, cross, gate, at_least, current)
    }

    /// Opens the claim window of the active card (§4.3 `ClaimWindow`, S1, S2).
    pub(super) fn claim_window(&mut self) {
        let a = self.active.expect("a claim window needs an active card");
        if a.card.is_king() {
            return self.drawn_king(a);
        }
        let order = self.claim_order(a);
        let t = order
            .clone()
            .next()
            .expect("a claim order starts with the turn player");
        let turn_shapes = self.turn_shapes(t, a.card);
        let mut w = Window {
            kind: WindowKind::Declare,
            turn_shapes,
            ..Window::default()
        };
        let mut melds = Melds::new();
        // S2.1 (wins first, forced, in claim order) while the S2.2 window is made: the turn
        // player, then every seat with two copies of the card (identical sets only off turn).
        for (i, x) in order.enumerate() {
            if i > 0 && self.hands[x as usize][a.card.index()] < 2 {
                continue;
            }
            w.seats[w.len as usize] = x;
            w.len += 1;
            if self.facts(x).loose > 3 {
                continue; // see `best_win`: no meld takes more than 3 hand cards
            }
            if i == 0 {
                shapes_in(turn_shapes, a.card, self.rules.cross_colour, &mut melds);
            } else {
                identical_claims(&self.hands[x as usize], a.card, &mut melds);
            }
            if let Some(m) = self.best_win(x, &melds, a.card) {
                return self.take_active(x, m, Some(Rule::S2));
            }
        }
        // S2.2: simultaneous optional declarations, T first.
        self.window = w;
        self.ask();
    }

    /// S1: a drawn King. Win calls in claim order, then (dirtyking26) the optional King Quad,
    /// else the drawer's forced lone King.
    fn drawn_king(&mut self, a: Active) {
        let order = self.claim_order(a);
        let lone = Meld::new(SetKind::King, &[]);
        let quad = Meld::new(SetKind::Quad, &[a.card; 3]);
        let quads = self.opts.king_identical_sets
            == crate::games::tusac::options::KingIdenticalSets::QuadOnly;
        for x in order.clone() {
            let mut options: ArrayVec<Meld, 2> = ArrayVec::new();
            options.push(lone);
            if quads && self.hands[x as usize][a.card.index()] >= 3 {
                options.push(quad);
            }
            if let Some(m) = self.best_win(x, &options, a.card) {
                return self.take_active(x, m, Some(Rule::S1));
            }
        }
        let mut w = Window {
            kind: WindowKind::KingQuad,
            ..Window::default()
        };
        if quads {
            for x in order {
                if self.hands[x as usize][a.card.index()] >= 3 {
                    w.seats[w.len as usize] = x;
                    w.len += 1;
                }
            }
        }
        self.window = w;
        self.ask();
    }

    /// Asks the next seat of the open window, or resolves it.
    pub(super) fn ask(&mut self) {
        let w = &self.window;
        if w.at < w.len {
            let x = w.seats[w.at as usize];
            self.phase = if w.kind == WindowKind::Declare && w.at == 0 {
                Phase::TurnOption(x)
            } else {
                Phase::Claim(x)
            };
            return;
        }
        match w.kind {
            WindowKind::Declare => self.resolve_declarations(),
            _ => {
                self.window = Window::default();
                let a = self.active.expect("a drawn King");
                self.take_active(a.owner, Meld::new(SetKind::King, &[]), Some(Rule::S1));
            }
        }
    }

    /// Records the answer of the seat asked now and moves on.
    fn answer(&mut self, meld: Option<Meld>) {
        let at = self.window.at as usize;
        let x = self.window.seats[at];
        if self.window.kind == WindowKind::KingQuad {
            if let Some(m) = meld {
                self.window = Window::default();
                return self.take_active(x, m, None);
            }
        }
        self.window.declared[at] = meld;
        self.window.at += 1;
        self.ask();
    }

    /// S2.2 resolution: the highest declared set by §2.4, ties to the earlier seat; else S3
    /// (a discard: `T` draws) or S4 (an own draw: `T` discards it).
    fn resolve_declarations(&mut self) {
        let a = self.active.expect("a declared window has an active card");
        let w = &self.window;
        let mut best: Option<(u8, Seat, Meld)> = None;
        for i in 0..w.len as usize {
            if let Some(m) = w.declared[i] {
                let p = precedence(m.kind, a.card.is_king());
                if best.is_none_or(|(b, _, _)| p > b) {
                    best = Some((p, w.seats[i], m));
                }
            }
        }
        let t = w.seats[0];
        self.window = Window::default();
        if best.is_none() {
            for x in self.claim_order(a) {
                self.passed[x as usize] |= 1 << a.card.index();
            }
        }
        match (best, a.source) {
            (Some((_, x, m)), _) => self.take_active(x, m, None),
            (None, Source::OwnDraw) => {
                // S4: the drawer discards its declined draw; a new window from next(T).
                self.turns += 1;
                self.active = Some(Active {
                    source: Source::Discard,
                    ..a
                });
                self.discarded[t as usize][a.card.index()] += 1;
                self.events.push(Event::DeclinedDraw {
                    seat: t,
                    card: a.card,
                });
                self.claim_window();
            }
            (None, _) => {
                // S3: a discard nobody takes goes to the dead pile and T draws.
                self.active = None;
                self.dead[a.card.index()] += 1;
                self.draw_step(t, Some(a.card));
            }
        }
    }

    /// Moves the active card and the meld's hand cards into a new melded set, then `AfterMeld`.
    fn take_active(&mut self, x: Seat, meld: Meld, rule: Option<Rule>) {
        let a = self.active.take().expect("a meld needs an active card");
        let hand = &mut self.hands[x as usize];
        for c in meld.used() {
            hand[c.index()] -= 1;
        }
        self.melded[x as usize].push(melded_set(meld, a.card));
        self.fixed[x as usize] += meld_points(meld, a.card, &self.rules);
        self.refresh_facts(x);
        self.events.push(Event::Meld {
            seat: x,
            meld,
            active: a.card,
            rule,
        });
        // AfterMeld(X): the win test of §4.7, on the hand's facts just refreshed.
        let (fixed, facts) = (self.fixed_points(x), self.facts(x));
        let hand = &self.hands[x as usize];
        let test = self.opts.win_test;
        let score = (facts.loose == 0)
            .then(|| complete_win_score(hand, facts.points, fixed, &self.rules, test))
            .flatten();
        match score {
            Some(score) => self.finish_win(x, score, rule.unwrap_or(Rule::S2)),
            None => self.must_discard(x),
        }
    }

    /// `MustDiscard(X)`, or S6: a hand of Kings only makes no discard and `next(X)` draws.
    pub(super) fn must_discard(&mut self, x: Seat) {
        let hand = &self.hands[x as usize];
        if hand[4..].iter().any(|&n| n > 0) {
            self.phase = Phase::MustDiscard(x);
        } else {
            self.events.push(Event::NoDiscard { seat: x });
            self.draw_step(self.next_seat(x), None);
        }
    }

    /// `DrawStep(T)` (§4.3, §4.7): draw, or reshuffle the dead pile once, or end drawn.
    fn draw_step(&mut self, t: Seat, declined: Option<Card>) {
        if self.stock_len() <= usize::from(self.opts.stock_floor) {
            let dead: usize = self.dead.iter().map(|&n| usize::from(n)).sum();
            if self.reshuffles_left == 0 || dead == 0 {
                return self.finish_drawn();
            }
            self.reshuffle();
            if self.stock_len() <= usize::from(self.opts.stock_floor) {
                return self.finish_drawn();
            }
        }
        let card = self.stock[usize::from(self.next)];
        self.next += 1;
        self.active = Some(Active {
            card,
            source: Source::OwnDraw,
            owner: t,
            worst: true,
        });
        self.events.push(Event::Draw {
            seat: t,
            card,
            declined,
        });
        self.claim_window();
    }

    /// §4.7: the dead pile, in canonical order, shuffled into a new stock by the generator of
    /// the game's reshuffle seed (so a record replays it).
    fn reshuffle(&mut self) {
        let done = u64::from(self.opts.reshuffles - self.reshuffles_left);
        let mut k = 0;
        for c in Card::all() {
            for _ in 0..self.dead[c.index()] {
                self.stock[k] = c;
                k += 1;
            }
        }
        let mut rng = stream_rng(self.reshuffle_seed, done, RESHUFFLE_STREAM);
        shuffle(&mut self.stock[..k], &mut rng);
        self.dead = [0; CARD_TYPES];
        (self.next, self.end, self.public_from) = (0, k as u16, k as u16);
        self.reshuffles_left -= 1;
        self.events.push(Event::Reshuffle { cards: k as u16 });
    }

    /// A win (§4.7) paid by §6.3 / §6.4: every loser pays `k·WP`.
    pub(super) fn finish_win(&mut self, winner: Seat, score: u32, rule: Rule) {
        let n = self.players();
        let each = self.opts.points_multiplier * i64::from(score);
        let mut payouts = [0i64; MAX_SEATS];
        for (s, p) in payouts.iter_mut().enumerate().take(n) {
            *p = if s == winner as usize {
                each * (n as i64 - 1)
            } else {
                -each
            };
        }
        let reason = if rule == Rule::NaturalWin {
            "natural_win"
        } else {
            "win"
        };
        self.end(Some(winner), rule, reason, payouts, score);
    }

    fn finish_drawn(&mut self) {
        self.end(None, Rule::StockFloor, "stock_floor", [0; MAX_SEATS], 0);
    }

    fn end(
        &mut self,
        winner: Option<Seat>,
        rule: Rule,
        reason: &'static str,
        payouts: [i64; MAX_SEATS],
        hand_value: u32,
    ) {
        self.outcome = Some(Outcome {
            seats: self.opts.players,
            winner,
            reason,
            payouts,
            hand_value,
            turns: self.turns,
            penalized: None,
            places: [0; MAX_SEATS],
        });
        self.phase = Phase::Over;
        self.window = Window::default();
        self.events.push(Event::End { winner, rule });
    }

    fn is_legal(&self, action: Action) -> bool {
        let mut list = ArrayVec::new();
        self.legal_actions(&mut list);
        list.contains(&action)
    }

    /// The declaration of a seat still hidden in the open window (tests; never in a view).
    pub fn pending(&self, seat: Seat) -> Option<Meld> {
        let w = &self.window;
        (0..w.at as usize)
            .find(|&i| w.seats[i] == seat)
            .and_then(|i| w.declared[i])
    }
}

mod play;
