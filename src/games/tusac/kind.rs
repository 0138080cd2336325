//! Tứ Sắc's entry in the game registry (the capability traits of [`crate::games::kind`]): its facts, options from a `[rules]` map,
//! its own agents, its record hooks, its analyser and its benchmark figures.

use super::actions::{Action, Event};
use super::engine::{TuSac, TuSacState, TuSacView};
use super::greedy::{TuSacGreedy, GREEDY_INFO};
use super::hand::Hand;
use super::log::TuSacLog;
use super::onepack::analyze::{analyze, analyze_hand};
use super::onepack::state::OnePack;
use super::onepack::trash::trash;
use super::options::Core;
use super::options::Options;
use crate::agent::features::{FeatureInfo, FeatureRow};
use crate::agent::spec::AgentSpec;
use crate::agent::{Agent, AgentError};
use crate::deal_spec::{DealLayout, DealSpecError, PartialDeals};
use crate::game::Game;
use crate::game::RuleMap;
use crate::games::kind::{
    cards_conserved, Analysis, AnalysisError, AnalyzeOptions, Analyzer, BenchRow, CardsError,
    DealMeasures, Features, GameCore, GameError, GameInfo, RecordSetup, Records, RuleDoc,
    SoakChecks,
};
use crate::record::RecordEvent;
use crate::rng::{stream_rng, DEAL_STREAM};

impl GameCore for TuSac {
    const INFO: GameInfo = GameInfo {
        name: "tusac",
        title: "Tứ Sắc",
        variants: &["classic", "4sac", "sisepai21", "dirtyking26"],
        planned_variants: &[],
        seats: (2, 8),
        variant_seats: &[("classic", 2, 4), ("4sac", 2, 4)],
        payout_unit: "points (§6.1–6.4)",
        ranks_places: false,
        agents: &[GREEDY_INFO],
    };

    type Log = TuSacLog;

    fn build(variant: &str, players: usize, rules: &RuleMap) -> Result<TuSac, GameError> {
        crate::games::kind::check_variant(&Self::INFO, variant)?;
        let all = crate::games::kind::rules_with_players(rules, players)?;
        Options::from_rules(variant, &all)
            .and_then(TuSac::new)
            .map_err(GameError::Rules)
    }

    fn rules(&self) -> RuleMap {
        self.options().to_rules()
    }

    /// Checked against the rule cores (§7) without dealing.
    fn rules_in_force(
        variant: &str,
        players: usize,
        rules: &RuleMap,
    ) -> Result<RuleMap, GameError> {
        let all = crate::games::kind::rules_with_players(rules, players)?;
        Ok(Options::from_rules(variant, &all)
            .map_err(GameError::Rules)?
            .to_rules())
    }

    fn rule_docs() -> Vec<RuleDoc> {
        super::options::rule_docs()
    }

    fn own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<TuSacState>>, AgentError> {
        match spec.name.as_str() {
            "greedy" => Ok(Box::new(TuSacGreedy::from_spec(spec)?)),
            other => Err(AgentError::NotForGame {
                name: other.into(),
                game: Self::INFO.name,
            }),
        }
    }
}

impl Records for TuSac {
    fn record_setup(start: &TuSacState) -> RecordSetup {
        super::record::setup(start)
    }

    fn deal_recorded(&self, deck: &str, setup: &RuleMap) -> Result<TuSacState, GameError> {
        Ok(super::record::deal(self, deck, setup)?)
    }

    fn forced_event(e: &Event) -> Option<RecordEvent> {
        let rule = e.forced_by()?;
        let (seat, action) = match *e {
            Event::Quan { seat, card } => (Some(seat), format!("quan {card}")),
            Event::DealtKong { seat, card } => (Some(seat), format!("kong {card}")),
            Event::Meld { seat, meld, .. } => (Some(seat), format!("meld {meld}")),
            Event::Upgrade { seat, .. } => (Some(seat), "upgrade".to_string()),
            Event::End {
                winner: Some(w), ..
            } => (Some(w), "win".to_string()),
            Event::End { winner: None, .. } => (None, "drawn".to_string()),
            Event::Redealt { times } => (None, format!("redeal {times}")),
            Event::DoubleRank { card } => (None, format!("double {card}")),
            Event::FaceDown { seat } => (Some(seat), "face_down".to_string()),
            Event::Reshuffle { cards } => (None, format!("reshuffle {cards}")),
            Event::NoDiscard { seat } => (Some(seat), "no_discard".to_string()),
            Event::DeclinedDraw { seat, card } => (Some(seat), format!("discard_drawn {card}")),
            _ => return None,
        };
        Some(RecordEvent {
            seat,
            action,
            forced: true,
            rule: Some(rule.id().to_string()),
            legal: None,
        })
    }
}

impl PartialDeals for TuSac {
    const NAME: &'static str = Self::INFO.name;

    fn deal_layout(&self, first: Option<crate::game::Seat>) -> Result<DealLayout, DealSpecError> {
        super::deal_spec::layout(self, first)
    }

    fn spec_cards(text: &str) -> Result<Vec<String>, DealSpecError> {
        super::deal_spec::spec_cards(text)
    }

    fn deal_order(&self, order: &[u16], setup: &RuleMap) -> Result<TuSacState, DealSpecError> {
        super::deal_spec::deal_order(self, order, setup)
    }

    fn redeal_seat(&self, order: &[u16]) -> Option<crate::game::Seat> {
        super::deal_spec::redeal_seat(self, order)
    }

    fn check_plan(&self, plan: &crate::deal_spec::DealPlan) -> Result<(), DealSpecError> {
        super::deal_spec::check_plan(self, plan)
    }
}

impl Features for TuSac {
    const FEATURES: &'static [FeatureInfo] = super::features::FEATURES;

    const GREEDY_WEIGHTS: &'static [crate::agent::greedy::Weight] = super::greedy::WEIGHTS;

    fn features(view: &TuSacView<'_>, legal: &[Action], rows: &mut [FeatureRow]) {
        match view {
            TuSacView::OnePack(v) => super::onepack::features::features(v, legal, rows),
            TuSacView::MultiPack(v) => super::packs::features::features(v, legal, rows),
        }
    }
}

impl Analyzer for TuSac {
    fn analyze(hand: &str, opts: &AnalyzeOptions) -> Result<Analysis, GameError> {
        crate::games::kind::check_variant(&Self::INFO, &opts.variant)?;
        if opts.play.is_some() || opts.against.is_some() {
            return Err(AnalysisError::NoPlays {
                game: Self::INFO.name,
                takes: "a hand and --seen",
            }
            .into());
        }
        let (json, text) = match Options::preset(&opts.variant, 4)
            .map_err(GameError::Rules)?
            .core()
        {
            Core::OnePack => {
                let a = analyze(hand, &opts.seen)?;
                (a.to_json(), a.to_text())
            }
            Core::MultiPack => {
                let a = super::packs::analyze::analyze(&opts.variant, hand, &opts.seen)?;
                (a.to_json(), a.to_text())
            }
        };
        Ok(Analysis { json, text })
    }

    fn read_position(
        variant: &str,
        text: &str,
        origin: &str,
    ) -> Result<(TuSac, crate::games::position::Position<TuSacState>), GameError> {
        super::onepack::position::read(variant, text, origin)
    }

    fn bench_rows(variant: &str, count: u64) -> Vec<BenchRow> {
        match TuSac::preset(variant, 4) {
            Ok(TuSac::MultiPack(game)) => multi_pack_bench_rows(&game, count),
            _ => one_pack_bench_rows(count),
        }
    }
}

impl DealMeasures for TuSac {
    const DEAL_MEASURES: &'static [crate::games::kind::MeasureInfo] = super::deals::MEASURES;

    fn measure_deal(state: &Self::State, out: &mut [[i32; crate::game::MAX_SEATS]]) {
        match state {
            TuSacState::OnePack(s) => super::onepack::deals::measure(s, out),
            TuSacState::MultiPack(s) => super::packs::deals::measure(s, out),
        }
    }
}

impl SoakChecks for TuSac {
    fn check_cards(state: &TuSacState) -> Result<(), CardsError> {
        let (held, dealt) = match state {
            TuSacState::OnePack(s) => (s.total_cards(), super::onepack::deck::DECK_SIZE),
            TuSacState::MultiPack(s) => (s.total_cards(), s.deck().len()),
        };
        cards_conserved(held, dealt)
    }

    const RULE_SAMPLES: &'static [&'static str] = &[
        // The one-pack core (classic, 4sac).
        r#"{"khui_rule": "Optional", "pair_claim_rule": "Optional", "pair_waiting_exception": false, "passed_draw": "ChowPawnsOrPair", "discard_rule": "AnyNonKing", "natural_win_for_first": false}"#,
        r#"{"drawn_king": "WinKongThenDrawer", "exposed_triple_upgrade": true, "payout": "KongDeduction", "worst_card_penalty": false}"#,
        // The multi-pack core (sisepai21, dirtyking26).
        r#"{"khui_rule": "Optional", "pair_claim_rule": "Optional", "passed_draw": "DrawerDiscards", "discard_rule": "AnyNonKing"}"#,
        r#"{"redeal_dead_hands": true, "dealt_quad": "FaceDownLocked", "reshuffles": 1, "win_test": "CompleteOver9", "pair_meld_min_points": 3}"#,
        r#"{"reshuffles": 0, "stock_floor": 3, "worst_card_penalty": false}"#,
    ];
}

/// The one-pack figures: trash of a 20-card block and the hand analyser.
fn one_pack_bench_rows(count: u64) -> Vec<BenchRow> {
    let hands = sample_hands(count);
    let trash_rate = BenchRow::over(
        "trash of a 20-card block, 1 thread",
        "blocks/s",
        &hands,
        10,
        |&h| trash(h),
    );
    let analysis = BenchRow::over(
        "hand analysis (analyze), 1 thread",
        "hands/s",
        &hands,
        1,
        |&h| analyze_hand(h),
    );
    vec![trash_rate, analysis]
}

/// The multi-pack figure: loose cards and points (`loose::best`, §3.3, §3.6) of dealt hands.
fn multi_pack_bench_rows(game: &super::packs::MultiPack, count: u64) -> Vec<BenchRow> {
    let seats = u64::from(game.options().players);
    let mut rules = None;
    let hands: Vec<_> = (0..count.div_ceil(seats))
        .flat_map(|i| {
            let s = game.deal(&mut stream_rng(0xBE7C, i, DEAL_STREAM));
            rules.get_or_insert(*s.set_rules());
            (0..seats).map(move |seat| *s.hand(seat as u8))
        })
        .take(count as usize)
        .collect();
    let rules = rules.expect("a deal");
    let label = format!(
        "loose cards and points of a dealt {}-card hand, 1 thread",
        game.options().hand_size
    );
    vec![BenchRow::over(&label, "hands/s", &hands, 1, |h| {
        super::packs::loose::best(h, &rules)
    })]
}

/// 20-card private blocks from seeded deals (Quans removed by the deal).
fn sample_hands(count: u64) -> Vec<Hand> {
    let game = OnePack::classic(4).expect("classic");
    (0..count.div_ceil(3))
        .flat_map(|i| {
            let s = game.deal(&mut stream_rng(0xBE7C, i, DEAL_STREAM));
            (1..4).map(move |seat| s.private(seat))
        })
        .take(count as usize)
        .collect()
}
