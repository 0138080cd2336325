//! The one-pack state machine of §4: deal and post-deal steps (§1.3–1.4), the claim window with
//! its priorities C1–C3, the turn option C5/C6, the discard rule C7 and the end conditions §4.7
//! (classic), and what 4sac changes through its options (§4.5): optional Kong/Pong claims asked
//! seat by seat (F2, [`Phase::Claim`]), the exposed Pong upgrade (F3), the passed draw (F5), the
//! drawn King, any non-King discard, and the Kong-deduction payout (§6.2).

use super::deck::{DECK_SIZE, MAX_PLAYERS};
use super::history::ClaimHistory;
use super::rules::{
    best_winning_meld_with, can_win_with, cards_of, discards_for, legal_melds_for, optional_claim,
    pair_priority_binds, Taker,
};
use super::score::{classic_payouts, kong_payouts, Holdings, Win};
use super::trash::{trash, trash_and_value};
use super::worst::worst_set;
use crate::fixed::CopyVec;
use crate::game::{Game, GameState, Outcome, Seat, MAX_SEATS};
use crate::games::kind::RuleError;
use crate::games::tusac::actions::{self, Action, ActionList, Active, Event, Phase, Rule, Source};
use crate::games::tusac::card::{Card, CARD_TYPES};
use crate::games::tusac::hand::Hand;
use crate::games::tusac::meld::{Meld, Melds};
use crate::games::tusac::options::Options;
use crate::games::tusac::options::{ClaimRule, Core, DealtQuad, Payout};
use crate::games::tusac::sets::{value, Origin, SetInstance, SetKind, Zone};
use crate::rng::{shuffle, GameRng};
use arrayvec::ArrayVec;

/// Bound on a player's public sets: with `q` Quans and `d` discards from 21 private cards,
/// `4q + d ≤ 21` and every meld is followed by a discard or ends the game, so sets ≤ `q + d + 1 ≤ 22`.
pub(crate) const MAX_PUBLIC_SETS: usize = 22;
/// Bound on the legal actions of one decision: discards are distinct non-King types of at most
/// 21 cards; a turn option offers at most `super::rules::MAX_MELD_SHAPES` melds plus a draw.
pub const MAX_ACTIONS: usize = 21;
const _: () = assert!(
    MAX_ACTIONS <= actions::MAX_ACTIONS,
    "the shared list holds every action"
);

/// Bound on the events of one step: the deal reports at most 5 Quans per seat and a natural
/// win; an action reports itself, a draw, a claim and the end.
pub(crate) const MAX_EVENTS: usize = 4 * 5 + 1;

/// A player's public block (§0.2).
pub(crate) type PublicBlock = CopyVec<SetInstance, MAX_PUBLIC_SETS>;

impl Default for SetInstance {
    fn default() -> Self {
        SetInstance::new(SetKind::King, &[], Zone::Public, Origin::Dealt)
    }
}

/// A Tứ Sắc game: the variant's rule options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OnePack {
    opts: Options,
}

impl OnePack {
    /// A game with these options. Errors when an option is outside what the engine supports.
    pub fn new(opts: Options) -> Result<OnePack, RuleError> {
        opts.validate()?;
        if opts.core() != Core::OnePack {
            return Err(RuleError::Unsupported(format!(
                "{}: the one-pack core runs only options with the Khap lock (khap_lock = true)",
                opts.variant
            )));
        }
        Ok(OnePack { opts })
    }

    /// The classic variant for `players` players (2–4).
    pub fn classic(players: u8) -> Result<OnePack, RuleError> {
        OnePack::new(Options::classic(players))
    }

    /// The rule options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The cards of one pack in canonical order.
    pub fn fresh_deck() -> [Card; DECK_SIZE] {
        std::array::from_fn(|i| Card::from_index(i / 4))
    }

    /// Deals from a shuffled deck by the convention of §1.3 item 4, then runs §1.4.
    pub fn deal_deck(&self, deck: &[Card; DECK_SIZE]) -> OnePackState {
        let o = self.opts;
        let (n, f, hs) = (
            o.players as usize,
            o.first_player as usize,
            o.hand_size as usize,
        );
        let mut counts = [[0u8; CARD_TYPES]; MAX_PLAYERS];
        for (k, c) in deck[..n * hs].iter().enumerate() {
            counts[(f + k) % n][c.index()] += 1;
        }
        counts[f][deck[n * hs].index()] += 1;
        let mut s = OnePackState {
            opts: o,
            deck: *deck,
            next_draw: (n * hs + 1) as u8,
            private: [Hand::EMPTY; MAX_PLAYERS],
            public: [PublicBlock::default(); MAX_PLAYERS],
            visible: [0; CARD_TYPES],
            dead: [0; CARD_TYPES],
            active: None,
            phase: Phase::MustDiscard(f as Seat),
            outcome: None,
            turns: 0,
            events: CopyVec::default(),
            history: ClaimHistory::default(),
        };
        for (seat, seat_counts) in counts.iter_mut().enumerate().take(n) {
            for c in Card::all() {
                if seat_counts[c.index()] == 4 {
                    seat_counts[c.index()] = 0;
                    s.public[seat].push(SetInstance::new(
                        SetKind::Quad,
                        &[c; 4],
                        Zone::Public,
                        Origin::Dealt,
                    ));
                    s.visible[c.index()] += 4;
                    let seat = seat as Seat;
                    s.events.push(match o.dealt_quad {
                        DealtQuad::ExposeKong => Event::DealtKong { seat, card: c },
                        _ => Event::Quan { seat, card: c },
                    });
                }
            }
            s.private[seat] = Hand::from_counts(seat_counts);
        }
        if o.natural_win_for_first && trash(s.private[f]) == 0 {
            s.finish_win(f as Seat, None, Rule::NaturalWin);
        }
        s
    }
}

impl Game for OnePack {
    type State = OnePackState;
    fn name(&self) -> &'static str {
        "tusac"
    }
    fn variant(&self) -> &'static str {
        self.opts.variant
    }
    fn seats(&self) -> usize {
        self.opts.players as usize
    }
    fn deal(&self, rng: &mut GameRng) -> OnePackState {
        let mut deck = OnePack::fresh_deck();
        shuffle(&mut deck, rng);
        self.deal_deck(&deck)
    }
}

/// A Tứ Sắc game in progress. A plain `Copy` value.
#[derive(Copy, Clone, Debug)]
pub struct OnePackState {
    pub(super) opts: Options,
    pub(super) deck: [Card; DECK_SIZE],
    pub(super) next_draw: u8,
    pub(super) private: [Hand; MAX_PLAYERS],
    pub(super) public: [PublicBlock; MAX_PLAYERS],
    pub(super) visible: [u8; CARD_TYPES],
    pub(super) dead: [u8; CARD_TYPES],
    pub(super) active: Option<Active>,
    pub(super) phase: Phase,
    pub(super) outcome: Option<Outcome>,
    pub(super) turns: u32,
    pub(super) events: CopyVec<Event, MAX_EVENTS>,
    pub(super) history: ClaimHistory,
}

impl OnePackState {
    /// The rule options in force.
    pub fn options(&self) -> &Options {
        &self.opts
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
    /// A seat's private block (hidden information: agents get it only for their own seat).
    pub fn private(&self, seat: Seat) -> Hand {
        self.private[seat as usize]
    }
    /// A seat's public sets.
    pub fn public_sets(&self, seat: Seat) -> &[SetInstance] {
        self.public[seat as usize].as_slice()
    }
    /// Counts of each type in the dead pile.
    pub fn dead(&self) -> &[u8; CARD_TYPES] {
        &self.dead
    }
    /// Counts of each type in every public block and the dead pile.
    pub fn visible(&self) -> &[u8; CARD_TYPES] {
        &self.visible
    }
    /// Cards left in the stock.
    pub fn stock_len(&self) -> usize {
        DECK_SIZE - self.next_draw as usize
    }
    /// Every card in play, counted in every zone: private and public blocks, dead pile, stock
    /// and the active card (cards are conserved: this is the deck size).
    pub fn total_cards(&self) -> usize {
        let seats = 0..self.players() as Seat;
        let private: usize = seats.clone().map(|x| self.private(x).len()).sum();
        let public: usize = seats
            .map(|x| {
                self.public_sets(x)
                    .iter()
                    .map(|s| s.cards().len())
                    .sum::<usize>()
            })
            .sum();
        let dead: usize = self.dead.iter().map(|&c| usize::from(c)).sum();
        private + public + dead + self.stock_len() + usize::from(self.active.is_some())
    }
    /// The shuffled deck the game was dealt from (§1.3 item 4).
    pub fn deck(&self) -> &[Card; DECK_SIZE] {
        &self.deck
    }
    /// Whether the Khap counts are public (§1.4 step 4, classic only): with the classic names of
    /// dealt sets (`dealt_quad = ExposeQuan`, Quan and Khap announced after the deal).
    pub fn khaps_announced(&self) -> bool {
        self.opts.dealt_quad == DealtQuad::ExposeQuan
    }
    /// Number of Khaps (4sac: Pongs in hand) a seat holds: public when
    /// [`Self::khaps_announced`], hidden information otherwise.
    pub fn khaps(&self, seat: Seat) -> u32 {
        let h = self.private[seat as usize];
        h.types().filter(|&c| h.count(c) == 3).count() as u32
    }
    /// What the claim windows so far have shown (for determinization).
    pub fn claim_history(&self) -> &ClaimHistory {
        &self.history
    }

    /// The cards a seat's private block has lost since the deal: its discards and the private
    /// cards of its melds (all public).
    pub fn spent(&self, seat: Seat) -> Hand {
        self.history.spent(seat)
    }
    /// Number of discards a seat has made (public).
    pub fn discards(&self, seat: Seat) -> u32 {
        self.history.discards(seat)
    }
    /// Number of discards made so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub(super) fn next(&self, seat: Seat) -> Seat {
        (seat + 1) % self.opts.players
    }

    /// The claim order of §4.3 for the current active card: its turn player first.
    fn claim_order(&self, a: Active) -> ArrayVec<Seat, MAX_PLAYERS> {
        let n = self.opts.players;
        let (t, len) = match a.source {
            Source::Discard => (self.next(a.owner), n - 1),
            _ => (a.owner, n),
        };
        (0..len).map(|i| (t + i) % n).collect()
    }

    /// Runs `ClaimWindow(A)`: the forced win (C1/F1), the forced Khui and pair claims of classic
    /// (C2, C3) when their options say forced, then the optional claims of F2 seat by seat.
    fn claim_window(&mut self) {
        let a = self.active.expect("a claim window needs an active card");
        let order = self.claim_order(a);
        if let Some(&x) = order.iter().find(|&&x| self.wins_on(x, a)) {
            return self.take_win(x, a);
        }
        if self.opts.khui_rule == ClaimRule::Forced {
            if let Some(&x) = order
                .iter()
                .find(|&&x| self.private[x as usize].count(a.card) == 3)
            {
                self.history.window(a, false);
                let meld = Meld::new(SetKind::Quad, &[a.card; 3]);
                return self.take_active(x, meld, Some(Rule::C2));
            }
        }
        if self.opts.pair_claim_rule == ClaimRule::Forced {
            let skip = usize::from(self.opts.pair_priority_excludes_turn_player);
            if let Some(&x) = order[skip..]
                .iter()
                .find(|&&x| pair_priority_binds(self.private[x as usize], a.card, &self.opts))
            {
                self.history.window(a, false);
                let meld = Meld::new(SetKind::Triple, &[a.card; 2]);
                return self.take_active(x, meld, Some(Rule::C3));
            }
        }
        self.history.window(a, true);
        if self.may_upgrade(a.owner, a) {
            self.history.upgrade_open();
        }
        self.offer_from(a, 1);
    }

    /// F2: asks the first seat of the claim order from position `from` (never `T`, position 0)
    /// that has an optional claim ([`optional_claim`]); when none is left, `TurnOption(T)`. The
    /// history records which seats were looked at and which were asked.
    fn offer_from(&mut self, a: Active, from: usize) {
        let order = self.claim_order(a);
        for &x in order.iter().skip(from) {
            self.history.scanned(x);
            if let Some(meld) = optional_claim(&self.opts, self.private[x as usize], a.card) {
                self.history.asked(x);
                self.events.push(Event::Offer {
                    seat: x,
                    meld,
                    active: a.card,
                });
                self.phase = Phase::Claim(x);
                return;
            }
        }
        self.phase = Phase::TurnOption(order[0]);
    }

    /// The value of a seat's public sets under the point table (§2.5).
    fn public_value(&self, seat: Seat) -> u32 {
        let table = self.opts.point_table;
        self.public_sets(seat)
            .iter()
            .map(|s| value(table, s.kind, s.zone, s.origin, false))
            .sum()
    }

    /// Whether `seat` may upgrade its exposed Pong with the active card (F3): its own draw, the
    /// option on, and an exposed `Triple` of that card.
    fn may_upgrade(&self, seat: Seat, a: Active) -> bool {
        self.opts.exposed_triple_upgrade
            && a.source == Source::OwnDraw
            && a.owner == seat
            && self.exposed_triple(seat, a.card).is_some()
    }

    /// The index of `seat`'s exposed `Triple` of `card`, if any.
    fn exposed_triple(&self, seat: Seat, card: Card) -> Option<usize> {
        self.public_sets(seat)
            .iter()
            .position(|s| s.kind == SetKind::Triple && s.cards()[0] == card)
    }

    /// `CanWin(X, A)` (C1/F1): a winning meld, or (F3) the upgrade on a block at trash 0.
    fn wins_on(&self, x: Seat, a: Active) -> bool {
        let block = self.private[x as usize];
        can_win_with(&self.opts, block, a.card) || self.may_upgrade(x, a) && trash(block) == 0
    }

    /// Takes the forced win of `x` (C1/F1) with the best winning meld of §3.6, the upgrade
    /// counting as a meld worth a Kong in place of the Pong.
    fn take_win(&mut self, x: Seat, a: Active) {
        let b = &self.public[x as usize];
        let quan_or_khui = b.as_slice().iter().any(|s| s.kind == SetKind::Quad);
        let block = self.private[x as usize];
        let public = self.public_value(x);
        let meld = best_winning_meld_with(&self.opts, block, a.card, public, quan_or_khui);
        let upgrade = (self.may_upgrade(x, a) && trash(block) == 0).then(|| {
            let t = self.opts.point_table;
            let kong = value(t, SetKind::Quad, Zone::Public, Origin::Melded, false);
            let pong = value(t, SetKind::Triple, Zone::Public, Origin::Melded, false);
            public + kong - pong + u32::from(trash_and_value(block).1)
        });
        match (meld, upgrade) {
            (Some((_, hv)), Some(u)) if u > hv => self.upgrade(x, Some(Rule::C1)),
            (None, Some(_)) => self.upgrade(x, Some(Rule::C1)),
            (Some((m, _)), _) => self.take_active(x, m, Some(Rule::C1)),
            (None, None) => unreachable!("wins_on implies a winning meld or upgrade"),
        }
    }

    /// F3: adds the active card (the seat's own draw) to its exposed `Triple`, which becomes a
    /// melded `Quad`; then `AfterMeld`.
    fn upgrade(&mut self, x: Seat, rule: Option<Rule>) {
        let a = self.active.take().expect("an upgrade needs an active card");
        let i = self.exposed_triple(x, a.card).expect("an exposed Pong");
        let xi = x as usize;
        let old = self.public[xi];
        self.public[xi].clear();
        for (j, &set) in old.as_slice().iter().enumerate() {
            self.public[xi].push(if j == i {
                SetInstance::new(SetKind::Quad, &[a.card; 4], Zone::Public, Origin::Melded)
            } else {
                set
            });
        }
        self.visible[a.card.index()] += 1;
        self.events.push(Event::Upgrade {
            seat: x,
            card: a.card,
            rule,
        });
        self.after_meld(x, a);
    }

    /// Moves the active card and the meld's private cards into a new public set, then `AfterMeld`.
    fn take_active(&mut self, x: Seat, meld: Meld, rule: Option<Rule>) {
        let a = self.active.take().expect("a meld needs an active card");
        let xi = x as usize;
        self.private[xi] = self.private[xi].without_all(meld.used());
        for &c in meld.used() {
            self.history.spend(x, c, false);
        }
        let mut cards: ArrayVec<Card, 4> = meld.used().iter().copied().collect();
        cards.push(a.card);
        for c in &cards {
            self.visible[c.index()] += 1;
        }
        self.public[xi].push(SetInstance::new(
            meld.kind,
            &cards,
            Zone::Public,
            Origin::Melded,
        ));
        self.events.push(Event::Meld {
            seat: x,
            meld,
            active: a.card,
            rule,
        });
        self.after_meld(x, a);
    }

    /// `AfterMeld(X)`: the win test of §4.7, else `MustDiscard(X)`.
    fn after_meld(&mut self, x: Seat, a: Active) {
        if trash(self.private[x as usize]) == 0 {
            let penalized =
                (self.opts.worst_card_penalty && a.source == Source::Discard && !a.worst)
                    .then_some(a.owner);
            self.finish_win(x, penalized, Rule::C1);
        } else {
            self.phase = Phase::MustDiscard(x);
        }
    }

    /// `DrawStep(T)` (§4.3, §4.7).
    fn draw_step(&mut self, t: Seat, declined: Option<Card>) {
        if self.stock_len() <= self.opts.stock_floor as usize {
            self.finish_drawn();
            return;
        }
        let card = self.deck[self.next_draw as usize];
        self.next_draw += 1;
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

    /// The hand value of a seat (`hv` of §6.1, `WP` of §6.2): its public sets under the point
    /// table plus the best private partition.
    pub fn hand_value(&self, seat: Seat) -> u32 {
        self.public_value(seat) + u32::from(trash_and_value(self.private(seat)).1)
    }

    fn holdings(&self, seat: Seat) -> Holdings {
        let sets = self.public_sets(seat);
        let quads = |origin| {
            sets.iter()
                .filter(|s| s.kind == SetKind::Quad && s.origin == origin)
                .count() as u32
        };
        Holdings {
            quans: quads(Origin::Dealt),
            khuis: quads(Origin::Melded),
            khaps: self.khaps(seat),
        }
    }

    fn finish_win(&mut self, winner: Seat, penalized: Option<Seat>, rule: Rule) {
        let n = self.players();
        let holdings: ArrayVec<Holdings, MAX_PLAYERS> =
            (0..n as Seat).map(|s| self.holdings(s)).collect();
        let w = holdings[winner as usize];
        let win = Win {
            winner,
            hand_value: self.hand_value(winner),
            doubled: w.quans + w.khuis > 0,
            penalized,
        };
        let payouts = match self.opts.payout {
            Payout::KongDeduction => kong_payouts(&self.opts, &win, &holdings),
            _ => classic_payouts(&self.opts, &win, &holdings),
        };
        self.end(Some(winner), rule, payouts, win.hand_value, penalized);
    }

    fn finish_drawn(&mut self) {
        self.end(None, Rule::StockFloor, [0; MAX_SEATS], 0, None);
    }

    fn end(
        &mut self,
        winner: Option<Seat>,
        rule: Rule,
        payouts: [i64; MAX_SEATS],
        hv: u32,
        pen: Option<Seat>,
    ) {
        let reason = match rule {
            Rule::NaturalWin => "natural_win",
            Rule::StockFloor => "stock_floor",
            _ => "win",
        };
        self.outcome = Some(Outcome {
            seats: self.opts.players,
            winner,
            reason,
            payouts,
            hand_value: hv,
            turns: self.turns,
            penalized: pen,
            places: [0; MAX_SEATS],
        });
        self.phase = Phase::Over;
        self.events.push(Event::End { winner, rule });
    }

    fn is_legal(&self, action: Action) -> bool {
        let mut list = ArrayVec::new();
        self.legal_actions(&mut list);
        list.contains(&action)
    }
}

mod play;
