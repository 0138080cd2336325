//! Network files for tests: a network of random weights for a game's table, written as
//! `bailab train` writes one (`net:` plays it).

use bailab::game::RuleMap;
use bailab::games::kind::GameKind;
use bailab::generic_agents::net::file::{
    layout_text, to_bytes, NetHeader, FEATURE_VERSION, FORMAT,
};
use bailab::generic_agents::net::qnet::{Layer, QNet};
use bailab::generic_agents::net::{action_input_layout, input_lengths};

/// A layer of weights drawn from a small linear congruential generator seeded by `seed`.
fn layer(outputs: usize, inputs: usize, seed: &mut u64) -> Layer {
    let mut next = || {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.3
    };
    Layer {
        outputs,
        inputs,
        weight: (0..outputs * inputs).map(|_| next()).collect(),
        bias: (0..outputs).map(|_| next()).collect(),
    }
}

/// The header of a network for `game` as `bailab train` writes it.
pub fn header_for<G: GameKind>(game: &G, hidden: &[usize]) -> NetHeader {
    NetHeader {
        format: FORMAT.into(),
        game: G::INFO.name.into(),
        variant: game.variant().into(),
        players: game.seats(),
        rules: game.rules(),
        feature_version: FEATURE_VERSION,
        state_layout: layout_text(&game.tensor_layout()),
        action_layout: action_input_layout(game),
        architecture: "mlp".into(),
        hidden: hidden.to_vec(),
        payout_scale: 1.0,
        command: "tests".into(),
        decisions: 0,
        games: 0,
        seconds: 0.0,
        cpu_seconds: 0.0,
        margin: None,
        search: None,
    }
}

/// A network of random weights (hidden widths 24, 12) for `variant` of `G` at `players` seats.
pub fn random_net<G: GameKind>(variant: &str, players: usize, seed: u64) -> (NetHeader, QNet) {
    random_net_sized::<G>(variant, players, seed, [24, 12])
}

/// A network of random weights with hidden widths `hidden` for `variant` of `G` at `players`
/// seats.
pub fn random_net_sized<G: GameKind>(
    variant: &str,
    players: usize,
    seed: u64,
    hidden: [usize; 2],
) -> (NetHeader, QNet) {
    let game = G::build(variant, players, &RuleMap::new()).expect("the table builds");
    let (s, a) = input_lengths(&game);
    let mut seed = seed.wrapping_add(1);
    let layers = vec![
        layer(hidden[0], s + a, &mut seed),
        layer(hidden[1], hidden[0], &mut seed),
        layer(1, hidden[1], &mut seed),
    ];
    let net = QNet::new(s, a, layers).expect("the shapes fit");
    (header_for(&game, &hidden), net)
}

/// The bytes of [`random_net`]'s file.
pub fn random_net_file<G: GameKind>(variant: &str, players: usize, seed: u64) -> Vec<u8> {
    let (header, net) = random_net::<G>(variant, players, seed);
    to_bytes(&header, &net)
}
