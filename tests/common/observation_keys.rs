//! The observation keys each game documents (docs/observations/GAME.md), in the documented
//! order: the tests of the encodings and of what an outside agent is sent both check them.
#![allow(dead_code)] // each test binary uses its own games' keys

/// Chắn: the observation's keys.
pub const CHAN_KEYS: [&str; 18] = [
    "game",
    "variant",
    "players",
    "seat",
    "to_move",
    "phase",
    "hand",
    "seats",
    "live",
    "stock_size",
    "dead",
    "first_player",
    "prev_winner",
    "resume",
    "return_gate",
    "declined",
    "u_forfeit",
    "unseen",
];
/// Chắn: the keys of each entry of `seats`.
pub const CHAN_SEAT_KEYS: [&str; 5] = ["seat", "hand_size", "melds", "discards", "passed"];

/// Tứ Sắc, one-pack core (classic, 4sac): the observation's keys.
pub const ONE_PACK_KEYS: [&str; 12] = [
    "game", "variant", "players", "seat", "to_move", "phase", "hand", "seats", "stock", "active",
    "dead", "unseen",
];
/// Tứ Sắc, multi-pack core (sisepai21, dirtyking26): the observation's keys.
pub const PACKS_KEYS: [&str; 17] = [
    "game",
    "variant",
    "players",
    "seat",
    "to_move",
    "phase",
    "hand",
    "face_down",
    "seats",
    "stock",
    "stock_public",
    "reshuffles_left",
    "double_rank",
    "active",
    "asked",
    "dead",
    "unseen",
];
/// Tứ Sắc, one-pack core: the keys of each entry of `seats`.
pub const ONE_PACK_SEAT_KEYS: [&str; 5] = ["seat", "hand_size", "khaps", "sets", "discarded"];
/// Tứ Sắc, multi-pack core: the keys of each entry of `seats`.
pub const PACKS_SEAT_KEYS: [&str; 5] = ["seat", "hand_size", "face_down_size", "sets", "discarded"];
