//! Views and determinization (ARCHITECTURE.md contract 3): a determinized state keeps everything
//! the seat could see and varies what it could not; it is a legal, playable state.

use bailab::agent::uniform_index;
use bailab::game::{Game, GameState, Seat, SeatView};
use bailab::games::tusac::card::{Card, CARD_TYPES};
use bailab::games::tusac::onepack::deck::DECK_SIZE;
use bailab::games::tusac::onepack::state::OnePackState;
use bailab::games::tusac::{OnePack, TuSacView};
use bailab::rng::{stream_rng, GameRng};

use crate::discard_calibration;
use discard_calibration::assert_calibrated;

/// A state after `steps` random decisions (or earlier if the game ended), with its RNG.
fn midgame(deal: u64, steps: usize) -> OnePackState {
    let game = OnePack::classic(4).unwrap();
    let mut rng = stream_rng(42, deal, 0);
    let mut s = game.deal(&mut rng);
    let mut actions = <OnePackState as GameState>::Actions::default();
    for _ in 0..steps {
        if s.to_move().is_none() {
            break;
        }
        s.legal_actions(&mut actions);
        let k = uniform_index(actions.len(), &mut rng);
        s.apply(actions[k]);
    }
    s
}

/// Every card of the pack, counted over all zones.
fn pack_counts(s: &OnePackState) -> [u32; CARD_TYPES] {
    let mut n = [0u32; CARD_TYPES];
    for seat in 0..4 {
        s.private(seat).cards().for_each(|c| n[c.index()] += 1);
        for set in s.public_sets(seat) {
            set.cards().iter().for_each(|c| n[c.index()] += 1);
        }
    }
    s.deck()[DECK_SIZE - s.stock_len()..]
        .iter()
        .for_each(|c| n[c.index()] += 1);
    s.dead()
        .iter()
        .enumerate()
        .for_each(|(i, &d)| n[i] += u32::from(d));
    if let Some(a) = s.active() {
        n[a.card.index()] += 1;
    }
    n
}

fn stock(s: &OnePackState) -> Vec<Card> {
    s.deck()[DECK_SIZE - s.stock_len()..].to_vec()
}

#[test]
fn determinize_keeps_the_seen_and_resamples_the_unseen() {
    let mut rng: GameRng = stream_rng(7, 0, 9);
    let mut varied_hands = 0;
    let mut varied_stock = 0;
    let mut checked = 0;
    for deal in 0..200u64 {
        let truth = midgame(deal, (deal % 40) as usize);
        if truth.to_move().is_none() {
            continue;
        }
        for seat in 0..4 as Seat {
            let view = truth.view(seat);
            let d = view.determinize(&mut rng);
            checked += 1;
            // everything the seat could see is kept
            assert_eq!(d.private(seat), truth.private(seat));
            assert_eq!(d.phase(), truth.phase());
            assert_eq!(d.active(), truth.active());
            assert_eq!(d.dead(), truth.dead());
            assert_eq!(d.visible(), truth.visible());
            assert_eq!(d.stock_len(), truth.stock_len());
            let mut deck = [0u32; CARD_TYPES];
            d.deck().iter().for_each(|c| deck[c.index()] += 1);
            assert!(deck.iter().all(|&n| n == 4), "the deck is one whole pack");
            for x in 0..4 as Seat {
                assert_eq!(d.public_sets(x), truth.public_sets(x));
                assert_eq!(
                    d.private(x).len(),
                    truth.private(x).len(),
                    "card counts are public"
                );
                assert_eq!(d.khaps(x), truth.khaps(x), "Khap counts are public");
            }
            // it is a whole pack
            assert!(
                pack_counts(&d).iter().all(|&n| n == 4),
                "deal {deal} seat {seat}"
            );
            // the true deal is not readable through the deck
            let dealt = &d.deck()[..DECK_SIZE - d.stock_len()];
            assert!(
                dealt.windows(2).all(|w| w[0] <= w[1]),
                "the dealt part is scrubbed"
            );
            // what it could not see varies
            let others_same = (0..4)
                .filter(|&x| x != seat)
                .all(|x| d.private(x) == truth.private(x));
            varied_hands += usize::from(!others_same);
            varied_stock += usize::from(stock(&d) != stock(&truth));
        }
    }
    assert!(checked > 500);
    assert!(
        varied_hands as f64 > 0.99 * checked as f64,
        "{varied_hands} of {checked}"
    );
    assert!(
        varied_stock as f64 > 0.9 * checked as f64,
        "{varied_stock} of {checked}"
    );
}

#[test]
fn determinized_states_play_to_the_end() {
    let mut rng: GameRng = stream_rng(8, 0, 9);
    let mut actions = <OnePackState as GameState>::Actions::default();
    for deal in 0..300u64 {
        let truth = midgame(deal, 25);
        let Some(seat) = truth.to_move() else {
            continue;
        };
        let mut d = truth.view(seat).determinize(&mut rng);
        // the acting seat's legal actions are the same in the sample
        let mut legal_truth = <OnePackState as GameState>::Actions::default();
        truth.legal_actions(&mut legal_truth);
        d.legal_actions(&mut actions);
        assert_eq!(actions, legal_truth);
        while d.to_move().is_some() {
            d.legal_actions(&mut actions);
            let k = uniform_index(actions.len(), &mut rng);
            d.apply(actions[k]);
        }
        assert_eq!(d.outcome().unwrap().payouts().iter().sum::<i64>(), 0);
    }
}

#[test]
fn determinize_is_reproducible_from_its_seed() {
    let truth = midgame(3, 10);
    let seat = truth.to_move().unwrap();
    let a = truth.view(seat).determinize(&mut stream_rng(1, 2, 3));
    let b = truth.view(seat).determinize(&mut stream_rng(1, 2, 3));
    assert_eq!(stock(&a), stock(&b));
    assert!((0..4).all(|x| a.private(x) == b.private(x)));
}

#[test]
fn the_true_hands_satisfy_the_history_constraint_and_samples_mostly_do() {
    use bailab::games::tusac::onepack::determinize::history_excess;
    let mut rng: GameRng = stream_rng(9, 0, 9);
    let (mut sampled, mut consistent) = (0, 0);
    for deal in 0..300u64 {
        let truth = midgame(deal, (deal % 60) as usize);
        for x in 0..4 as Seat {
            // what the rules imply must hold for the real hands (else the inference is wrong)
            assert_eq!(
                history_excess(truth.private(x), truth.spent(x), truth.discards(x)),
                0,
                "deal {deal} seat {x}"
            );
        }
        let Some(seat) = truth.to_move() else {
            continue;
        };
        let d = truth.view(seat).determinize(&mut rng);
        for x in (0..4 as Seat).filter(|&x| x != seat) {
            assert_eq!(d.spent(x), truth.spent(x));
            sampled += 1;
            consistent += usize::from(history_excess(d.private(x), d.spent(x), d.discards(x)) == 0);
        }
    }
    assert!(
        consistent as f64 > 0.95 * sampled as f64,
        "{consistent} of {sampled}"
    );
}

/// A state after `steps` decisions of four greedy agents.
fn greedy_midgame(deal: u64, steps: usize) -> OnePackState {
    let game = OnePack::classic(4).unwrap();
    let mut rng = stream_rng(43, deal, 0);
    let mut s = game.deal(&mut rng);
    let mut greedy =
        bailab::generic_agents::catalogue::make_agent::<bailab::games::tusac::TuSac>("greedy")
            .unwrap();
    let mut actions = <OnePackState as GameState>::Actions::default();
    for _ in 0..steps {
        let Some(x) = s.to_move() else { break };
        s.legal_actions(&mut actions);
        let k = greedy.act(&TuSacView::OnePack(s.view(x)), actions.as_slice(), &mut rng);
        s.apply(actions[k]);
    }
    s
}

#[test]
fn real_hands_never_missed_a_forced_claim_and_samples_rarely_do() {
    let mut rng: GameRng = stream_rng(10, 0, 9);
    let (mut sampled, mut consistent, mut windows) = (0, 0, 0);
    for deal in 0..400u64 {
        let steps = (deal % 80) as usize;
        let truth = if deal % 2 == 0 {
            midgame(deal, steps)
        } else {
            greedy_midgame(deal, steps)
        };
        let (hist, opts) = (truth.claim_history(), truth.options());
        for x in 0..4 as Seat {
            // the rules forced every such claim, so the real blocks must pass (else the inference
            // is wrong and would exclude the truth)
            assert_eq!(
                hist.forced_claims_missed(x, truth.private(x), opts),
                0,
                "deal {deal} seat {x}"
            );
        }
        let Some(seat) = truth.to_move() else {
            continue;
        };
        windows += truth.turns();
        for _ in 0..4 {
            let d = truth.view(seat).determinize(&mut rng);
            for x in (0..4 as Seat).filter(|&x| x != seat) {
                sampled += 1;
                consistent += usize::from(hist.forced_claims_missed(x, d.private(x), opts) == 0);
            }
        }
    }
    assert!(windows > 1000, "{windows}");
    assert!(
        consistent as f64 > 0.95 * sampled as f64,
        "{consistent} of {sampled}"
    );
}

#[test]
fn determinize_keeps_the_seen_and_conserves_the_pack_after_greedy_play() {
    let mut rng: GameRng = stream_rng(11, 0, 9);
    for deal in 0..200u64 {
        let truth = greedy_midgame(deal, (deal % 60) as usize);
        let Some(seat) = truth.to_move() else {
            continue;
        };
        let view = truth.view(seat);
        for _ in 0..5 {
            let d = view.determinize(&mut rng);
            assert_eq!(pack_counts(&d), pack_counts(&truth), "deal {deal}");
            assert_eq!(d.private(seat), truth.private(seat));
            assert_eq!(d.stock_len(), truth.stock_len());
            let mut deck = [0u32; CARD_TYPES];
            d.deck().iter().for_each(|c| deck[c.index()] += 1);
            assert!(deck.iter().all(|&n| n == 4), "the deck is one whole pack");
            for x in 0..4 as Seat {
                assert_eq!(d.private(x).len(), truth.private(x).len());
                assert_eq!(d.khaps(x), truth.khaps(x));
            }
        }
    }
}

/// The calibration measure on 4 × greedy one-pack games (C1/F1 wins on the discard).
fn win_on_discard_rates(game: &OnePack, deals: u64, samples: usize) -> (f64, f64) {
    use bailab::games::tusac::actions::Phase;
    use bailab::games::tusac::onepack::rules::can_win_with;
    let opts = *game.options();
    let mut greedy =
        bailab::generic_agents::catalogue::make_agent::<bailab::games::tusac::TuSac>("greedy")
            .unwrap();
    discard_calibration::win_on_discard_rates(
        |rng| game.deal(rng),
        (deals, samples),
        |s: &OnePackState| matches!(s.phase(), Phase::MustDiscard(_)),
        |s, legal, rng| {
            greedy.act(
                &TuSacView::OnePack(s.view(s.to_move().unwrap())),
                legal,
                rng,
            )
        },
        |s, c| (1..4).any(|y| can_win_with(&opts, s.private(y), c)),
    )
}

#[test]
fn determinizations_predict_how_often_an_opponent_can_win_on_a_discard() {
    // Without the discard weight the sampler predicted about a tenth of the true rate.
    let game = OnePack::classic(4).unwrap();
    assert_calibrated("classic", win_on_discard_rates(&game, 150, 40), 0.01);
}

#[test]
fn determinizations_predict_how_often_an_opponent_can_win_on_a_discard_in_4sac() {
    use bailab::games::tusac::options::Options;
    let game = OnePack::new(Options::four_sac(4)).unwrap();
    assert_calibrated("4sac", win_on_discard_rates(&game, 150, 40), 0.01);
}
