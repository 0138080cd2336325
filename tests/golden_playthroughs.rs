//! Golden playthroughs: the full log of one fixed game per variant is checked in, so a change to
//! any rule shows as a diff. Regenerate with `BAILAB_BLESS=1 cargo test --test golden_playthroughs`.

use bailab::cli::play::play;
use bailab::games::chan::Chan;
use bailab::games::tienlen::TienLen;
use bailab::games::tusac::TuSac;
use bailab::record::check as check_record;
use bailab::sim::GameId;

fn check(name: &str, actual: &str) {
    let path = format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("BAILAB_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        expected == actual,
        "{name} differs from the golden file; run with BAILAB_BLESS=1 after reviewing the diff"
    );
}

#[test]
fn tusac_classic_seed_1() {
    let game = TuSac::preset("classic", 4).unwrap();
    let id = GameId {
        master: 1,
        deal: 0,
        rotation: 0,
    };
    let played = play(&game, id, None, &["random".to_string()]).unwrap();
    check("tusac-classic.txt", &played.log);
    // the same game as a record, which the checker accepts
    check_record(&played.record).unwrap();
    let json = serde_json::to_string_pretty(&played.record).unwrap() + "\n";
    check("tusac-classic.json", &json);
}

#[test]
fn tusac_4sac_seed_3() {
    // greedy ×4, checked by hand against the spec (tests/golden/tusac-4sac.txt):
    // - step 1: the opening discard yR is a trash card, any non-King card would do (§4.5);
    // - step 13: seat 3, holding the Pong yH yH yH, is asked about seat 2's own draw yH (F2:
    //   seat 2 is T and is skipped) and takes the Kong (Quad, melded, 6 points);
    // - step 18: seat 3 is asked about seat 0's discard wR with its pair (F2, T = seat 1 is not
    //   asked) and takes the Pong; seats 1 and 2 lose their turns;
    // - steps 8–10: seat 0 passes its draw yA; seat 1 takes it only as a chow (KAE, F5);
    // - the payout (§6.2): seat 2 wins with WP = 13 (public 0+3+6+0+0+2, private rK gK and the
    //   pair wE wE: 1+1+0); seat 3 holds a melded Kong and pays 13 − 6 = 7, seats 0 and 1 pay 13.
    let game = TuSac::new(bailab::games::tusac::Options::four_sac(4)).unwrap();
    let id = GameId {
        master: 3,
        deal: 0,
        rotation: 0,
    };
    let played = play(&game, id, None, &["greedy".to_string()]).unwrap();
    assert!(played.log.contains("(optional, F2)"));
    check("tusac-4sac.txt", &played.log);
    check_record(&played.record).unwrap();
    let json = serde_json::to_string_pretty(&played.record).unwrap() + "\n";
    check("tusac-4sac.json", &json);
}

#[test]
fn tienlen_seed_136() {
    // greedy against random: a chặt of a 2 and a thối at the end
    let game = TienLen::standard(4).unwrap();
    let id = GameId {
        master: 136,
        deal: 0,
        rotation: 0,
    };
    let specs = ["greedy".to_string(), "random".to_string()];
    let played = play(&game, id, None, &specs).unwrap();
    assert!(played.log.contains("7.4-Chat") && played.log.contains("7.3-Thoi"));
    check("tienlen.txt", &played.log);
    check_record(&played.record).unwrap();
    let json = serde_json::to_string_pretty(&played.record).unwrap() + "\n";
    check("tienlen.json", &json);
}

#[test]
fn chan_seed_14() {
    // greedy against random: an in-turn chíu, then an ù on another seat's draw scored Chíu
    let game = Chan::standard(4).unwrap();
    let id = GameId {
        master: 14,
        deal: 0,
        rotation: 0,
    };
    let specs = ["greedy".to_string(), "random".to_string()];
    let played = play(&game, id, None, &specs).unwrap();
    assert!(played.log.contains("chius 6n") && played.log.contains("7.1-U"));
    check("chan.txt", &played.log);
    check_record(&played.record).unwrap();
    let json = serde_json::to_string_pretty(&played.record).unwrap() + "\n";
    assert!(json.contains("\"win Chiu; points 5, ga 0, S 5\""));
    check("chan.json", &json);
}
