//! Golden playthroughs: the full log of one fixed game per variant is checked in, so a change to
//! any rule shows as a diff. Regenerate with `BAILAB_BLESS=1 cargo test --test golden_playthroughs`.

use bailab::cli::play::play;
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
