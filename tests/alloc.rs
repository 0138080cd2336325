//! The hot loop does not allocate (ARCHITECTURE.md contract 5): a counting global allocator
//! sees zero heap allocations while 10,000 greedy (default and other weights) and 10,000 random
//! games of every game are played after setup (agents built, nothing else), while rule-list
//! agents play, while ISMCTS
//! agents search, and while every game's rule-list features are computed at every decision
//! (forced ones too) from a fresh thread's very first call; the multi-pack variants (sisepai21,
//! dirtyking26) at 4 and 8 players through the registry's `TuSac` too.

use bailab::agent::features::{FeatureRow, MAX_FEATURES};
use bailab::agent::Agent;
use bailab::game::GameId;
use bailab::game::RuleMap;
use bailab::game::{ActionBuffer, GameState};
use bailab::games::chan::Chan;
use bailab::games::kind::GameKind;
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::games::{with_game, GameVisitor, GAMES};
use bailab::generic_agents::catalogue::make_agent;
use bailab::generic_agents::rules::list::{Cond, Op, Rule, RuleList, Test};
use bailab::generic_agents::rules::{feature_names, RulesAgent};
use bailab::rng::GameRng;
use bailab::sim::play_game;
use std::sync::Arc;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

fn games_allocate<G: GameKind>(spec: &str, games: u64) -> u64 {
    let agents: Vec<_> = (0..4).map(|_| make_agent::<G>(spec).unwrap()).collect();
    agents_allocate::<G>(agents, games)
}

/// A rule list testing every feature of game `G`: `avoid` it when positive, then its lowest.
fn every_feature_list<G: GameKind>() -> Arc<RuleList> {
    let features = feature_names::<G>();
    let mut rules = Vec::new();
    for f in 0..features.len() as u8 {
        let test = Test {
            feature: f,
            op: Op::Gt,
            value: 0,
        };
        rules.push(Rule::Avoid(Cond([test].into_iter().collect())));
        rules.push(Rule::Lowest(f));
    }
    let (game, variant) = (G::INFO.name.into(), G::INFO.variants[0].into());
    Arc::new(RuleList {
        game,
        variant,
        rules,
        features,
    })
}

fn rules_games_allocate<G: GameKind>(games: u64) -> u64 {
    let list = every_feature_list::<G>();
    let agents: Vec<Box<dyn Agent<G::State>>> = (0..4)
        .map(|_| Box::new(RulesAgent::<G>::new(Arc::clone(&list))) as Box<dyn Agent<G::State>>)
        .collect();
    agents_allocate::<G>(agents, games)
}

/// Computes game `G`'s features at every decision, forced ones included (a rule-list agent
/// skips those), then plays as `inner`.
struct FeaturesEveryDecision<G: GameKind> {
    inner: Box<dyn Agent<G::State>>,
    rows: Vec<FeatureRow>,
}

impl<G: GameKind> Agent<G::State> for FeaturesEveryDecision<G> {
    fn act(
        &mut self,
        view: &<G::State as GameState>::View<'_>,
        legal: &[<G::State as GameState>::Action],
        rng: &mut GameRng,
    ) -> usize {
        G::features(view, legal, &mut self.rows[..legal.len()]);
        self.inner.act(view, legal, rng)
    }
}

/// The allocations of `games` games of `spec` agents that compute `G`'s features at every
/// decision, counted on a thread of their own from before its first call of the features:
/// state they keep per thread (Tiến Lên's memo) must be const-initialised, not built on first
/// use.
fn features_allocate<G: GameKind>(spec: &'static str, games: u64) -> u64 {
    std::thread::spawn(move || {
        let capacity = <<G::State as GameState>::Actions as ActionBuffer<_>>::CAPACITY;
        let agents: Vec<Box<dyn Agent<G::State>>> = (0..4)
            .map(|_| {
                Box::new(FeaturesEveryDecision::<G> {
                    inner: make_agent::<G>(spec).unwrap(),
                    rows: vec![[0; MAX_FEATURES]; capacity],
                }) as Box<dyn Agent<G::State>>
            })
            .collect();
        agents_allocate::<G>(agents, games)
    })
    .join()
    .unwrap()
}

fn agents_allocate<G: GameKind>(agents: Vec<Box<dyn Agent<G::State>>>, games: u64) -> u64 {
    variant_allocates::<G>(G::INFO.variants[0], agents, games)
}

fn variant_allocates<G: GameKind>(
    variant: &str,
    agents: Vec<Box<dyn Agent<G::State>>>,
    games: u64,
) -> u64 {
    seats_allocate::<G>(variant, 4, agents, games)
}

/// [`variant_allocates`] with `players` seats, seat `s` played by agent `s % agents.len()`.
fn seats_allocate<G: GameKind>(
    variant: &str,
    players: usize,
    mut agents: Vec<Box<dyn Agent<G::State>>>,
    games: u64,
) -> u64 {
    let game = G::build(variant, players, &RuleMap::new()).unwrap();
    let seat_agent: Vec<usize> = (0..players).map(|s| s % agents.len()).collect();
    // decisions, not discards: Chắn's every-feature rule list only draws and passes, one
    // discard a game
    let mut decisions = 0u64;
    let before = allocations();
    for deal in 0..games {
        let id = GameId {
            master: 3,
            deal,
            rotation: (deal % players as u64) as u8,
        };
        play_game(&game, id, &mut agents, &seat_agent, |(_, d)| {
            decisions += u64::from(d.is_some())
        });
    }
    let after = allocations();
    assert!(
        decisions > 10 * games,
        "games were played: {decisions} decisions in {games}"
    );
    after - before
}

#[test]
fn four_sac_games_and_ismcts_decisions_do_not_allocate() {
    for (spec, games) in [
        ("random", 10_000),
        ("greedy", 10_000),
        ("ismcts:iters=200", 40),
        ("ismcts:iters=100,rollout=greedy,depth=off", 40),
        ("ismcts:iters=100,root=halving,depth=1", 20),
    ] {
        let agents: Vec<_> = (0..4).map(|_| make_agent::<TuSac>(spec).unwrap()).collect();
        assert_eq!(
            variant_allocates::<TuSac>("4sac", agents, games),
            0,
            "4sac {spec} allocated"
        );
    }
}

#[test]
fn multi_pack_games_and_ismcts_decisions_do_not_allocate() {
    // sisepai21 and dirtyking26 through the registry's TuSac: 2 packs at 4 players, 4 at 8
    for variant in ["sisepai21", "dirtyking26"] {
        for players in [4, 8] {
            for (spec, games) in [
                ("random", 500),
                ("greedy", 500),
                ("ismcts:iters=200", 1),
                ("ismcts:iters=100,rollout=greedy,depth=off", 1),
                ("ismcts:iters=100,root=halving,depth=1", 1),
            ] {
                let agents: Vec<_> = (0..4).map(|_| make_agent::<TuSac>(spec).unwrap()).collect();
                assert_eq!(
                    seats_allocate::<TuSac>(variant, players, agents, games),
                    0,
                    "{variant} {players} players {spec} allocated"
                );
            }
        }
    }
}

#[test]
fn playing_games_does_not_allocate() {
    // the counter itself works
    let before = allocations();
    drop(std::hint::black_box(vec![1u8; 10]));
    assert_eq!(allocations() - before, 1);
    // greedy with weights scores every action by its features: still no allocation
    for spec in [
        "greedy",
        "greedy:tiebreak=random",
        "greedy:no_win=5,win_outs=1,feed=0.1,decline=2,meld_value=1",
        "random",
    ] {
        assert_eq!(games_allocate::<TuSac>(spec, 10_000), 0, "{spec} allocated");
    }
    for spec in [
        "greedy",
        "greedy:endgame=5,max_extra=3,chop=0",
        "random",
        "first",
    ] {
        assert_eq!(
            games_allocate::<TienLen>(spec, 10_000),
            0,
            "tienlen {spec} allocated"
        );
    }
    for spec in [
        "greedy",
        "greedy:tiebreak=random",
        "greedy:outs=0.5,ca_eat=0,eat_gain=2",
        "random",
        "first",
    ] {
        assert_eq!(
            games_allocate::<Chan>(spec, 10_000),
            0,
            "chan {spec} allocated"
        );
    }
    // rule lists: feature rows and candidates live in buffers sized when the agent is built
    assert_eq!(
        rules_games_allocate::<TuSac>(3_000),
        0,
        "tusac rules allocated"
    );
    assert_eq!(
        rules_games_allocate::<TienLen>(3_000),
        0,
        "tienlen rules allocated"
    );
    assert_eq!(
        rules_games_allocate::<Chan>(3_000),
        0,
        "chan rules allocated"
    );
    // ISMCTS: the node arena is allocated when the agent is built and reset per decision.
    for spec in [
        "ismcts:iters=200",
        "ismcts:iters=100,rollout=greedy,depth=off",
        "ismcts:iters=100,rollout=greedy,root=sweep,deviate=2.5,opponents=rollout,depth=off",
        "ismcts:iters=100,root=halving,depth=2",
    ] {
        assert_eq!(games_allocate::<TuSac>(spec, 40), 0, "{spec} allocated");
    }
    for spec in [
        "ismcts:iters=200",
        "ismcts:iters=100,rollout=random,root=ucb,depth=off",
        "ismcts:iters=300,opponents=rollout,depth=off",
        "ismcts:iters=100,root=halving,depth=1",
    ] {
        assert_eq!(
            games_allocate::<TienLen>(spec, 20),
            0,
            "tienlen {spec} allocated"
        );
        assert_eq!(games_allocate::<Chan>(spec, 10), 0, "chan {spec} allocated");
    }
}

#[test]
fn features_do_not_allocate_at_any_decision_from_a_threads_first_call() {
    struct NoAllocation;
    impl GameVisitor for NoAllocation {
        type Output = ();
        fn visit<G: GameKind>(self) {
            // greedy's positions (those a learner meets) and random play's (more varied)
            for spec in ["greedy", "random"] {
                assert_eq!(
                    features_allocate::<G>(spec, 200),
                    0,
                    "{} features allocated in {spec} games",
                    G::INFO.name
                );
            }
        }
    }
    for g in GAMES {
        with_game(g.name, NoAllocation).unwrap();
    }
}

#[path = "common/nets.rs"]
mod nets;

/// The allocations of `games` games of four `net:` seats of random weights for `G`, with
/// `extra` options after the file (the file written before counting).
fn net_games_allocate<G: GameKind>(variant: &str, players: usize, extra: &str, games: u64) -> u64 {
    let dir = std::env::temp_dir().join(format!(
        "bailab-alloc-net-{}-{}",
        G::INFO.name,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{variant}-{players}.safetensors"));
    std::fs::write(&file, nets::random_net_file::<G>(variant, players, 3)).unwrap();
    let spec = format!("net:{}{extra}", file.display());
    let rules = RuleMap::new();
    let setting = bailab::generic_agents::catalogue::Setting {
        variant: Some(variant),
        table: Some((&rules, players)),
        ..Default::default()
    };
    let agents: Vec<_> = (0..4)
        .map(|_| bailab::generic_agents::catalogue::make_agent_with::<G>(&spec, setting).unwrap())
        .collect();
    let count = seats_allocate::<G>(variant, players, agents, games);
    let _ = std::fs::remove_dir_all(&dir);
    count
}

#[test]
fn net_decisions_do_not_allocate() {
    for (variant, games) in [
        ("classic", 300),
        ("4sac", 300),
        ("sisepai21", 40),
        ("dirtyking26", 40),
    ] {
        assert_eq!(
            net_games_allocate::<TuSac>(variant, 4, "", games),
            0,
            "tusac {variant} net allocated"
        );
    }
    assert_eq!(
        net_games_allocate::<Chan>("standard", 4, "", 300),
        0,
        "chan net allocated"
    );
    assert_eq!(
        net_games_allocate::<TienLen>("south", 4, "", 300),
        0,
        "tienlen net allocated"
    );
    // with a lookahead whose playouts stop at the seat's next choice, judged by the network
    assert_eq!(
        net_games_allocate::<TienLen>("south", 4, ",search=20,leaf=q", 20),
        0,
        "tienlen net with search=20,leaf=q allocated"
    );
    // with a lookahead whose playouts the network plays at the searching seat
    assert_eq!(
        net_games_allocate::<TienLen>("south", 4, ",search=20,playout=own", 20),
        0,
        "tienlen net with search=20,playout=own allocated"
    );
    assert_eq!(
        net_games_allocate::<TienLen>("south", 4, ",search=20,playout=own,horizon=2", 20),
        0,
        "tienlen net with search=20,playout=own,horizon=2 allocated"
    );
}
