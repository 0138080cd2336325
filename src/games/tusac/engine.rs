//! The Tứ Sắc engine: one game whose options choose its rule core (§7 `khap_lock`).
//!
//! - The one-pack core ([`OnePack`], `state.rs`): one pack, trash with the Khap lock (§3.1),
//!   2–4 players; `classic` and `4sac`.
//! - The multi-pack core ([`MultiPack`], `packs/`): several packs, loose cards (§3.3), 2–8
//!   players; `sisepai21` and `dirtyking26`.
//!
//! [`TuSac`], [`TuSacState`] and [`TuSacView`] are enums of the two, so the machinery plays every
//! variant through one registry entry. Both cores share the action and event vocabulary of
//! `state.rs`; a state is the core's own `Copy` value, and every call is one `match`.

use super::actions::{Action, ActionList, Event};
use super::onepack::state::{OnePack, OnePackState};
use super::onepack::view::OnePackView;
use super::options::{Core, Options};
use super::packs::{MultiPack, PacksState, PacksView};
use crate::game::{Game, GameState, Outcome, OwnedView, Seat, SeatView};
use crate::games::kind::RuleError;
use crate::rng::GameRng;

/// A Tứ Sắc game of any variant: its validated options, on the core they select.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TuSac {
    /// classic, 4sac and their option sets with the Khap lock.
    OnePack(OnePack),
    /// sisepai21, dirtyking26 and their option sets without the Khap lock.
    MultiPack(MultiPack),
}

impl TuSac {
    /// The game with these options, on the core they select; errors name what the core cannot
    /// honour.
    pub fn new(opts: Options) -> Result<TuSac, RuleError> {
        opts.validate()?;
        match opts.core() {
            Core::OnePack => OnePack::new(opts).map(TuSac::OnePack),
            Core::MultiPack => MultiPack::new(opts).map(TuSac::MultiPack),
        }
    }

    /// The preset `variant` for `players` players.
    pub fn preset(variant: &str, players: u8) -> Result<TuSac, RuleError> {
        TuSac::new(Options::preset(variant, players)?)
    }

    /// The rule options.
    pub fn options(&self) -> &Options {
        match self {
            TuSac::OnePack(g) => g.options(),
            TuSac::MultiPack(g) => g.options(),
        }
    }
}

impl Game for TuSac {
    type State = TuSacState;
    fn name(&self) -> &'static str {
        "tusac"
    }
    fn variant(&self) -> &'static str {
        self.options().variant
    }
    fn seats(&self) -> usize {
        usize::from(self.options().players)
    }
    fn deal(&self, rng: &mut GameRng) -> TuSacState {
        match self {
            TuSac::OnePack(g) => TuSacState::OnePack(g.deal(rng)),
            TuSac::MultiPack(g) => TuSacState::MultiPack(g.deal(rng)),
        }
    }
}

/// A Tứ Sắc game in progress, on its core. A plain `Copy` value.
#[derive(Copy, Clone, Debug)]
#[allow(clippy::large_enum_variant)] // the multi-pack state is larger; neither is boxed (no heap)
pub enum TuSacState {
    /// A one-pack game.
    OnePack(OnePackState),
    /// A multi-pack game.
    MultiPack(PacksState),
}

/// Calls `$body` with `$s` bound to the core's value of `$e`, an enum of the two cores.
macro_rules! each_core {
    ($ty:ident, $e:expr, $s:ident => $body:expr) => {
        match $e {
            $ty::OnePack($s) => $body,
            $ty::MultiPack($s) => $body,
        }
    };
}

impl TuSacState {
    /// The rule options in force.
    pub fn options(&self) -> &Options {
        each_core!(TuSacState, self, s => s.options())
    }
    /// Number of players.
    pub fn players(&self) -> usize {
        each_core!(TuSacState, self, s => s.players())
    }
    /// The one-pack state, if this game is on that core.
    pub fn one_pack(&self) -> Option<&OnePackState> {
        match self {
            TuSacState::OnePack(s) => Some(s),
            TuSacState::MultiPack(_) => None,
        }
    }
    /// The multi-pack state, if this game is on that core.
    pub fn multi_pack(&self) -> Option<&PacksState> {
        match self {
            TuSacState::MultiPack(s) => Some(s),
            TuSacState::OnePack(_) => None,
        }
    }
}

impl GameState for TuSacState {
    type Action = Action;
    type Actions = ActionList;
    type Event = Event;

    fn to_move(&self) -> Option<Seat> {
        each_core!(TuSacState, self, s => s.to_move())
    }
    fn legal_actions(&self, out: &mut ActionList) {
        each_core!(TuSacState, self, s => s.legal_actions(out))
    }
    fn apply(&mut self, action: Action) {
        each_core!(TuSacState, self, s => s.apply(action))
    }
    fn last_events(&self) -> &[Event] {
        each_core!(TuSacState, self, s => s.last_events())
    }
    fn outcome(&self) -> Option<Outcome> {
        each_core!(TuSacState, self, s => s.outcome())
    }
    fn payout_scale(&self) -> f64 {
        each_core!(TuSacState, self, s => s.payout_scale())
    }
    fn seats(&self) -> usize {
        self.players()
    }

    type View<'a> = TuSacView<'a>;
    fn view(&self, seat: Seat) -> TuSacView<'_> {
        match self {
            TuSacState::OnePack(s) => TuSacView::OnePack(s.view(seat)),
            TuSacState::MultiPack(s) => TuSacView::MultiPack(s.view(seat)),
        }
    }
}

/// A seat's view of a Tứ Sắc state, on its core (§1.5: own cards and public information only).
#[derive(Copy, Clone)]
pub enum TuSacView<'a> {
    /// The view of a one-pack game.
    OnePack(OnePackView<'a>),
    /// The view of a multi-pack game.
    MultiPack(PacksView<'a>),
}

impl SeatView for TuSacView<'_> {
    type State = TuSacState;
    fn seat(&self) -> Seat {
        each_core!(TuSacView, self, v => v.seat())
    }
    fn owned(&self) -> OwnedView<TuSacState> {
        match self {
            TuSacView::OnePack(v) => OwnedView::new(TuSacState::OnePack(v.copy_state()), v.seat()),
            TuSacView::MultiPack(v) => {
                OwnedView::new(TuSacState::MultiPack(v.copy_state()), v.seat())
            }
        }
    }
    fn determinize(&self, rng: &mut GameRng) -> TuSacState {
        match self {
            TuSacView::OnePack(v) => TuSacState::OnePack(v.determinize(rng)),
            TuSacView::MultiPack(v) => TuSacState::MultiPack(v.determinize(rng)),
        }
    }
    fn determinize_inferred(&self, rng: &mut GameRng) -> TuSacState {
        match self {
            TuSacView::OnePack(v) => TuSacState::OnePack(v.determinize(rng)),
            TuSacView::MultiPack(v) => TuSacState::MultiPack(v.determinize_inferred(rng)),
        }
    }
}

impl From<OnePackState> for TuSacState {
    fn from(s: OnePackState) -> TuSacState {
        TuSacState::OnePack(s)
    }
}

impl From<PacksState> for TuSacState {
    fn from(s: PacksState) -> TuSacState {
        TuSacState::MultiPack(s)
    }
}

impl From<OnePack> for TuSac {
    fn from(g: OnePack) -> TuSac {
        TuSac::OnePack(g)
    }
}

impl From<MultiPack> for TuSac {
    fn from(g: MultiPack) -> TuSac {
        TuSac::MultiPack(g)
    }
}
