//! The engine view of Chắn hides the ù and chíu windows of other seats (§4 "What each seat
//! sees": windows are silent, and whether a seat is asked depends on its hidden hand):
//! - a seat not asked sees the phase it sees once the windows are declined, never another
//!   seat's window;
//! - its determinizations open windows only for seats their sampled hands make eligible (the
//!   true seat asked is not carried into a sample whose hands would not ask it).

use bailab::agent::uniform_index;
use bailab::game::{Game, GameState, Seat, SeatView};
use bailab::games::chan::types::Phase;
use bailab::games::chan::{Action, Chan, ChanState, Options};
use bailab::rng::{stream_rng, DEAL_STREAM};

/// The tables: 2 to 5 players, and 4 with `u_pass_forfeit`.
fn games() -> Vec<Chan> {
    let mut out: Vec<Chan> = (2..=5).map(|n| Chan::standard(n).unwrap()).collect();
    let forfeit = Options {
        u_pass_forfeit: true,
        ..Options::default_for(4)
    };
    out.push(Chan::new(forfeit).unwrap());
    out
}

/// Calls `f` on every state of seeded random hands in which some seat is asked in a window;
/// returns how many.
fn each_window(master: u64, hands: u64, mut f: impl FnMut(&Chan, &ChanState, Seat)) -> u64 {
    let mut windows = 0;
    let mut legal = <ChanState as GameState>::Actions::default();
    for (g, game) in games().iter().enumerate() {
        for index in 0..hands {
            let m = master + g as u64;
            let mut state = game.deal(&mut stream_rng(m, index, DEAL_STREAM));
            let mut rng = stream_rng(m, index, 1);
            while state.to_move().is_some() {
                if let Phase::UWindow { seat, .. } | Phase::ChiuWindow { seat, .. } = state.phase()
                {
                    windows += 1;
                    f(game, &state, seat);
                }
                state.legal_actions(&mut legal);
                let actions = legal.as_slice();
                state.apply(actions[uniform_index(actions.len(), &mut rng)]);
            }
        }
    }
    windows
}

/// The state after every window from `state` on is declined, and the seats asked on the way.
fn declined(state: &ChanState) -> (ChanState, Vec<Seat>) {
    let (mut s, mut asked) = (*state, Vec::new());
    while let Phase::UWindow { seat, .. } | Phase::ChiuWindow { seat, .. } = s.phase() {
        asked.push(seat);
        s.apply(Action::Decline);
    }
    (s, asked)
}

#[test]
fn the_view_shows_no_window_of_another_seat() {
    let mut checked = 0;
    let windows = each_window(410, 150, |game, state, asked_now| {
        let (resumed, asked) = declined(state);
        for s in (0..game.seats() as Seat).filter(|&s| s != asked_now) {
            let phase = state.view(s).phase();
            assert!(
                !matches!(phase, Phase::UWindow { .. } | Phase::ChiuWindow { .. }),
                "seat {s} sees {phase:?}, asked of seat {asked_now}"
            );
            if !asked.contains(&s) {
                assert_eq!(phase, resumed.view(s).phase(), "seat {s}");
                checked += 1;
            }
        }
    });
    assert!(
        windows > 100 && checked > windows,
        "{windows} windows, {checked} views"
    );
}

#[test]
fn determinizations_ask_only_seats_their_sampled_hands_make_eligible() {
    let mut samples = 0;
    let windows = each_window(430, 150, |game, state, asked_now| {
        for s in (0..game.seats() as Seat).filter(|&s| s != asked_now) {
            for k in 0..4 {
                let d = state.view(s).determinize(&mut stream_rng(samples, k, 7));
                let live = d.live().expect("a window's live card stays live");
                match d.phase() {
                    Phase::UWindow { seat, .. } => assert!(
                        d.u_eligible(seat, &live),
                        "seat {s}'s sample asks seat {seat} (truth: {asked_now}) an ù it cannot make"
                    ),
                    Phase::ChiuWindow { seat, .. } => assert_eq!(
                        d.seat(seat).concealed.count(live.card),
                        3,
                        "seat {s}'s sample asks seat {seat} (truth: {asked_now}) a chíu"
                    ),
                    _ => {}
                }
                samples += 1;
            }
        }
    });
    assert!(windows > 100, "{windows} windows, {samples} samples");
}
