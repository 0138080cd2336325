//! The multi-pack core does not allocate (ARCHITECTURE.md contract 5): a counting global
//! allocator sees zero heap allocations while random games and ISMCTS decisions of sisepai21 and
//! dirtyking26 are played after setup (agents built), for 4 and 8 players (2 and 4 packs).

use bailab::agent::Agent;
use bailab::game::GameId;
use bailab::games::tusac::options::Options;
use bailab::games::tusac::packs::{MultiPack, PacksState};
use bailab::generic_agents::ismcts::{Ismcts, IsmctsParams};
use bailab::generic_agents::RandomAgent;
use bailab::sim::play_game;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations;

/// Allocations while `games` games are played by `agents` (agent 0 at seat 0, agent 1 elsewhere),
/// and the number of decisions taken.
fn allocations_of(
    opts: Options,
    agents: &mut [Box<dyn Agent<PacksState>>],
    games: u64,
) -> (u64, u64) {
    let game = MultiPack::new(opts).unwrap();
    let mut seat_agent = [1usize; 8];
    seat_agent[0] = 0;
    let mut decisions = 0u64;
    let before = allocations();
    for deal in 0..games {
        let id = GameId {
            master: 3,
            deal,
            rotation: 0,
        };
        play_game(&game, id, agents, &seat_agent, |(_, d)| {
            decisions += u64::from(d.is_some())
        });
    }
    (allocations() - before, decisions)
}

#[test]
fn multi_pack_games_and_searches_do_not_allocate() {
    // the counter itself works
    let before = allocations();
    drop(std::hint::black_box(vec![1u8; 10]));
    assert_eq!(allocations() - before, 1);
    for variant in [Options::sisepai21, Options::dirtyking26] {
        for players in [4, 8] {
            let mut agents: Vec<Box<dyn Agent<PacksState>>> =
                vec![Box::new(RandomAgent), Box::new(RandomAgent)];
            let (allocated, decisions) = allocations_of(variant(players), &mut agents, 100);
            assert!(decisions > 1000);
            assert_eq!(allocated, 0, "random {players} players allocated");
            for infer in [false, true] {
                let params = IsmctsParams {
                    iterations: 20,
                    infer,
                    ..IsmctsParams::default()
                };
                let mut agents: Vec<Box<dyn Agent<PacksState>>> = vec![
                    Box::new(Ismcts::new(params, Box::new(RandomAgent))),
                    Box::new(RandomAgent),
                ];
                let (allocated, decisions) = allocations_of(variant(players), &mut agents, 1);
                assert!(decisions > 10);
                assert_eq!(
                    allocated, 0,
                    "ismcts {players} players, infer {infer}, allocated"
                );
            }
        }
    }
}
