//! The hot loop does not allocate (ARCHITECTURE.md contract 5): a counting global allocator
//! sees zero heap allocations while 10,000 greedy and 10,000 random games of every game are
//! played after setup (agents built, nothing else), and while ISMCTS agents search.

use bailab::agents::catalogue::make_agent;
use bailab::games::chan::Chan;
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::games::{GameKind, RuleMap};
use bailab::sim::{play_game, GameId};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

fn games_allocate<G: GameKind>(spec: &str, games: u64) -> u64 {
    let game = G::build(G::INFO.variants[0], 4, &RuleMap::new()).unwrap();
    let mut agents: Vec<_> = (0..4).map(|_| make_agent::<G>(spec).unwrap()).collect();
    let seat_agent = [0, 1, 2, 3];
    let mut turns = 0u64;
    let before = allocations();
    for deal in 0..games {
        let id = GameId {
            master: 3,
            deal,
            rotation: (deal % 4) as u8,
        };
        let o = play_game(&game, id, &mut agents, &seat_agent, |_| {});
        turns += u64::from(o.turns);
    }
    let after = allocations();
    assert!(turns > games, "games were played");
    after - before
}

#[test]
fn playing_games_does_not_allocate() {
    // the counter itself works
    let before = allocations();
    drop(std::hint::black_box(vec![1u8; 10]));
    assert_eq!(allocations() - before, 1);
    for spec in ["greedy", "greedy:tiebreak=random", "random"] {
        assert_eq!(games_allocate::<TuSac>(spec, 10_000), 0, "{spec} allocated");
    }
    for spec in ["greedy", "random", "first"] {
        assert_eq!(
            games_allocate::<TienLen>(spec, 10_000),
            0,
            "tienlen {spec} allocated"
        );
    }
    for spec in ["greedy", "greedy:tiebreak=random", "random", "first"] {
        assert_eq!(
            games_allocate::<Chan>(spec, 10_000),
            0,
            "chan {spec} allocated"
        );
    }
    // ISMCTS: the node arena is allocated when the agent is built and reset per decision.
    for spec in [
        "ismcts:iters=200",
        "ismcts:iters=100,rollout=greedy",
        "ismcts:iters=100,rollout=greedy,root=sweep,deviate=2.5,opponents=rollout",
    ] {
        assert_eq!(games_allocate::<TuSac>(spec, 40), 0, "{spec} allocated");
    }
    for spec in [
        "ismcts:iters=200",
        "ismcts:iters=100,rollout=random,root=ucb",
        "ismcts:iters=300,opponents=rollout",
    ] {
        assert_eq!(
            games_allocate::<TienLen>(spec, 20),
            0,
            "tienlen {spec} allocated"
        );
        assert_eq!(games_allocate::<Chan>(spec, 10), 0, "chan {spec} allocated");
    }
}
