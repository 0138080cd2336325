//! Tiến Lên's entry in the game registry (the capability traits of [`crate::games::kind`]): its facts, options from a `[rules]` map,
//! its `greedy`, its record hooks (deck in §2.3's dealing order, the deal's setup, forced moves
//! and payments), its analyser and its benchmark figures.

use super::analyze::{analyze_hand, analyze_play};
use super::card::{parse_cards, Card, DECK_SIZE};
use super::card_set::Cards;
use super::greedy::{TienLenGreedy, GREEDY_INFO};
use super::log::TienLenLog;
use super::split::{Split, Splitter};
use super::state::{TienLen, TienLenState};
use super::types::cuoc;
use super::types::{Event, Setup};
use super::Options;
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

/// Reads a deck: the 52 cards once each, in §2.3's dealing order. Errors name the card at fault.
pub(super) fn parse_deck(text: &str) -> Result<[Card; DECK_SIZE], DealError> {
    let cards = parse_cards(text).map_err(DealError::Cards)?;
    if cards.len() != DECK_SIZE {
        let given: Cards = cards.iter().copied().collect();
        let missing = Cards::ALL.minus(given).lowest();
        return Err(DealError::Size {
            cards: cards.len(),
            size: DECK_SIZE,
            missing: missing.map(|c| c.to_string()),
        });
    }
    Ok(cards.try_into().expect("52 cards"))
}

/// The setup of a deal from a record's `setup` keys: `dealer` (default 0), `initial` (default
/// true) and, for a normal game, `leader`.
fn setup_of(map: &RuleMap, players: u8) -> Result<Setup, DealError> {
    let mut setup = Setup::FIRST;
    for (k, v) in map {
        let seat = || crate::games::kind::setup_seat(k, v, players);
        match k.as_str() {
            "dealer" => setup.dealer = seat()?,
            "leader" => setup.leader = Some(seat()?),
            "initial" => {
                setup.initial = v.as_bool().ok_or_else(|| DealError::SetupFlag {
                    key: "initial",
                    value: v.clone(),
                })?
            }
            _ => {
                return Err(DealError::UnknownSetup {
                    key: k.clone(),
                    deal: "tienlen".to_string(),
                    known: None,
                })
            }
        }
    }
    Ok(setup)
}

impl GameCore for TienLen {
    const INFO: GameInfo = GameInfo {
        name: "tienlen",
        title: "Tiến Lên",
        variants: &["south"],
        planned_variants: &[],
        seats: (2, 4),
        variant_seats: &[],
        payout_unit: "half-cược (½ of what the last player pays the winner, §7.1)",
        ranks_places: true,
        agents: &[GREEDY_INFO],
    };

    type Log = TienLenLog;

    fn build(variant: &str, players: usize, rules: &RuleMap) -> Result<TienLen, GameError> {
        check_variant(&Self::INFO, variant)?;
        let all = rules_with_players(rules, players)?;
        Options::from_rules(&all)
            .and_then(TienLen::new)
            .map_err(GameError::Rules)
    }

    fn rules(&self) -> RuleMap {
        self.options().to_rules()
    }

    fn rule_docs() -> Vec<RuleDoc> {
        super::options::RULE_DOCS.to_vec()
    }

    fn own_agent(spec: &AgentSpec) -> Result<Box<dyn Agent<TienLenState>>, AgentError> {
        match spec.name.as_str() {
            "greedy" => Ok(Box::new(TienLenGreedy::from_spec(spec)?)),
            other => Err(AgentError::NotForGame {
                name: other.into(),
                game: Self::INFO.name,
            }),
        }
    }
}

impl Records for TienLen {
    fn record_setup(start: &TienLenState) -> RecordSetup {
        let s = start.setup();
        let mut setup = RuleMap::new();
        setup.insert("dealer".into(), s.dealer.into());
        setup.insert("initial".into(), s.initial.into());
        if let Some(l) = s.leader {
            setup.insert("leader".into(), l.into());
        }
        RecordSetup {
            deck: super::format_cards(start.deck().iter().copied()),
            first: start.leader(),
            setup,
        }
    }

    fn deal_recorded(&self, deck: &str, setup: &RuleMap) -> Result<TienLenState, GameError> {
        let setup = setup_of(setup, self.options().players)?;
        let deck = parse_deck(deck)?;
        Ok(self.deal_deck(&deck, setup))
    }

    fn forced_event(e: &Event) -> Option<RecordEvent> {
        let rule = e.forced_by()?;
        let (seat, action) = match *e {
            Event::ToiTrang { seat, .. } => (seat, "toi_trang".to_string()),
            Event::Place { seat, place, .. } => (seat, format!("place {place}")),
            Event::Den { seat } => (seat, "den".to_string()),
            Event::TrickEnd { leader, .. } => (leader, "lead".to_string()),
            Event::VoidChain { victim } => (victim, "void_chain".to_string()),
            Event::Pay(t) => (t.from, format!("pay {} {}", t.to, cuoc(t.amount))),
            Event::End { winner } => (winner, "end".to_string()),
            _ => return None,
        };
        Some(RecordEvent {
            seat: Some(seat),
            action,
            forced: true,
            rule: Some(rule.id().to_string()),
            legal: None,
        })
    }
}

impl PartialDeals for TienLen {
    const NAME: &'static str = Self::INFO.name;

    fn deal_layout(&self, first: Option<crate::game::Seat>) -> Result<DealLayout, DealSpecError> {
        Ok(super::deal_spec::layout(self, first))
    }

    fn spec_cards(text: &str) -> Result<Vec<String>, DealSpecError> {
        super::deal_spec::spec_cards(text)
    }

    fn deal_order(&self, order: &[u16], setup: &RuleMap) -> Result<TienLenState, DealSpecError> {
        let setup = setup_of(setup, self.options().players)
            .map_err(|e| DealSpecError::Game(e.to_string()))?;
        super::deal_spec::deal_order(self, order, setup)
    }
}

impl Features for TienLen {
    const FEATURES: &'static [FeatureInfo] = super::features::FEATURES;

    const GREEDY_WEIGHTS: &'static [crate::agent::greedy::Weight] = super::greedy::WEIGHTS;

    fn features(
        view: &super::TienLenView<'_>,
        legal: &[super::types::Action],
        rows: &mut [FeatureRow],
    ) {
        super::features::features(view, legal, rows)
    }
}

impl Analyzer for TienLen {
    fn analyze(hand: &str, opts: &AnalyzeOptions) -> Result<Analysis, GameError> {
        check_variant(&Self::INFO, &opts.variant)?;
        if !opts.seen.trim().is_empty() {
            return Err(AnalysisError::NoSeen {
                game: Self::INFO.name,
            }
            .into());
        }
        let o = Options::default_for(4);
        let (json, text) = match &opts.play {
            Some(play) => analyze_play(Some(hand), play, opts.against.as_deref(), &o)?,
            None => analyze_hand(hand, &o)?,
        };
        Ok(Analysis { json, text })
    }

    fn read_position(
        variant: &str,
        text: &str,
        origin: &str,
    ) -> Result<(TienLen, crate::games::position::Position<TienLenState>), GameError> {
        super::position::read(variant, text, origin)
    }

    fn bench_rows(_variant: &str, count: u64) -> Vec<BenchRow> {
        let game = TienLen::standard(4).expect("4 players");
        let hands: Vec<Cards> = (0..count.div_ceil(4))
            .flat_map(|i| {
                let s = game.deal(&mut stream_rng(0xBE7C, i, DEAL_STREAM));
                (0..4).map(move |seat| s.hand(seat))
            })
            .take(count as usize)
            .collect();
        let mut splitter = Splitter::default();
        let mut split = Split::new();
        let label = "best split of a 13-card hand, 1 thread";
        vec![BenchRow::over(label, "hands/s", &hands, 1, |&h| {
            splitter.split(h, &mut split);
            split.len()
        })]
    }
}

impl DealMeasures for TienLen {
    const DEAL_MEASURES: &'static [crate::games::kind::MeasureInfo] = super::deals::MEASURES;

    fn measure_deal(state: &Self::State, out: &mut [[i32; crate::game::MAX_SEATS]]) {
        super::deals::measure(state, out);
    }
}

impl SoakChecks for TienLen {
    fn check_cards(s: &TienLenState) -> Result<(), CardsError> {
        let mut all = s.set_aside();
        let mut held = s.set_aside().len() as usize;
        for seat in 0..s.players() as crate::game::Seat {
            all = all.union(s.hand(seat)).union(s.played_by(seat));
            held += (s.hand(seat).len() + s.played_by(seat).len()) as usize;
        }
        if all != Cards::ALL {
            return Err(CardsError::Missing {
                cards: Cards::ALL.minus(all).to_string(),
            });
        }
        cards_conserved(held, DECK_SIZE)
    }

    const RULE_SAMPLES: &'static [&'static str] = &[
        r#"{"ps3_chops_pair_of_twos": true, "quad_chops": "PairOnly", "ps5_powers": false, "oot_chop_min_pairs": "none", "passed_player_may_chop_in_turn": true}"#,
        r#"{"forbid_finish_on_two": true, "cong_den_enabled": false, "toi_trang_dem_heo": true, "initial_game_also_general_list": true, "oot_chop_min_pairs": 5}"#,
    ];
}

/// Tiến Lên deals every card: no chance event after the deal, no value features.
impl crate::games::kind::Luck for TienLen {}
