//! Tứ Sắc game records: building one from a played game, and checking one by replaying its
//! events through the engine from its deck.

use super::card::{format_cards, parse_cards, Card, CARD_TYPES};
use super::state::{Event, TuSac, TuSacState, DECK_SIZE};
use super::worst::COPIES;
use super::Options;
use crate::game::GameState;
use crate::game::{Decision, GameId};
use crate::record::{CheckError, Record, RecordEvent, RecordOutcome, RECORD_FORMAT};

/// Reads a deck: exactly one pack in any order. Errors name the first extra or missing card.
pub fn parse_deck(text: &str) -> Result<[Card; DECK_SIZE], String> {
    let cards = parse_cards(text, COPIES).map_err(|e| format!("deck: {e}"))?;
    if cards.len() < DECK_SIZE {
        let mut counts = [0u8; CARD_TYPES];
        cards.iter().for_each(|c| counts[c.index()] += 1);
        let missing = Card::all()
            .find(|c| counts[c.index()] < COPIES)
            .expect("fewer than a pack");
        return Err(format!(
            "deck: {} cards, a pack has {DECK_SIZE}; the first missing card is {missing}",
            cards.len()
        ));
    }
    let deck: [Card; DECK_SIZE] = cards
        .try_into()
        .map_err(|_| "deck: more cards than a pack".to_string())?;
    Ok(deck)
}

/// The record event of a forced engine move (Quan exposure, a forced claim, the end), if `e` is one.
fn forced_event(e: &Event) -> Option<RecordEvent> {
    let rule = e.forced_by()?;
    let (seat, action) = match *e {
        Event::Quan { seat, card } => (Some(seat), format!("quan {card}")),
        Event::Meld { seat, meld, .. } => (Some(seat), format!("meld {meld}")),
        Event::End {
            winner: Some(w), ..
        } => (Some(w), "win".to_string()),
        Event::End { winner: None, .. } => (None, "drawn".to_string()),
        _ => return None,
    };
    Some(RecordEvent {
        seat,
        action,
        forced: true,
        rule: Some(rule.id().to_string()),
        legal: None,
    })
}

/// Builds the event list of a game as it is played (feed it the states the game loop observes).
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    events: Vec<RecordEvent>,
}

impl Recorder {
    /// Records one observed step: a decision (if any), then the forced moves it led to.
    pub fn observe(&mut self, state: &TuSacState, decision: Option<(Decision, super::Action)>) {
        if let Some((d, action)) = decision {
            self.events.push(RecordEvent {
                seat: Some(d.seat),
                action: action.to_string(),
                forced: false,
                rule: None,
                legal: Some(d.legal),
            });
        }
        self.events
            .extend(state.last_events().iter().filter_map(forced_event));
    }

    /// The finished record.
    pub fn finish(
        self,
        start: &TuSacState,
        end: &TuSacState,
        agents: &[String],
        id: Option<GameId>,
    ) -> Record {
        let o = start.options();
        Record {
            format: RECORD_FORMAT.to_string(),
            game: "tusac".into(),
            variant: o.variant.into(),
            rules: o.to_rules(),
            players: o.players,
            first: o.first_player,
            agents: agents.to_vec(),
            seed: id.map(|i| i.master),
            deal: id.map(|i| i.deal),
            rotation: id.map(|i| i.rotation),
            deck: format_cards(start.deck().iter().copied()),
            events: self.events,
            outcome: RecordOutcome::from(&end.outcome().expect("a finished game")),
        }
    }
}

fn fail<T>(event: Option<usize>, message: String) -> Result<T, CheckError> {
    Err(CheckError { event, message })
}

/// Checks that the next record events are exactly the engine's forced moves of the last step.
fn expect_forced(r: &Record, cursor: &mut usize, state: &TuSacState) -> Result<(), CheckError> {
    for want in state.last_events().iter().filter_map(forced_event) {
        let describe = |e: &RecordEvent| {
            format!(
                "seat {:?} {} ({})",
                e.seat,
                e.action,
                e.rule.as_deref().unwrap_or("-")
            )
        };
        match r.events.get(*cursor) {
            Some(got) if *got == want => *cursor += 1,
            Some(got) => {
                let what = if got.forced { "differs" } else { "is missing" };
                return fail(
                    Some(*cursor),
                    format!(
                        "forced move {what}: the engine applies {}, the record has {}",
                        describe(&want),
                        describe(got)
                    ),
                );
            }
            None => {
                return fail(
                    Some(*cursor),
                    format!(
                        "forced move is missing at the end: the engine applies {}",
                        describe(&want)
                    ),
                )
            }
        }
    }
    Ok(())
}

/// Rebuilds a Tứ Sắc game from a record's rules and deck and replays its events: `Ok` or the
/// first event that is illegal, a forced move that is missing or differs, or an outcome that differs.
pub fn check(r: &Record) -> Result<(), CheckError> {
    if r.format != RECORD_FORMAT {
        return fail(
            None,
            format!("format '{}' is not {RECORD_FORMAT}", r.format),
        );
    }
    if r.game != "tusac" {
        return fail(None, format!("game '{}' is not tusac", r.game));
    }
    let opts = Options::from_rules(&r.variant, &r.rules).map_err(|m| CheckError {
        event: None,
        message: m,
    })?;
    if (opts.players, opts.first_player) != (r.players, r.first) {
        return fail(
            None,
            "players/first differ from the rules' players/first_player".into(),
        );
    }
    let game = TuSac::new(opts).map_err(|m| CheckError {
        event: None,
        message: m,
    })?;
    let deck = parse_deck(&r.deck).map_err(|m| CheckError {
        event: None,
        message: m,
    })?;
    let mut state = game.deal_deck(&deck);
    let mut cursor = 0;
    expect_forced(r, &mut cursor, &state)?;
    let mut actions = <TuSacState as GameState>::Actions::default();
    while let Some(seat) = state.to_move() {
        let Some(e) = r.events.get(cursor) else {
            return fail(
                Some(cursor),
                format!("the record ends, but seat {seat} is to move"),
            );
        };
        if e.forced {
            return fail(
                Some(cursor),
                format!(
                    "'{}' is recorded as forced, but seat {seat} must decide here",
                    e.action
                ),
            );
        }
        if e.seat != Some(seat) {
            return fail(
                Some(cursor),
                format!("seat {:?} acts, but seat {seat} is to move", e.seat),
            );
        }
        state.legal_actions(&mut actions);
        let Some(&action) = actions.iter().find(|a| a.to_string() == e.action) else {
            let legal: Vec<String> = actions.iter().map(|a| a.to_string()).collect();
            return fail(
                Some(cursor),
                format!(
                    "'{}' is not legal for seat {seat} here (legal: {})",
                    e.action,
                    legal.join(", ")
                ),
            );
        };
        if let Some(n) = e.legal.filter(|&n| n != actions.len()) {
            return fail(
                Some(cursor),
                format!(
                    "the record says {n} legal actions, the engine has {}",
                    actions.len()
                ),
            );
        }
        state.apply(action);
        cursor += 1;
        expect_forced(r, &mut cursor, &state)?;
    }
    if cursor < r.events.len() {
        return fail(Some(cursor), "the game is already over".into());
    }
    let engine = RecordOutcome::from(&state.outcome().expect("over"));
    if engine != r.outcome {
        return fail(
            None,
            format!(
                "outcome differs: the record has {:?}, the engine {:?}",
                r.outcome, engine
            ),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_must_be_one_pack() {
        let full = format_cards(TuSac::fresh_deck().iter().copied());
        assert!(parse_deck(&full).is_ok());
        let short = full.replacen("rK ", "", 1);
        assert!(parse_deck(&short)
            .unwrap_err()
            .contains("the first missing card is rK"));
        let extra = format!("rK {full}");
        assert!(
            parse_deck(&extra).unwrap_err().contains("card 5 'rK'"),
            "{}",
            parse_deck(&extra).unwrap_err()
        );
        assert!(parse_deck("rK zz").unwrap_err().contains("card 2 'zz'"));
    }
}
