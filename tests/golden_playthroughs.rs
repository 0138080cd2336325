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
    let game = TuSac::classic(4).unwrap();
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
