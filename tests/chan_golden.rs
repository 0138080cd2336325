//! Chắn's golden playthrough (kept apart from `golden_playthroughs.rs`): the full log and record
//! of one fixed hand are checked in, so a rule change shows as a diff. Regenerate with
//! `BAILAB_BLESS=1 cargo test --test chan_golden`.

use bailab::cli::play::play;
use bailab::games::chan::Chan;
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
