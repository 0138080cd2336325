//! `bailab serve` through its JSON API, the built binary on an ephemeral loopback port: whole
//! games of every game and variant against greedy whose downloaded records `bailab check`
//! accepts; no card of another seat's hidden hand in a seat's state; 4xx JSON errors for bad
//! requests; 50 games at once to the end, with the server's peak memory; Ctrl-C's stop.

use crate::common::{bailab, Scratch};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The server, stopped (SIGTERM) when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    /// `bailab serve --port 0 PATHS...` in the repository, once it listens.
    fn start(paths: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bailab"))
            .args(["serve", "--port", "0"])
            .args(paths)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("bailab serve starts");
        let mut line = String::new();
        let mut out = BufReader::new(child.stdout.take().expect("piped"));
        out.read_line(&mut line).expect("its first line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        Server { child, addr }
    }

    /// One request: its status and body (JSON when it parses, else a string).
    fn call(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        let mut stream = TcpStream::connect(&self.addr).expect("connects");
        let body = body.unwrap_or("");
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: \
             application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .expect("sends");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("reads");
        let (head, text) = answer.split_once("\r\n\r\n").expect("a head and a body");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("status");
        let value = serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.into()));
        (status, value)
    }

    /// A request that must succeed; its JSON.
    fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let text = body.map(|b| b.to_string());
        let (status, value) = self.call(method, path, text.as_deref());
        assert_eq!(status, 200, "{method} {path}: {value}");
        value
    }

    /// The server's peak resident memory so far, in KiB (Linux).
    fn peak_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Stops the server as Ctrl-C does; whether it exited cleanly.
    fn stop(mut self) -> bool {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        let status = self.child.wait().expect("waits");
        std::mem::forget(self);
        status.success()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every game, variant and a table size: `(game, variant, players)`.
const TABLES: &[(&str, &str, usize)] = &[
    ("tusac", "classic", 4),
    ("tusac", "4sac", 4),
    ("tusac", "sisepai21", 4),
    ("tusac", "dirtyking26", 6),
    ("chan", "standard", 4),
    ("tienlen", "south", 4),
];

/// Plays game `id` to the end: the human takes `pick(legal)`, the agents are advanced; every
/// state the human is sent is passed to `seen`. Returns the last state.
fn play_out(server: &Server, id: &str, mut state: Value, mut seen: impl FnMut(&Value)) -> Value {
    for _ in 0..5000 {
        seen(&state);
        if state["over"] == json!(true) {
            return state;
        }
        state = if state["your_turn"] == json!(true) {
            let n = state["legal"].as_array().expect("legal").len();
            let index = (state["log"].as_array().map_or(0, Vec::len) * 7) % n;
            server.ok(
                "POST",
                &format!("/api/games/{id}/act"),
                Some(json!({ "index": index })),
            )
        } else {
            server.ok("POST", &format!("/api/games/{id}/advance"), None)
        };
    }
    panic!("game {id} did not end in 5000 requests");
}

/// Writes game `id`'s record and runs `bailab check` on it; the record.
fn checked_record(server: &Server, id: &str, dir: &Scratch) -> Value {
    let record = server.ok("GET", &format!("/api/games/{id}/record"), None);
    let file = dir.write(&format!("{id}.json"), &record.to_string());
    let out = bailab(Path::new(env!("CARGO_MANIFEST_DIR")), &["check", &file]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 ok, 0 failed"),
        "{stdout}"
    );
    record
}

#[test]
fn every_game_plays_to_the_end_and_its_record_checks() {
    let server = Server::start(&[]);
    let dir = Scratch::new("serve-games");
    for (i, &(game, variant, players)) in TABLES.iter().enumerate() {
        let seat = i % players;
        let body = json!({ "game": game, "variant": variant, "players": players, "seat": seat,
                           "agents": ["greedy"], "seed": 40 + i });
        let made = server.ok("POST", "/api/games", Some(body));
        let id = made["id"].as_str().expect("an id").to_string();
        let end = play_out(&server, &id, made["state"].clone(), |_| {});
        let record = checked_record(&server, &id, &dir);
        assert_eq!(
            record["outcome"]["payouts"], end["outcome"]["payouts"],
            "{game}"
        );
        assert_eq!(record["agents"][seat], json!("human"));
        let again = server.ok("POST", &format!("/api/games/{id}/again"), None);
        assert_eq!(again["state"]["seat"], json!((seat + 1) % players));
        assert_eq!(
            again["state"]["over"],
            json!(false),
            "a new game of the same deal"
        );
    }
    assert!(server.stop(), "Ctrl-C stops the server with success");
}

/// The card strings anywhere in `v`, counted (a card moved is named again: a discard taken into
/// a meld stays in the discard history).
fn count_cards(v: &Value, cards: &HashMap<String, usize>, out: &mut HashMap<String, usize>) {
    match v {
        Value::String(s) if cards.contains_key(s) => *out.entry(s.clone()).or_default() += 1,
        Value::Array(a) => a.iter().for_each(|x| count_cards(x, cards, out)),
        Value::Object(m) => m.values().for_each(|x| count_cards(x, cards, out)),
        _ => {}
    }
}

#[test]
fn a_seats_state_holds_no_hidden_card_of_another_seat() {
    let server = Server::start(&[]);
    for (i, &(game, variant, players)) in TABLES.iter().enumerate() {
        let seat = (i + 1) % players;
        let body = json!({ "game": game, "variant": variant, "players": players, "seat": seat,
                           "seed": 7 + i });
        let made = server.ok("POST", "/api/games", Some(body));
        let id = made["id"].as_str().expect("an id").to_string();
        let mut states = Vec::new();
        play_out(&server, &id, made["state"].clone(), |s| {
            if s["over"] == json!(false) {
                states.push(s.clone());
            }
        });
        let record = server.ok("GET", &format!("/api/games/{id}/record"), None);
        let steps = server.ok("POST", "/api/steps", Some(record.clone()));
        // the deck: every card and its copies
        let mut copies: HashMap<String, usize> = HashMap::new();
        for c in record["deck"].as_str().expect("deck").split_whitespace() {
            *copies.entry(c.to_string()).or_default() += 1;
        }
        let (mut checked, mut hidden) = (0, 0);
        for state in &states {
            let obs = &state["observation"];
            assert!(obs.get("unseen").is_none(), "{game}: unseen is not sent");
            // the full state of this moment: the step whose seat view is this one
            let Some(step) = steps["steps"]
                .as_array()
                .expect("steps")
                .iter()
                .find(|st| st["seats"][seat] == *obs)
            else {
                panic!("{game}: a state the seat was sent is no step of its game");
            };
            // every card the whole state names (view, legal actions, log)
            let mut sent = HashMap::new();
            count_cards(state, &copies, &mut sent);
            // what the other seats see besides their hands is public; the seat's hand is its own
            let mut public = HashMap::new();
            for k in (0..players).filter(|&k| k != seat) {
                let mut view = step["seats"][k].clone();
                view.as_object_mut().expect("a view").remove("hand");
                count_cards(&view, &copies, &mut public);
            }
            count_cards(&obs["hand"], &copies, &mut public);
            for k in (0..players).filter(|&k| k != seat) {
                for c in step["seats"][k]["hand"].as_array().expect("hand") {
                    let c = c.as_str().expect("card");
                    if public.contains_key(c) {
                        continue;
                    }
                    assert!(
                        !sent.contains_key(c),
                        "{game}: seat {seat} is sent {c}, which only seat {k}'s hidden hand holds"
                    );
                    hidden += 1;
                }
            }
            checked += 1;
        }
        assert!(
            checked > 0 && hidden > 0,
            "{game}: {checked} states, {hidden} hidden cards"
        );
    }
}

#[test]
fn bad_requests_get_4xx_json_errors() {
    let server = Server::start(&["tests/golden"]);
    let made = server.ok(
        "POST",
        "/api/games",
        Some(json!({ "game": "chan", "players": 4, "seat": 0 })),
    );
    let id = made["id"].as_str().expect("id").to_string();
    let act = format!("/api/games/{id}/act");
    let cases: Vec<(&str, String, Option<&str>, u16, &str)> = vec![
        ("POST", "/api/games".into(), Some("{not json"), 400, "JSON"),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"poker","players":4}"#),
            400,
            "poker",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"chan","players":4,"seat":9}"#),
            400,
            "seat 9",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"chan","players":40}"#),
            400,
            "40",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"tusac","variant":"x","players":4}"#),
            400,
            "x",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"chan","players":4,"agents":["nobody"]}"#),
            400,
            "nobody",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"chan","players":4,"agents":["exec:sh"]}"#),
            403,
            "exec",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"chan","players":4,"deal":"Cargo.toml"}"#),
            403,
            "Cargo.toml",
        ),
        ("POST", act.clone(), Some(r#"{"index":999}"#), 409, "999"),
        ("POST", act.clone(), Some(r#"{"index":"a"}"#), 400, "index"),
        ("POST", act, Some("[]"), 400, ""),
        ("GET", "/api/games/0123".into(), None, 404, "0123"),
        ("POST", "/api/games/0123/advance".into(), None, 404, "0123"),
        (
            "GET",
            format!("/api/games/{id}/record"),
            None,
            409,
            "not over",
        ),
        ("GET", "/api/records/99/0".into(), None, 404, "99"),
        ("GET", "/api/records/x/0".into(), None, 400, "x"),
        (
            "POST",
            "/api/steps".into(),
            Some("{\"format\": 1}"),
            400,
            "record",
        ),
        ("GET", "/api/nothing".into(), None, 404, "nothing"),
    ];
    for (method, path, body, want, names) in cases {
        let (status, value) = server.call(method, &path, body);
        assert_eq!(status, want, "{method} {path} {body:?}: {value}");
        let error = value["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{path}: {value}"));
        assert!(
            error.contains(names),
            "{path}: {error:?} does not name {names:?}"
        );
    }
}

#[test]
fn fifty_games_at_once_play_to_the_end() {
    let server = Server::start(&[]);
    let dir = Scratch::new("serve-fifty");
    let ids: Vec<(String, Value)> = (0..50)
        .map(|i| {
            let (game, variant, players) = TABLES[i % TABLES.len()];
            let body = json!({ "game": game, "variant": variant, "players": players,
                               "seat": i % players, "seed": 1000 + i });
            let made = server.ok("POST", "/api/games", Some(body));
            (
                made["id"].as_str().expect("id").to_string(),
                made["state"].clone(),
            )
        })
        .collect();
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for (id, state) in &ids {
            let server = &server;
            scope.spawn(move || {
                let end = play_out(server, id, state.clone(), |_| {});
                assert_eq!(end["over"], json!(true));
            });
        }
    });
    for (id, _) in &ids {
        checked_record(&server, id, &dir);
    }
    let peak = server.peak_kib();
    println!(
        "50 games at once: {:.1} s, server peak RSS {} KiB",
        started.elapsed().as_secs_f64(),
        peak.map_or("?".into(), |k| k.to_string())
    );
    if let Some(kib) = peak {
        assert!(kib < 512 * 1024, "the server's peak RSS is {kib} KiB");
    }
}

/// `(seat, action, forced, rule)` of a log entry or a record event.
fn entry(e: &Value) -> (Value, Value, Value, Value) {
    let rule = e.get("rule").cloned().unwrap_or(Value::Null);
    (
        e["seat"].clone(),
        e["action"].clone(),
        e["forced"].clone(),
        rule,
    )
}

/// Plays whole games of `game` (each table of [`TABLES`], the human at each seat in turn) and
/// compares the human's event log with the full record: every event is there, in order, but
/// another seat's `decline` in a window the rules keep silent (`silent_declines`: whether
/// another seat's window is silent in `variant`; docs/games: Chắn §4 "What each seat sees",
/// Tiến Lên §4.3, Tứ Sắc S2.2). Every state the human is sent holds a prefix of the final log.
/// Returns how many other seats' events were shown and how many declines were kept silent.
fn log_matches_record(game: &str, silent_declines: impl Fn(&str) -> bool) -> (usize, usize) {
    let server = Server::start(&[]);
    let (mut shown, mut silent) = (0, 0);
    for (i, &(g, variant, players)) in TABLES.iter().enumerate().filter(|t| t.1 .0 == game) {
        for seat in 0..players {
            let body = json!({ "game": g, "variant": variant, "players": players,
                               "seat": seat, "seed": 300 + i * 10 + seat });
            let made = server.ok("POST", "/api/games", Some(body));
            let id = made["id"].as_str().expect("an id").to_string();
            let mut logs = Vec::new();
            let end = play_out(&server, &id, made["state"].clone(), |s| {
                logs.push(s["log"].as_array().expect("a log").clone())
            });
            let record = server.ok("GET", &format!("/api/games/{id}/record"), None);
            let log: Vec<_> = end["log"]
                .as_array()
                .expect("a log")
                .iter()
                .map(entry)
                .collect();
            for earlier in &logs {
                let prefix: Vec<_> = earlier.iter().map(entry).collect();
                assert!(
                    log.starts_with(&prefix),
                    "{variant}: a log entry was taken back"
                );
            }
            let mut expected = Vec::new();
            for e in record["events"].as_array().expect("events") {
                let others = e["seat"] != json!(seat) && e["forced"] == json!(false);
                if others && e["action"] == json!("decline") && silent_declines(variant) {
                    silent += 1;
                    continue;
                }
                shown += usize::from(e["seat"] != json!(seat));
                expected.push(entry(e));
            }
            if log != expected {
                let at = log
                    .iter()
                    .zip(&expected)
                    .take_while(|(a, b)| a == b)
                    .count();
                panic!(
                    "{variant}, human at seat {seat}: the log differs from the record's public \
                     events at entry {at}: log {:?}, record {:?}",
                    log.get(at),
                    expected.get(at)
                );
            }
        }
    }
    (shown, silent)
}

#[test]
fn tusac_log_shows_every_public_move_and_no_silent_answer() {
    // 4sac (one-pack core) asks its claims in turn in everyone's view (§1.5: the whole action
    // history is public); the multi-pack core's claim windows are silent (S2.2).
    let (shown, silent) = log_matches_record("tusac", |v| v != "4sac" && v != "classic");
    assert!(shown > 100 && silent > 0, "{shown} shown, {silent} silent");
}

#[test]
fn chan_log_shows_every_public_move_and_no_silent_window() {
    let (shown, silent) = log_matches_record("chan", |_| true);
    assert!(shown > 100 && silent > 0, "{shown} shown, {silent} silent");
}

#[test]
fn tienlen_log_shows_every_public_move_and_no_silent_window() {
    // an out-of-turn chop window needs a 2 on the table and a pair sequence in hand: these four
    // games open none, so this checks the public moves (a play, a pass, every forced payment)
    let (shown, _) = log_matches_record("tienlen", |_| true);
    assert!(shown > 100, "{shown} shown");
}
