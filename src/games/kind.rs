//! What the machinery needs of a game beyond the contracts of [`crate::game`]: the
//! [`GameKind`] trait and the types it speaks in (its facts, rule options, record setup,
//! analyser, readable log, benchmark rows and deal measures), with the checks of a variant and
//! a player count against a game's facts.
//!
//! The registry that lists the games is [`crate::games`]; this file names no game.

use crate::agent::features::{FeatureInfo, FeatureRow};
use crate::agent::spec::AgentSpec;
use crate::agent::AgentInfo;
use crate::agent::{Agent, AgentError};
use crate::deal_spec::{DealLayout, DealPlan, PartialDeals};
use crate::game::{Game, GameState, RuleMap, Seat};
use crate::games::observe::Observe;
use crate::games::position::Position;
use crate::record::RecordEvent;

/// What a game tells the machinery about itself.
#[derive(Copy, Clone, Debug)]
pub struct GameInfo {
    /// The name in `--game` and in experiment files (`tusac`).
    pub name: &'static str,
    /// The readable name (`Tứ Sắc`).
    pub title: &'static str,
    /// The variants implemented; the first is the default.
    pub variants: &'static [&'static str],
    /// Variants the spec defines that are not implemented yet.
    pub planned_variants: &'static [&'static str],
    /// The fewest and the most seats (over every variant).
    pub seats: (usize, usize),
    /// Variants that seat fewer than [`GameInfo::seats`]: `(variant, fewest, most)`.
    pub variant_seats: &'static [(&'static str, usize, usize)],
    /// What one unit of payout is (printed beside payouts).
    pub payout_unit: &'static str,
    /// Whether outcomes rank every seat (`Outcome::places`), so `games.csv` has place columns.
    pub ranks_places: bool,
    /// The agents this game adds to the common ones (`random`, `first`, `ismcts`).
    pub agents: &'static [AgentInfo],
}

/// A rule option's explanation for `bailab rules`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RuleDoc {
    /// The option's name (a key of [`GameKind::rules`]).
    pub name: &'static str,
    /// The spec section that defines it (`§4.7`).
    pub section: &'static str,
    /// What it means, in one line.
    pub doc: &'static str,
}

/// A game's deal as a record stores it: enough to deal the same game again.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordSetup {
    /// The shuffled deck in the spec's dealing order.
    pub deck: String,
    /// The seat that acts first.
    pub first: Seat,
    /// Facts of the deal beyond the deck and the first seat (e.g. the dealer), by name.
    pub setup: RuleMap,
}

/// What the hand analyser is asked, beside the hand itself.
#[derive(Clone, Debug, Default)]
pub struct AnalyzeOptions {
    /// The variant.
    pub variant: String,
    /// Cards visible elsewhere (for games whose analysis counts unseen cards).
    pub seen: String,
    /// A play to classify (games with plays).
    pub play: Option<String>,
    /// A play on the table to compare `play` with.
    pub against: Option<String>,
}

/// The analyser's answer: JSON and the readable report.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The JSON object.
    pub json: serde_json::Value,
    /// The readable report.
    pub text: String,
}

/// A readable log of one game, built as it is played (`bailab play`, golden playthroughs).
pub trait GameLog<S> {
    /// Starts the log with a title line and the deal (the state right after it).
    fn new(title: &str, start: &S) -> Self;
    /// Adds a decision (its seat, how many legal actions it had and the action's text) and the
    /// events it led to.
    fn decision(&mut self, seat: Seat, legal: usize, action: &str, after: &S);
    /// Closes the log with the final state and the outcome.
    fn finish(self, end: &S) -> String;
}

/// A benchmark figure a game adds to `bailab bench`.
#[derive(Clone, Debug)]
pub struct BenchRow {
    /// What was measured.
    pub label: String,
    /// The rate.
    pub value: f64,
    /// Its unit (`hands/s`).
    pub unit: &'static str,
}

impl BenchRow {
    /// Times `body`, which processes `count` items once, as a row of `count / seconds`.
    pub fn time(label: &str, unit: &'static str, count: u64, body: impl FnOnce()) -> BenchRow {
        let start = std::time::Instant::now();
        body();
        BenchRow {
            label: label.to_string(),
            value: count as f64 / start.elapsed().as_secs_f64(),
            unit,
        }
    }

    /// Times `rounds` passes of `f` over `items` (each argument and result passed through
    /// `black_box`), as a row of items per second.
    pub fn over<T, R>(
        label: &str,
        unit: &'static str,
        items: &[T],
        rounds: u64,
        mut f: impl FnMut(&T) -> R,
    ) -> BenchRow {
        BenchRow::time(label, unit, rounds * items.len() as u64, || {
            for _ in 0..rounds {
                for item in items {
                    std::hint::black_box(f(std::hint::black_box(item)));
                }
            }
        })
    }
}

/// What the machinery needs of a game beyond the contracts of [`crate::game`].
pub trait GameKind: Game + Observe + Clone + 'static {
    /// The game's facts.
    const INFO: GameInfo;
    /// The readable log of this game.
    type Log: GameLog<Self::State>;

    /// Builds the game from a variant, a number of players and rule options (any option not
    /// given keeps the variant's value). Errors name the option and the problem.
    fn build(variant: &str, players: usize, rules: &RuleMap) -> Result<Self, String>;
    /// Every rule option in force, `name → value` (records; `from` [`GameKind::build`]).
    fn rules(&self) -> RuleMap;
    /// The rule options in force for `variant` (implemented or only planned), `players` and
    /// `rules`, for `bailab rules`. By default those of the built game, so a planned variant is
    /// an error unless the game can check its options without playing it.
    fn rules_in_force(variant: &str, players: usize, rules: &RuleMap) -> Result<RuleMap, String> {
        Ok(Self::build(variant, players, rules)?.rules())
    }
    /// What each rule option means and where the spec defines it (`bailab rules`); none by
    /// default.
    fn rule_docs() -> Vec<RuleDoc> {
        Vec::new()
    }
    /// Builds one of the game's own agents (named in `INFO.agents`) from its spec.
    fn own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<Self::State>>, AgentError>;

    /// How a dealt game is recorded: its deck, first seat and setup.
    fn record_setup(start: &Self::State) -> RecordSetup;
    /// Deals the game of a record (or a deck given by a user) from its deck text and setup;
    /// setup facts not given take their default. Errors name the card or key at fault.
    fn deal_recorded(&self, deck: &str, setup: &RuleMap) -> Result<Self::State, String>;
    /// The record event of a move the engine applied by a rule, if `event` is one.
    fn forced_event(event: &<Self::State as GameState>::Event) -> Option<RecordEvent>;

    /// Partial deals (`docs/deals-spec.md`): the deck positions of each seat's hand and of the
    /// stock when seat `first` is dealt first (`None`: the game's default), with the pack and
    /// the record setup of such a deal. Errors name what the game cannot do (e.g. a `first`
    /// that is a rule option).
    fn deal_layout(&self, first: Option<Seat>) -> Result<DealLayout, String> {
        let _ = first;
        Err(format!(
            "partial deals are not implemented for {}",
            Self::INFO.name
        ))
    }
    /// Partial deals: a list of cards in the game's notation, each written as the game writes
    /// it (errors name the card).
    fn spec_cards(text: &str) -> Result<Vec<String>, String> {
        let _ = text;
        Err(format!(
            "partial deals are not implemented for {}",
            Self::INFO.name
        ))
    }
    /// Partial deals: deals the pack of [`GameKind::deal_layout`] reordered, `deck[i] =
    /// pack[order[i]]`, with the layout's `setup`. Allocation-free.
    fn deal_order(&self, order: &[u16], setup: &RuleMap) -> Result<Self::State, String> {
        let _ = (order, setup);
        Err(format!(
            "partial deals are not implemented for {}",
            Self::INFO.name
        ))
    }

    /// Partial deals: the first seat whose hand in the deal `deck[i] = pack[order[i]]` makes the
    /// rules redeal (Tứ Sắc's §1.4 step 1), if any; [`crate::deal_spec::deal_with_spec`] then
    /// draws the free cards again. None by default (the game never redeals). Allocation-free.
    fn redeal_seat(&self, order: &[u16]) -> Option<Seat> {
        let _ = order;
        None
    }
    /// Partial deals: refuses a checked plan whose fixed cards make the rules redeal every deal
    /// (a hand that no draw of its free cards can save), naming the seat. Accepts by default.
    fn check_plan(&self, plan: &DealPlan) -> Result<(), String> {
        let _ = plan;
        Ok(())
    }

    /// The features of a candidate action that rule lists read (`rules:PATH`), in row order;
    /// at most [`MAX_FEATURES`](crate::agent::features::MAX_FEATURES) − 1.
    const FEATURES: &'static [FeatureInfo];
    /// Writes the features of each legal action of the seat whose view this is into `rows`
    /// (`rows.len() == legal.len()`, in the order of [`GameKind::FEATURES`]; other slots are
    /// left as they are). Reads the view only, and never allocates.
    fn features(
        view: &<Self::State as GameState>::View<'_>,
        legal: &[<Self::State as GameState>::Action],
        rows: &mut [FeatureRow],
    );

    /// Analyses a hand (or, with `opts.play`, a play) given in the game's notation.
    fn analyze(hand: &str, opts: &AnalyzeOptions) -> Result<Analysis, String>;
    /// Reads a position file (TOML `text` from `origin`, docs/equity.md): the game it is played
    /// in (variant `variant`, the file's players) and one seat's view as a [`Position`].
    /// Errors name the key, card or seat at fault. Games without position files keep this
    /// default, which says so.
    fn read_position(
        variant: &str,
        text: &str,
        origin: &str,
    ) -> Result<(Self, Position<Self::State>), String> {
        let _ = (variant, text, origin);
        Err(format!("{} has no position files yet", Self::INFO.name))
    }
    /// Extra figures for `bailab bench` of `variant` (e.g. hand evaluations per second),
    /// measured on `count` samples.
    fn bench_rows(variant: &str, count: u64) -> Vec<BenchRow> {
        let _ = (variant, count);
        Vec::new()
    }

    /// The tunable weights of the game's `greedy` (`bailab tune`; none by default).
    const GREEDY_WEIGHTS: &'static [crate::agent::greedy::Weight] = &[];
    /// What `bailab deals` measures on a dealt game (`docs/deals.md`); none by default.
    const DEAL_MEASURES: &'static [MeasureInfo] = &[];
    /// Writes the measures of a freshly dealt game into `out`, one row per entry of
    /// [`GameKind::DEAL_MEASURES`]: a per-hand measure fills slots `0..seats` (one per seat), a
    /// per-deal measure slot 0; a slot left at [`NOT_MEASURED`] is not counted (a measure that
    /// does not apply to that hand), a row left at [`NOT_APPLICABLE`] marks a measure the
    /// variant never takes. Never allocates.
    fn measure_deal(state: &Self::State, out: &mut [[i32; crate::game::MAX_SEATS]]) {
        let _ = (state, out);
    }

    /// Checks that every card of the deal is in exactly one place of `state` (the soak and the
    /// fuzz targets call it after every step); the error says what is missing or doubled.
    /// Never allocates when the cards are all there.
    fn check_cards(state: &Self::State) -> Result<(), String>;
    /// Rule options beyond the variants' own that `bailab soak` and the fuzz targets play, each
    /// a JSON object of `[rules]` keys; a table plays those its variant and seat count accept,
    /// and a test checks that each is accepted somewhere. None by default.
    const RULE_SAMPLES: &'static [&'static str] = &[];
}

impl<G: GameKind> PartialDeals for G {
    type Dealt = G::State;
    const NAME: &'static str = G::INFO.name;
    fn table(&self) -> usize {
        self.seats()
    }
    fn layout(&self, first: Option<Seat>) -> Result<DealLayout, String> {
        self.deal_layout(first)
    }
    fn cards(text: &str) -> Result<Vec<String>, String> {
        G::spec_cards(text)
    }
    fn deal_ordered(&self, order: &[u16], setup: &RuleMap) -> Result<G::State, String> {
        self.deal_order(order, setup)
    }
    fn redeal(&self, order: &[u16]) -> Option<Seat> {
        self.redeal_seat(order)
    }
    fn plan_ok(&self, plan: &DealPlan) -> Result<(), String> {
        self.check_plan(plan)
    }
}

/// Whether a deal measure is taken once per hand (seat) or once per deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Per {
    /// One value per seat.
    Hand,
    /// One value per deal.
    Deal,
}

impl Per {
    /// `hand` or `deal`, as in `distributions.csv`.
    pub const fn name(self) -> &'static str {
        match self {
            Per::Hand => "hand",
            Per::Deal => "deal",
        }
    }
}

/// A quantity `bailab deals` counts: an integer in `0..=max` per hand or per deal.
#[derive(Copy, Clone, Debug)]
pub struct MeasureInfo {
    /// The name in the CSV files (`trash`).
    pub name: &'static str,
    /// Per hand or per deal.
    pub per: Per,
    /// The largest value it can take (the counter keeps `max + 1` counts).
    pub max: u16,
    /// What it is, with the spec section.
    pub doc: &'static str,
}

impl MeasureInfo {
    /// A measure of each hand.
    pub const fn hand(name: &'static str, max: u16, doc: &'static str) -> MeasureInfo {
        MeasureInfo {
            name,
            per: Per::Hand,
            max,
            doc,
        }
    }

    /// A measure of the whole deal.
    pub const fn deal(name: &'static str, max: u16, doc: &'static str) -> MeasureInfo {
        MeasureInfo {
            name,
            per: Per::Deal,
            max,
            doc,
        }
    }
}

/// A measure slot that holds no value (the measure does not apply there).
pub const NOT_MEASURED: i32 = -1;

/// A measure row that does not apply to this game's variant at all (a one-pack Tứ Sắc measure
/// in a multi-pack deal, or the reverse): a measure left at it in every slot of every deal is
/// left out of `bailab deals`' files, so appending a variant's measures leaves the others'
/// files as they were.
pub const NOT_APPLICABLE: i32 = -2;

/// Checks a variant name against a game's implemented variants.
pub fn check_variant(info: &GameInfo, variant: &str) -> Result<(), String> {
    if info.variants.contains(&variant) {
        return Ok(());
    }
    if info.planned_variants.contains(&variant) {
        return Err(format!(
            "variant '{variant}' of {} is specified but not implemented yet (known: {})",
            info.name,
            info.variants.join(", ")
        ));
    }
    Err(format!(
        "unknown variant '{variant}' of {} (known: {})",
        info.name,
        info.variants.join(", ")
    ))
}

/// `rules` with `players` set to the table's seat count: a `players` key that disagrees with
/// the seats is an error.
pub fn rules_with_players(rules: &RuleMap, players: usize) -> Result<RuleMap, String> {
    let mut all = rules.clone();
    match rules.get("players") {
        Some(p) if p.as_u64() != Some(players as u64) => {
            return Err(format!(
                "rules: 'players' = {p}, but the table seats {players}"
            ))
        }
        _ => all.insert("players".into(), players.into()),
    };
    Ok(all)
}

/// The seat a record's `setup` key `key` names (`value`), at a table of `players`.
pub fn setup_seat(key: &str, value: &serde_json::Value, players: u8) -> Result<Seat, String> {
    value
        .as_u64()
        .filter(|&s| s < u64::from(players))
        .map(|s| s as Seat)
        .ok_or_else(|| format!("setup: '{key}' = {value} is not a seat of {players}"))
}

impl GameInfo {
    /// The fewest and the most seats of `variant`.
    pub fn seats_of(&self, variant: &str) -> (usize, usize) {
        self.variant_seats
            .iter()
            .find(|(v, ..)| *v == variant)
            .map_or(self.seats, |&(_, lo, hi)| (lo, hi))
    }
}

/// [`GameKind::check_cards`]'s verdict on `held` cards in play out of `dealt`.
pub fn cards_conserved(held: usize, dealt: usize) -> Result<(), String> {
    if held == dealt {
        Ok(())
    } else {
        Err(format!("{held} cards in play, but {dealt} were dealt"))
    }
}

/// Checks a number of players against a game's seats.
pub fn check_players(info: &GameInfo, players: usize) -> Result<(), String> {
    let (lo, hi) = info.seats;
    if (lo..=hi).contains(&players) {
        return Ok(());
    }
    Err(format!(
        "{players} player{}: {} seats {lo} to {hi}",
        if players == 1 { "" } else { "s" },
        info.name
    ))
}
