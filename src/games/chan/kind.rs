//! Chắn's entry in the game registry (the capability traits of [`crate::games::kind`]): its facts, options from a `[rules]` map,
//! its `greedy`, its record hooks (deck in §2.4's dealing order, the first player and the
//! previous winner as setup, forced moves with their rule ids and the winner's factors), its
//! analyser and its benchmark figures.

use super::analyze::{analyze, analyze_hand};
use super::card::{format_cards, parse_cards, Card, COPIES};
use super::decompose::decompose;
use super::greedy::{ChanGreedy, GREEDY_INFO};
use super::log::ChanLog;
use super::state::{Chan, ChanState};
use super::types::{Event, Setup, DECK_SIZE};
use super::{Hand, Options};
use crate::agent::features::{FeatureInfo, FeatureRow};
use crate::agent::spec::AgentSpec;
use crate::agent::{Agent, AgentError};
use crate::deal_spec::{DealLayout, DealSpecError, PartialDeals};
use crate::game::Game;
use crate::game::RuleMap;
use crate::games::kind::{
    cards_conserved, check_variant, rules_with_players, Analysis, AnalysisError, AnalyzeOptions,
    Analyzer, BenchRow, CardsError, DealError, DealMeasures, Features, GameCore, GameError,
    GameInfo, RecordSetup, Records, RuleDoc, SoakChecks,
};
use crate::record::RecordEvent;
use crate::rng::{stream_rng, DEAL_STREAM};

/// Reads a deck: the 100 cards (4 of each identity) in §2.4's dealing order. Errors name the
/// card at fault.
pub(super) fn parse_deck(text: &str) -> Result<[Card; DECK_SIZE], DealError> {
    let cards = parse_cards(text).map_err(DealError::Cards)?;
    if cards.len() != DECK_SIZE {
        let h = Hand::of(&cards);
        let missing = Card::all().find(|&c| h.count(c) < COPIES);
        return Err(DealError::Size {
            cards: cards.len(),
            size: DECK_SIZE,
            missing: missing.map(|c| c.to_string()),
        });
    }
    Ok(cards.try_into().expect("100 cards"))
}

/// The setup of a deal from a record's `setup` keys: `first` (default 0) and `prev_winner`
/// (default none).
fn setup_of(map: &RuleMap, players: u8) -> Result<Setup, DealError> {
    let mut setup = Setup::default();
    for (k, v) in map {
        let seat = || crate::games::kind::setup_seat(k, v, players);
        match k.as_str() {
            "first" => setup.first = seat()?,
            "prev_winner" if v.is_null() => setup.prev_winner = None,
            "prev_winner" => setup.prev_winner = Some(seat()?),
            _ => {
                return Err(DealError::UnknownSetup {
                    key: k.clone(),
                    deal: "chan".to_string(),
                    known: None,
                })
            }
        }
    }
    Ok(setup)
}

impl GameCore for Chan {
    const INFO: GameInfo = GameInfo {
        name: "chan",
        title: "Chắn",
        variants: &["standard"],
        planned_variants: &[],
        seats: (2, 5),
        variant_seats: &[],
        payout_unit: "points × stake (§8.4: each loser pays S = points + gà · GA_POINTS)",
        ranks_places: false,
        agents: &[GREEDY_INFO],
    };

    type Log = ChanLog;

    fn build(variant: &str, players: usize, rules: &RuleMap) -> Result<Chan, GameError> {
        check_variant(&Self::INFO, variant)?;
        let all = rules_with_players(rules, players)?;
        Options::from_rules(&all)
            .and_then(Chan::new)
            .map_err(GameError::Rules)
    }

    fn rules(&self) -> RuleMap {
        self.options().to_rules()
    }

    fn rule_docs() -> Vec<RuleDoc> {
        super::options::RULE_DOCS.to_vec()
    }

    fn own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<ChanState>>, AgentError> {
        match spec.name.as_str() {
            "greedy" => Ok(Box::new(ChanGreedy::from_spec(spec)?)),
            other => Err(AgentError::NotForGame {
                name: other.into(),
                game: Self::INFO.name,
            }),
        }
    }
}

impl Records for Chan {
    fn record_setup(start: &ChanState) -> RecordSetup {
        let s = start.setup();
        let mut setup = RuleMap::new();
        setup.insert("first".into(), s.first.into());
        if let Some(w) = s.prev_winner {
            setup.insert("prev_winner".into(), w.into());
        }
        RecordSetup {
            deck: format_cards(start.deck().iter().copied()),
            first: s.first,
            setup,
        }
    }

    fn deal_recorded(&self, deck: &str, setup: &RuleMap) -> Result<ChanState, GameError> {
        let setup = setup_of(setup, self.options().players)?;
        let deck = parse_deck(deck)?;
        Ok(self.deal_deck(&deck, setup))
    }

    fn forced_event(e: &Event) -> Option<RecordEvent> {
        let rule = e.forced_by()?;
        let (seat, action) = match *e {
            Event::ThienKhai { seat, card } => (Some(seat), format!("thien_khai {card}")),
            Event::End {
                winner: Some(w),
                score,
                ..
            } => (Some(w), format!("win {score}")),
            Event::End { winner: None, .. } => (None, "drawn".to_string()),
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

impl PartialDeals for Chan {
    const NAME: &'static str = Self::INFO.name;

    fn deal_layout(&self, first: Option<crate::game::Seat>) -> Result<DealLayout, DealSpecError> {
        Ok(super::deal_spec::layout(self, first))
    }

    fn spec_cards(text: &str) -> Result<Vec<String>, DealSpecError> {
        super::deal_spec::spec_cards(text)
    }

    fn deal_order(&self, order: &[u16], setup: &RuleMap) -> Result<ChanState, DealSpecError> {
        let setup = setup_of(setup, self.options().players)
            .map_err(|e| DealSpecError::Game(e.to_string()))?;
        super::deal_spec::deal_order(self, order, setup)
    }
}

impl Features for Chan {
    const FEATURES: &'static [FeatureInfo] = super::features::FEATURES;

    const GREEDY_WEIGHTS: &'static [crate::agent::greedy::Weight] = super::greedy::WEIGHTS;

    fn features(
        view: &super::ChanView<'_>,
        legal: &[super::types::Action],
        rows: &mut [FeatureRow],
    ) {
        super::features::features(view, legal, rows)
    }
}

impl Analyzer for Chan {
    fn read_position(
        variant: &str,
        text: &str,
        origin: &str,
    ) -> Result<(Chan, crate::games::position::Position<ChanState>), GameError> {
        super::position::read(variant, text, origin)
    }

    fn analyze(hand: &str, opts: &AnalyzeOptions) -> Result<Analysis, GameError> {
        check_variant(&Self::INFO, &opts.variant)?;
        if opts.play.is_some() || opts.against.is_some() {
            return Err(AnalysisError::NoPlays {
                game: Self::INFO.name,
                takes: "a hand (19 or 20 cards) and --seen",
            }
            .into());
        }
        let a = analyze(hand, &opts.seen, &Options::default_for(4))?;
        Ok(Analysis {
            json: a.to_json(),
            text: a.to_text(),
        })
    }

    fn bench_rows(_variant: &str, count: u64) -> Vec<BenchRow> {
        let hands = sample_hands(count);
        let decomposition = BenchRow::over(
            "decompose of a 19-card hand, 1 thread",
            "hands/s",
            &hands,
            10,
            |h| decompose(h).lone_count(),
        );
        let o = Options::default_for(4);
        let analysis = BenchRow::over(
            "hand analysis (analyze), 1 thread",
            "hands/s",
            &hands,
            1,
            |h| analyze_hand(*h, h, &o),
        );
        vec![decomposition, analysis]
    }
}

impl DealMeasures for Chan {
    const DEAL_MEASURES: &'static [crate::games::kind::MeasureInfo] = super::deals::MEASURES;

    fn measure_deal(state: &Self::State, out: &mut [[i32; crate::game::MAX_SEATS]]) {
        super::deals::measure(state, out);
    }
}

impl SoakChecks for Chan {
    fn check_cards(s: &ChanState) -> Result<(), CardsError> {
        let seats: usize = (0..s.players() as crate::game::Seat)
            .map(|x| s.seat(x).concealed.len() + s.seat(x).exposed().len())
            .sum();
        let held = seats + s.dead().len() + s.stock_len() + usize::from(s.live().is_some());
        cards_conserved(held, DECK_SIZE)
    }

    const RULE_SAMPLES: &'static [&'static str] = &[
        r#"{"first_player_after_draw": "Next", "auto_expose_thien_khai": false, "chan_discard_rule": "Strict"}"#,
        r#"{"u_pass_forfeit": true, "chi_includes_passed_draw": true, "thap_thanh_rule": "SumPointsOfColourFactors", "ga_points": 0}"#,
    ];
}

/// 19-card dealt hands from seeded deals.
fn sample_hands(count: u64) -> Vec<Hand> {
    let game = Chan::standard(4).expect("standard");
    (0..count.div_ceil(3))
        .flat_map(|i| {
            let s = game.deal(&mut stream_rng(0xC4A7, i, DEAL_STREAM));
            (1..4).map(move |seat| s.seat(seat).concealed)
        })
        .take(count as usize)
        .collect()
}
