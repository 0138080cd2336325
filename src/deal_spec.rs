//! Partial deals: a deal specification fixes some hands, some cards of a hand and the top of the
//! stock; every other card is dealt at random from what is left (`docs/deals-spec.md`).
//!
//! The part written here is the same for every game: a game only says, through [`PartialDeals`]
//! ([`PartialDeals::deal_layout`]), which deck positions each seat's hand and the stock take in
//! its dealing order, how its card notation reads ([`PartialDeals::spec_cards`]) and how it deals
//! a reordered pack ([`PartialDeals::deal_order`]). [`DealSpec::check`] turns a
//! specification into a [`DealPlan`] (every error is found there, naming the card or seat), and
//! [`deal_with_spec`] deals one game from the plan: the free cards shuffled with the caller's RNG
//! into the free positions. Seeded with deal `i`'s stream (`sim::deal::seeds`, which deals every
//! game of a seed), deal `i` is the same on any thread.

use crate::game::{Game, RuleMap, Seat};
use crate::rng::{shuffle, stream_rng, GameRng, DEAL_STREAM};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The largest pack a deal plan handles (the 224-card Tứ Sắc variants fit).
pub(crate) const MAX_DECK: usize = 256;

/// The token that ends a seat's list when only some cards of its hand are fixed.
pub(crate) const REST: &str = "...";

/// A deck position of a plan's template left to the random fill.
const FREE: u16 = u16::MAX;

/// A deal specification as written: the `[deal]` table of an experiment, or a deal file. Keys:
/// `seat0`, `seat1`, … (a hand, or some of its cards followed by `...`), `stock_top` (the next
/// cards drawn, in order) and `first` (the seat dealt first). Read against a game by
/// [`DealSpec::check`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DealSpec(pub RuleMap);

/// Where a game's deal puts each position of its deck: what [`PartialDeals::deal_layout`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct DealLayout {
    /// The pack in the game's canonical order, one card per entry, written as the game writes
    /// it; [`PartialDeals::deal_order`] receives indices into it.
    pub pack: Vec<String>,
    /// The deck positions dealt to each seat (index = seat), in dealing order.
    pub hands: Vec<Vec<usize>>,
    /// The deck positions of the stock, the next card drawn first (empty: the game has none).
    pub stock: Vec<usize>,
    /// The record setup of such a deal (e.g. the first seat), passed to
    /// [`PartialDeals::deal_order`].
    pub setup: RuleMap,
}

/// A checked specification for one game and table: the fixed positions and the free cards.
#[derive(Clone, Debug, PartialEq)]
pub struct DealPlan {
    /// The game the plan was checked against.
    game: &'static str,
    /// The seats at its table.
    players: usize,
    /// Deck position → pack index (the fixed ones; free positions are filled per deal).
    template: Vec<u16>,
    /// The positions left to the random fill, in deck order.
    free_positions: Vec<u16>,
    /// The pack indices of the cards not fixed, in pack order.
    free_cards: Vec<u16>,
    /// The record setup of every deal.
    setup: RuleMap,
    /// Per seat: fixed cards and hand size (for the summary).
    fixed: Vec<(usize, usize)>,
    /// Per seat: the deck positions of its hand.
    hands: Vec<Vec<u16>>,
    /// Fixed cards at the top of the stock.
    stock_top: usize,
}

/// Deals one game of `game` from a checked plan: the fixed cards where the plan puts them, the
/// free cards shuffled with `rng` into the other positions. When the game's rules redeal the
/// result ([`PartialDeals::redeal_seat`], e.g. Tứ Sắc's §1.4 step 1), the free cards are shuffled
/// again with the same `rng` until they do not, so deal `i` stays deal `i`. Allocation-free.
///
/// # Panics
/// When `plan` was checked against another game or table, or when no deal passes the game's
/// redeal rule in `MAX_REDRAWS` draws ([`DealSpec::check`] refuses plans that never do).
pub fn deal_with_spec<G: PartialDeals>(game: &G, plan: &DealPlan, rng: &mut GameRng) -> G::State {
    assert!(
        plan.game == G::NAME && plan.players == game.seats(),
        "a deal plan of {} at {} seats used for {} at {}",
        plan.game,
        plan.players,
        G::NAME,
        game.seats()
    );
    let mut order = [0u16; MAX_DECK];
    let order = &mut order[..plan.template.len()];
    let mut free = [0u16; MAX_DECK];
    let free = &mut free[..plan.free_cards.len()];
    free.copy_from_slice(&plan.free_cards);
    let mut draws = 0u32;
    loop {
        plan.draw(order, free, rng);
        let Some(seat) = game.redeal_seat(order) else {
            break;
        };
        draws += 1;
        assert!(
            draws < MAX_REDRAWS,
            "no deal of the specification passes the redeal rule of {} in {MAX_REDRAWS} \
             draws (seat {seat} last held a hand the rules redeal)",
            G::NAME
        );
    }
    game.deal_order(order, &plan.setup)
        .expect("a checked plan deals")
}

/// Why a deal specification, or a game's hook for it, refuses a partial deal; the text is the
/// message shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealSpecError {
    /// A card list that does not read in the game's notation (the card parser's message, naming
    /// the card).
    #[error("{0}")]
    Cards(String),
    /// An order that is not a permutation of the game's pack.
    #[error("a {game} deal orders the {cards} cards of {packs}")]
    Order {
        /// The game's name.
        game: &'static str,
        /// The cards of its pack(s).
        cards: usize,
        /// How the pack is named: `one pack`, `its packs`.
        packs: &'static str,
    },
    /// What the game's rules refuse (a `first` that is a rule option, a setup key, a plan
    /// every deal of which is redealt).
    #[error("{0}")]
    Game(String),
    /// A key whose card list does not read (the inner error names the card).
    #[error("{key}: {error}")]
    Key {
        /// The key: `seatN` or `stock_top`.
        key: String,
        /// Why its list does not read.
        error: Box<DealSpecError>,
    },
    /// A key whose value is not text.
    #[error("'{key}' = {value}: expected cards in quotes, e.g. {key} = \"...\"")]
    NotText {
        /// The key.
        key: String,
        /// The value given.
        value: serde_json::Value,
    },
    /// A `first` that is not a seat of the table.
    #[error("'{key}' = {value} is not a seat of the table (seats 0 to {})", .players - 1)]
    NotASeat {
        /// The key.
        key: String,
        /// The value given.
        value: serde_json::Value,
        /// The seats at the table.
        players: usize,
    },
    /// A `...` before the end of a card list.
    #[error(
        "{key}: card {place} '{REST}': '{REST}' may only end the list (the rest of the hand at \
         random)"
    )]
    RestNotLast {
        /// The key.
        key: String,
        /// The place of the `...` in the list (from 1).
        place: usize,
    },
    /// A key that is neither a seat of the table nor `stock_top` nor `first`.
    #[error("unknown key '{key}' (known: seat0 to seat{}, stock_top, first)", .players - 1)]
    UnknownKey {
        /// The key.
        key: String,
        /// The seats at the table.
        players: usize,
    },
    /// A `seatN` key whose seat is not at the table.
    #[error("'{key}': seat {seat} is not at the table of {players} (seats 0 to {})", .players - 1)]
    SeatOutside {
        /// The key.
        key: String,
        /// The seat it names.
        seat: usize,
        /// The seats at the table.
        players: usize,
    },
    /// A pack larger than `MAX_DECK`.
    #[error("partial deals handle packs of at most {MAX_DECK} cards")]
    PackTooLarge,
    /// A whole hand of the wrong size.
    #[error(
        "seat{seat}: {cards} cards, but seat {seat}'s hand holds {size} at the deal (end the \
         list with '{REST}' to fix only some of its cards)"
    )]
    HandSize {
        /// The seat.
        seat: usize,
        /// The cards given.
        cards: usize,
        /// The cards its hand holds at the deal.
        size: usize,
    },
    /// More fixed cards than a hand holds.
    #[error(
        "seat{seat}: {cards} cards fixed, but seat {seat}'s hand holds only {size} at the deal"
    )]
    HandOverfull {
        /// The seat.
        seat: usize,
        /// The cards given.
        cards: usize,
        /// The cards its hand holds at the deal.
        size: usize,
    },
    /// A stock top for a game that deals no stock at this table.
    #[error("stock_top: {game} deals no stock at this table")]
    NoStock {
        /// The game's name.
        game: &'static str,
    },
    /// A stock top longer than the stock.
    #[error("stock_top: {cards} cards, but the stock holds {stock} after the deal")]
    StockOverfull {
        /// The cards given.
        cards: usize,
        /// The cards of the stock after the deal.
        stock: usize,
    },
    /// A card fixed more often than the pack holds it.
    #[error("card {card} is fixed {total} times ({places}), but the pack holds {copies}")]
    TooManyCopies {
        /// The card.
        card: String,
        /// How often it is fixed.
        total: usize,
        /// Where it is fixed (`seat0 ×2, stock_top ×1`).
        places: String,
        /// The copies in the pack.
        copies: usize,
    },
    /// A plan every deal of which the game's rules redeal.
    #[error(
        "seat{seat}: no deal of this specification passes the redeal rule of {game} in \
         {CHECK_DRAWS} draws (seat {seat}'s hand failed most often): fix fewer of the cards \
         the hands need"
    )]
    AlwaysRedealt {
        /// The seat whose hand failed most often.
        seat: usize,
        /// The game's name.
        game: &'static str,
    },
}

/// Why a deal file does not read: the file itself, its TOML, or its layout.
#[derive(Debug, thiserror::Error)]
pub enum DealFileError {
    /// A file that cannot be read, or is too large, or is not text.
    #[error(transparent)]
    Read(#[from] crate::input::InputError),
    /// Text that is not TOML (the message names the file, line and column).
    #[error("{0}")]
    Toml(String),
    /// A `[deal]` table beside other keys at the top level.
    #[error(
        "{origin}: a [deal] table and other keys at the top level: put every key in the [deal] \
         table"
    )]
    Mixed {
        /// The file as named in errors.
        origin: String,
    },
}

impl From<DealFileError> for String {
    fn from(e: DealFileError) -> String {
        e.to_string()
    }
}

impl From<DealSpecError> for String {
    fn from(e: DealSpecError) -> String {
        e.to_string()
    }
}

/// What partial deals need of a game (`docs/deals-spec.md`): its name, and the hooks each game
/// implements directly, so that this file needs nothing above [`crate::game`].
pub trait PartialDeals: Game {
    /// The game's name (its `GameInfo::name`).
    const NAME: &'static str;
    /// The deck positions of each seat's hand and of the stock when seat `first` is dealt first
    /// (`None`: the game's default), with the pack and the record setup of such a deal. Errors
    /// name what the game cannot do (e.g. a `first` that is a rule option).
    fn deal_layout(&self, first: Option<Seat>) -> Result<DealLayout, DealSpecError>;
    /// A list of cards in the game's notation, each written as the game writes it (errors name
    /// the card).
    fn spec_cards(text: &str) -> Result<Vec<String>, DealSpecError>;
    /// Deals the pack of [`PartialDeals::deal_layout`] reordered, `deck[i] = pack[order[i]]`,
    /// with the layout's `setup`. Allocation-free.
    fn deal_order(&self, order: &[u16], setup: &RuleMap) -> Result<Self::State, DealSpecError>;
    /// The first seat whose hand in the deal `deck[i] = pack[order[i]]` makes the rules redeal
    /// (Tứ Sắc's §1.4 step 1), if any; [`deal_with_spec`] then draws the free cards again. None
    /// by default (the game never redeals). Allocation-free.
    fn redeal_seat(&self, order: &[u16]) -> Option<Seat> {
        let _ = order;
        None
    }
    /// Refuses a checked plan whose fixed cards make the rules redeal every deal (a hand that no
    /// draw of its free cards can save), naming the seat. Accepts by default.
    fn check_plan(&self, plan: &DealPlan) -> Result<(), DealSpecError> {
        let _ = plan;
        Ok(())
    }
}

/// The most draws of the free cards [`deal_with_spec`] makes for one deal.
pub(crate) const MAX_REDRAWS: u32 = 1 << 20;

/// The draws [`DealSpec::check`] makes to find one deal the game's rules do not redeal.
const CHECK_DRAWS: u32 = 1 << 16;

/// One seat's entry: its cards and whether they are the whole hand.
struct SeatCards {
    seat: usize,
    cards: Vec<String>,
    whole: bool,
}

impl DealSpec {
    /// Reads a deal file: a `[deal]` table (as in an experiment) or the same keys at the top
    /// level. `origin` names the file in errors. The keys are checked by [`DealSpec::check`].
    pub fn parse(text: &str, origin: &str) -> Result<DealSpec, DealFileError> {
        let map: RuleMap = toml::from_str(text).map_err(|e| {
            DealFileError::Toml(crate::text::toml_error(
                text,
                origin,
                &e,
                crate::input::DEAL_SPEC.what,
            ))
        })?;
        match map.get("deal") {
            Some(serde_json::Value::Object(table)) if map.len() == 1 => Ok(DealSpec(table.clone())),
            Some(serde_json::Value::Object(_)) => Err(DealFileError::Mixed {
                origin: origin.to_string(),
            }),
            _ => Ok(DealSpec(map)),
        }
    }

    /// Reads a deal file from disk (see [`DealSpec::parse`]).
    pub fn load(path: &str) -> Result<DealSpec, DealFileError> {
        let text = crate::input::read_text(Path::new(path), crate::input::DEAL_SPEC)?;
        DealSpec::parse(&text, path)
    }

    /// Checks the specification against `game` (its table and dealing order) and returns the
    /// plan to deal from. Errors name the key, seat or card at fault: an unknown key or seat,
    /// a card not in the game's notation, a full hand of the wrong size, more fixed cards than
    /// a hand holds, a stock top longer than the stock, more copies of a card than the pack.
    pub fn check<G: PartialDeals>(&self, game: &G) -> Result<DealPlan, DealSpecError> {
        let players = game.seats();
        let mut first = None;
        let mut stock_top = Vec::new();
        let mut seats = Vec::new();
        for (key, value) in &self.0 {
            match key.as_str() {
                "first" => first = Some(seat_value(key, value, players)? as Seat),
                "stock_top" => {
                    let text = text_value(key, value)?;
                    let text = text.trim_end().strip_suffix(REST).unwrap_or(text);
                    stock_top = cards_of::<G>(key, text)?;
                }
                _ => seats.push(seat_entry::<G>(key, value, players)?),
            }
        }
        let layout = game.deal_layout(first)?;
        if layout.pack.len() > MAX_DECK {
            return Err(DealSpecError::PackTooLarge);
        }
        for s in &seats {
            check_hand_size(s, layout.hands[s.seat].len())?;
        }
        check_stock(&stock_top, layout.stock.len(), G::NAME)?;
        let plan = plan(G::NAME, players, &layout, &seats, &stock_top)?;
        game.check_plan(&plan)?;
        check_redeals(game, &plan)?;
        Ok(plan)
    }

    /// True when no key is given (every card at random).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Refuses a plan every deal of which the game's rules redeal (the seats' needs together
/// exceed what the free cards can give, though each seat alone passes
/// [`PartialDeals::check_plan`]): draws with a fixed RNG until one deal passes, naming the seat that
/// failed most often when none does.
fn check_redeals<G: PartialDeals>(game: &G, plan: &DealPlan) -> Result<(), DealSpecError> {
    let mut order = vec![0u16; plan.template.len()];
    let mut free = plan.free_cards.clone();
    let mut rng = stream_rng(0, 0, DEAL_STREAM);
    let mut failed = vec![0u32; plan.players];
    for _ in 0..CHECK_DRAWS {
        plan.draw(&mut order, &mut free, &mut rng);
        match game.redeal_seat(&order) {
            None => return Ok(()),
            Some(seat) => failed[usize::from(seat)] += 1,
        }
    }
    let worst = (0..plan.players).max_by_key(|&s| failed[s]).unwrap_or(0);
    Err(DealSpecError::AlwaysRedealt {
        seat: worst,
        game: G::NAME,
    })
}

/// A key's value as text.
fn text_value<'a>(key: &str, value: &'a serde_json::Value) -> Result<&'a str, DealSpecError> {
    value.as_str().ok_or_else(|| DealSpecError::NotText {
        key: key.to_string(),
        value: value.clone(),
    })
}

/// The `first` key: a seat of the table.
fn seat_value(
    key: &str,
    value: &serde_json::Value,
    players: usize,
) -> Result<usize, DealSpecError> {
    value
        .as_u64()
        .filter(|&s| (s as usize) < players)
        .map(|s| s as usize)
        .ok_or_else(|| DealSpecError::NotASeat {
            key: key.to_string(),
            value: value.clone(),
            players,
        })
}

/// Reads a list of cards in the game's notation; the game's parser names a bad card.
fn cards_of<G: PartialDeals>(key: &str, text: &str) -> Result<Vec<String>, DealSpecError> {
    if let Some(i) = text.split_whitespace().position(|t| t == REST) {
        return Err(DealSpecError::RestNotLast {
            key: key.to_string(),
            place: i + 1,
        });
    }
    G::spec_cards(text).map_err(|e| DealSpecError::Key {
        key: key.to_string(),
        error: Box::new(e),
    })
}

/// A `seatN` key: the seat and its cards (`...` at the end: only these cards are fixed).
fn seat_entry<G: PartialDeals>(
    key: &str,
    value: &serde_json::Value,
    players: usize,
) -> Result<SeatCards, DealSpecError> {
    let Some(seat) = key
        .strip_prefix("seat")
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<usize>().ok())
    else {
        return Err(DealSpecError::UnknownKey {
            key: key.to_string(),
            players,
        });
    };
    if seat >= players {
        return Err(DealSpecError::SeatOutside {
            key: key.to_string(),
            seat,
            players,
        });
    }
    let text = text_value(key, value)?.trim_end();
    let (text, whole) = match text.strip_suffix(REST) {
        Some(rest) => (rest, false),
        None => (text, true),
    };
    Ok(SeatCards {
        seat,
        cards: cards_of::<G>(key, text)?,
        whole,
    })
}

/// A whole hand must have the hand's size; a partial one at most that many cards.
fn check_hand_size(s: &SeatCards, size: usize) -> Result<(), DealSpecError> {
    let (seat, cards) = (s.seat, s.cards.len());
    if s.whole && cards != size {
        return Err(DealSpecError::HandSize { seat, cards, size });
    }
    if cards > size {
        return Err(DealSpecError::HandOverfull { seat, cards, size });
    }
    Ok(())
}

/// The stock top fits in the stock.
fn check_stock(top: &[String], stock: usize, game: &'static str) -> Result<(), DealSpecError> {
    if top.len() > stock {
        return Err(if stock == 0 {
            DealSpecError::NoStock { game }
        } else {
            DealSpecError::StockOverfull {
                cards: top.len(),
                stock,
            }
        });
    }
    Ok(())
}

/// A list of fixed cards: its key, its cards and the deck positions they go to.
type List<'a> = (String, &'a [String], &'a [usize]);

/// Assigns every fixed card a card of the pack and builds the plan.
fn plan(
    game: &'static str,
    players: usize,
    layout: &DealLayout,
    seats: &[SeatCards],
    stock_top: &[String],
) -> Result<DealPlan, DealSpecError> {
    let mut unused: BTreeMap<&str, Vec<u16>> = BTreeMap::new();
    for (i, c) in layout.pack.iter().enumerate().rev() {
        unused.entry(c.as_str()).or_default().push(i as u16);
    }
    let mut template = vec![FREE; layout.pack.len()];
    let lists: Vec<List<'_>> = seats
        .iter()
        .map(|s| {
            let name = format!("seat{}", s.seat);
            (name, s.cards.as_slice(), layout.hands[s.seat].as_slice())
        })
        .chain(std::iter::once((
            "stock_top".to_string(),
            stock_top,
            layout.stock.as_slice(),
        )))
        .collect();
    for (_, cards, positions) in &lists {
        for (card, &pos) in cards.iter().zip(positions.iter()) {
            let slot = unused
                .get_mut(card.as_str())
                .and_then(Vec::pop)
                .ok_or_else(|| too_many(card, &lists, &layout.pack))?;
            template[pos] = slot;
        }
    }
    let free_positions: Vec<u16> = (0..template.len() as u16)
        .filter(|&p| template[p as usize] == FREE)
        .collect();
    let mut free_cards: Vec<u16> = unused.into_values().flatten().collect();
    free_cards.sort_unstable();
    debug_assert_eq!(free_cards.len(), free_positions.len());
    Ok(DealPlan {
        game,
        players,
        template,
        free_positions,
        free_cards,
        setup: layout.setup.clone(),
        fixed: (0..players)
            .map(|s| {
                let n = seats
                    .iter()
                    .find(|e| e.seat == s)
                    .map_or(0, |e| e.cards.len());
                (n, layout.hands[s].len())
            })
            .collect(),
        stock_top: stock_top.len(),
        hands: layout
            .hands
            .iter()
            .map(|h| h.iter().map(|&p| p as u16).collect())
            .collect(),
    })
}

/// The error for a card fixed more often than the pack holds it, with where it was fixed.
fn too_many(card: &str, lists: &[List<'_>], pack: &[String]) -> DealSpecError {
    let copies = pack.iter().filter(|c| *c == card).count();
    let places: Vec<String> = lists
        .iter()
        .filter_map(|(name, cards, _)| {
            let n = cards.iter().filter(|c| *c == card).count();
            (n > 0).then(|| format!("{name} ×{n}"))
        })
        .collect();
    let total: usize = lists
        .iter()
        .map(|(_, cards, _)| cards.iter().filter(|c| *c == card).count())
        .sum();
    DealSpecError::TooManyCopies {
        card: card.to_string(),
        total,
        places: places.join(", "),
        copies,
    }
}

impl DealPlan {
    /// Fills `order` with one draw: the fixed cards, and `free` (the free cards, in any order)
    /// shuffled with `rng` into the free positions.
    fn draw(&self, order: &mut [u16], free: &mut [u16], rng: &mut GameRng) {
        order.copy_from_slice(&self.template);
        shuffle(free, rng);
        for (&p, &c) in self.free_positions.iter().zip(free.iter()) {
            order[p as usize] = c;
        }
    }

    /// The seats at the table.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The pack indices of the cards fixed in `seat`'s hand.
    pub(crate) fn seat_fixed(&self, seat: usize) -> impl Iterator<Item = u16> + '_ {
        self.hands[seat]
            .iter()
            .map(|&p| self.template[p as usize])
            .filter(|&c| c != FREE)
    }

    /// How many cards of `seat`'s hand are left to chance.
    pub(crate) fn seat_free(&self, seat: usize) -> usize {
        self.hands[seat].len() - self.seat_fixed(seat).count()
    }

    /// The pack indices of the cards left to chance, in pack order.
    pub(crate) fn free_cards(&self) -> &[u16] {
        &self.free_cards
    }

    /// How many cards the plan fixes and how many it leaves to chance.
    pub fn fixed_count(&self) -> usize {
        self.template.len() - self.free_positions.len()
    }

    /// A one-line description: what is fixed per seat and in the stock.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .fixed
            .iter()
            .enumerate()
            .filter(|(_, (n, _))| *n > 0)
            .map(|(s, (n, size))| format!("seat {s}: {n} of {size} cards"))
            .collect();
        if self.stock_top > 0 {
            parts.push(format!("stock top: {} cards", self.stock_top));
        }
        if parts.is_empty() {
            return "no card fixed".into();
        }
        format!(
            "{} fixed, {} cards at random per deal",
            parts.join(", "),
            self.free_cards.len()
        )
    }
}

/// The layout of a round-robin deal, the common pattern: `deck[k]` goes to seat
/// `(first + k) mod players` for `k < players · hand`, then (with `extra`) `deck[players · hand]`
/// to `first`; returns each seat's positions and the positions left (the stock, top first, or
/// the cards set aside).
pub(crate) fn round_robin(
    players: usize,
    first: usize,
    hand: usize,
    extra: bool,
    deck: usize,
) -> (Vec<Vec<usize>>, Vec<usize>) {
    let mut hands = vec![Vec::new(); players];
    for k in 0..players * hand {
        hands[(first + k) % players].push(k);
    }
    let mut next = players * hand;
    if extra {
        hands[first].push(next);
        next += 1;
    }
    (hands, (next..deck).collect())
}
