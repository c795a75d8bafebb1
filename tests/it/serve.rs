//! `arbiter serve`, as a browser or a site embedding the board sees it: the page and its
//! API over real HTTP, bad requests answered with a 4xx that names the problem (the board
//! kept as it was), no file of the machine served, a hostile stream of requests survived,
//! Arbiter's moves, the exported PGN read by python-chess — and the seeds' scenarios in a
//! real browser (`tests/browser/board.py`, Debian's chromium driven by Selenium).

use super::common::hostile::{mutate, random_bytes, Rng};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `arbiter serve` on a free port, stopped when dropped.
pub struct Server {
    child: Child,
    pub address: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--port", "0", "--move-time", "150"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start arbiter serve");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let address = loop {
            let line = lines.next().expect("serve printed its address").expect("stderr line");
            if let Some(rest) = line.strip_prefix("Arbiter's board: http://") {
                break rest.split('/').next().expect("address").to_string();
            }
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Server { child, address }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// One request on a fresh connection: status, headers (lower-case names) and body.
    pub fn raw(&self, request: &[u8]) -> (u16, String, String) {
        let mut s = TcpStream::connect(&self.address).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
        let _ = s.write_all(request);
        // The request is all there is: a server waiting for more would wait for nothing.
        let _ = s.shutdown(std::net::Shutdown::Write);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).to_string();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        (status, head.to_ascii_lowercase(), body.to_string())
    }

    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let body = body.unwrap_or("");
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            self.address,
            body.len()
        );
        let (status, _, body) = self.raw(request.as_bytes());
        (status, body)
    }

    pub fn json(&self, method: &str, path: &str, body: Option<&str>) -> (u16, serde_json::Value) {
        let (status, text) = self.request(method, path, body);
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, value)
    }

    /// A new board; its id.
    pub fn board(&self, body: &str) -> String {
        let (status, v) = self.json("POST", "/api/boards", Some(body));
        assert_eq!(status, 201, "{v}");
        v["id"].as_str().expect("id").to_string()
    }

    pub fn act(&self, id: &str, action: &str) -> (u16, serde_json::Value) {
        self.json("POST", &format!("/api/boards/{id}"), Some(action))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_page_and_its_parts_are_served_with_a_strict_policy() {
    let s = Server::start(&[]);
    let (status, head, body) = s.raw(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert!(head.contains("content-security-policy: default-src 'none'; script-src 'self'"), "{head}");
    assert!(body.contains("data-role=\"board\"") && body.contains("/app.js"));
    // Nothing on the page comes from another host.
    for page in ["/", "/app.js", "/app.css"] {
        let (status, text) = s.request("GET", page, None);
        assert_eq!(status, 200, "{page}");
        for outside in ["http://", "https://", "//fonts.", "cdn"] {
            assert!(!text.contains(outside), "{page} refers to {outside}");
        }
    }
    let (status, words) = s.json("GET", "/api/words?lang=zh", None);
    assert_eq!(status, 200);
    assert_eq!(words["words"]["lang"], "zh");
    assert_eq!(words["drills"].as_array().map(Vec::len), Some(21));
    assert!(words["legend"][0]["svg"].as_str().is_some_and(|s| s.starts_with("<svg")));
}

#[test]
fn a_board_answers_in_the_laws_words() {
    let s = Server::start(&[]);
    let id = s.board(r#"{"fen": "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"}"#);
    let (status, v) = s.act(&id, r#"{"action": "click", "square": "e2"}"#);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["stage"], "selected");
    let targets: Vec<&str> = v["targets"].as_array().unwrap().iter().map(|t| t["square"].as_str().unwrap()).collect();
    assert!(targets.contains(&"e8") && !targets.contains(&"f2"), "{targets:?}");
    let (_, v) = s.act(&id, r#"{"action": "click", "square": "f2"}"#);
    let why = v["explanation"].to_string();
    assert!(why.contains("pinned") && why.contains("3.9.2"), "{why}");
    // The board carries its hooks: squares, pieces, targets.
    assert!(v["board"].as_str().is_some_and(|b| b.contains(r#"data-square="e2""#) && b.contains(r#"data-piece="wR""#)));
    let (_, v) = s.act(&id, r#"{"action": "move", "text": "Rxe8+"}"#);
    assert_eq!(v["stage"], "preview");
    assert!(v["preview"]["summary"].to_string().contains("Check"), "{}", v["preview"]);
    let (_, v) = s.act(&id, r#"{"action": "confirm"}"#);
    assert_eq!(v["moves"][0]["san"], "Rxe8+");
    // The explain mode without a board, for a site that embeds it.
    let (status, ex) = s.json(
        "POST",
        "/api/explain?lang=zh",
        Some(r#"{"position": {"fen": "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"}, "move": "Rf2"}"#),
    );
    assert_eq!(status, 200, "{ex}");
    assert_eq!(ex["legal"], false);
    assert_eq!(ex["reasons"][0]["code"], "exposes_king");
    assert!(ex["reasons"][0]["text"].as_str().is_some_and(|t| t.contains("牵制")), "{ex}");
    // Refusals a learner can meet on the page are worded in the page's language too.
    let (status, e) = s.json(
        "POST",
        &format!("/api/boards/{id}?lang=zh"),
        Some(r#"{"action": "set-position", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}"#),
    );
    assert_eq!(status, 400);
    assert!(e["error"].as_str().is_some_and(|t| t.contains("无法设置此局面") && t.contains("王")), "{e}");
    let (status, e) = s.json("POST", &format!("/api/boards/{id}?lang=zh"), Some(r#"{"action": "move", "text": " "}"#));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().is_some_and(|t| t.contains("请先输入着法")), "{e}");
    // In Chinese, the same board.
    let (_, v) = s.json("GET", &format!("/api/boards/{id}?lang=zh&flip=1"), None);
    assert!(v["status"][0].as_str().is_some_and(|t| t.contains("轮到黑方")), "{}", v["status"]);
    assert!(v["board"].as_str().is_some_and(|b| b.contains("黑方在下方")));
}

/// Every bad request gets a 4xx whose JSON names the problem, and the board is as it was.
#[test]
fn bad_requests_are_refused_by_name_and_change_nothing() {
    let s = Server::start(&[]);
    let id = s.board("");
    s.act(&id, r#"{"action": "move", "text": "e4"}"#);
    s.act(&id, r#"{"action": "confirm"}"#);
    let before = s.json("GET", &format!("/api/boards/{id}"), None).1["fen"].clone();
    let cases: &[(&str, &str, Option<&str>, u16, &str)] = &[
        ("POST", "board", Some(r#"{"action": "set-position", "fen": "8/8/8 w - - 0 1"}"#), 400, "3 ranks"),
        ("POST", "board", Some(r#"{"action": "set-position", "moves": ["e4", "e4"]}"#), 400, "move 2"),
        ("POST", "board", Some(r#"{"action": "click", "square": "i9"}"#), 400, "not a square"),
        ("POST", "board", Some(r#"{"action": "fly"}"#), 400, "unknown variant"),
        ("POST", "board", Some(r#"{"action": "click"}"#), 400, "square"),
        ("POST", "board", Some(r#"{"action": "click", "square": "e2", "x": 1}"#), 400, "unknown field"),
        ("POST", "board", Some("{not json"), 400, "bad JSON"),
        ("POST", "board", Some(""), 400, "send an action"),
        ("POST", "board", Some(r#"{"action": "confirm"}"#), 409, "no move in preview"),
        ("POST", "board", Some(r#"{"action": "promote", "piece": "king"}"#), 400, "unknown variant"),
        ("POST", "board", Some(r#"{"action": "new-game", "mode": "engine", "level": 99}"#), 400, "out of range"),
        ("POST", "board", Some(r#"{"action": "drill", "id": "nope"}"#), 400, "no drill"),
        ("POST", "board", Some(r#"{"action": "load-pgn", "pgn": "1. e4 e5 2. Ke3 *"}"#), 200, ""),
        ("POST", "board", Some(r#"{"action": "goto", "ply": 99999999999}"#), 200, ""),
        ("POST", "board", Some(r#"{"action": "play-on"}"#), 200, ""),
        ("GET", "/api/boards/0123", None, 404, "no board"),
        ("DELETE", "board", None, 405, "not allowed"),
        ("GET", "/api/boards?lang=xx", None, 400, "not a language"),
        ("GET", "/../Cargo.toml", None, 404, "no such page"),
        ("GET", "/src/main.rs", None, 404, "no such page"),
        ("GET", "/%2e%2e/%2e%2e/etc/passwd", None, 404, "no such page"),
        ("GET", "/etc/passwd", None, 404, "no such page"),
    ];
    for &(method, path, body, want, says) in cases {
        let path = if path == "board" { format!("/api/boards/{id}") } else { path.to_string() };
        let (status, text) = s.request(method, &path, body);
        assert_eq!(status, want, "{method} {path} {body:?}: {text}");
        assert!(text.contains(says), "{method} {path} {body:?}: {text} does not say {says:?}");
        if status >= 400 {
            let v: serde_json::Value = serde_json::from_str(&text).expect("a JSON error");
            assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{text}");
        }
    }
    // The bad requests changed nothing (the PGN review was left with play-on: same moves, one
    // legal prefix `1. e4 e5`, so compare the refusals' board with a fresh request).
    let id2 = s.board("");
    s.act(&id2, r#"{"action": "move", "text": "e4"}"#);
    s.act(&id2, r#"{"action": "confirm"}"#);
    for body in [r#"{"action": "set-position", "fen": "x"}"#, r#"{"action": "claim", "draw": "sometimes"}"#] {
        assert_eq!(s.act(&id2, body).0, 400);
    }
    assert_eq!(s.json("GET", &format!("/api/boards/{id2}"), None).1["fen"], before);
    // Without JSON's content type a body is refused (a cross-site form cannot send one).
    let undo = r#"{"action":"undo"}"#;
    let (status, _, body) = s.raw(
        format!(
            "POST /api/boards/{id2} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{undo}",
            undo.len()
        )
        .as_bytes(),
    );
    assert_eq!(status, 415, "{body}");
    // Too large: refused before it is read.
    let (status, _, body) = s.raw(
        format!("POST /api/boards/{id2} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\nConnection: close\r\n\r\n{{}}").as_bytes(),
    );
    assert_eq!(status, 413, "{body}");
}

/// Random bytes, broken HTTP and mutated actions: never a 5xx, never a crash; the server
/// still serves afterwards.
#[test]
fn a_hostile_stream_of_requests_is_survived() {
    let s = Server::start(&[]);
    let id = s.board("");
    let mut rng = Rng::new(0x5e7e);
    let valid = [
        r#"{"action": "click", "square": "e2"}"#,
        r#"{"action": "move", "text": "Nf3"}"#,
        r#"{"action": "claim", "draw": "threefold"}"#,
        r#"{"action": "set-position", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "moves": ["Qd7+"]}"#,
        r#"{"action": "load-pgn", "pgn": "[Event \"x\"]\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"}"#,
        r#"{"action": "new-game", "mode": "two-players", "from_current": true}"#,
        r#"{"action": "drill", "id": "threefold"}"#,
        r#"{"action": "resign", "side": "white"}"#,
    ];
    let alphabet = "{}[]\":,actionsquarefenmovee2e4 \\u0000\n1-0/KQkq";
    let mut server_errors = Vec::new();
    for i in 0..600 {
        let (status, body) = match i % 3 {
            0 => {
                let body = mutate(&mut rng, valid[i % valid.len()], alphabet);
                s.request("POST", &format!("/api/boards/{id}"), Some(&body))
            }
            1 => {
                let bytes = random_bytes(&mut rng, 300);
                let (status, _, body) = s.raw(&bytes);
                (status, body)
            }
            _ => {
                let path = mutate(&mut rng, &format!("/api/boards/{id}?lang=zh&flip=1"), "/?&=%.x0");
                s.request(if rng.below(2) == 0 { "GET" } else { "POST" }, &path, Some(valid[i % valid.len()]))
            }
        };
        if status >= 500 {
            server_errors.push(format!("{status}: {body}"));
        }
    }
    assert!(server_errors.is_empty(), "{server_errors:?}");
    let (status, v) = s.json("GET", &format!("/api/boards/{id}"), None);
    assert_eq!(status, 200, "the board survived: {v}");
    assert_eq!(s.request("GET", "/", None).0, 200);
}

/// Against Arbiter: the learner's move, Arbiter's reply in the background (the board answers
/// meanwhile), a take-back of both; the exported game read by python-chess.
#[test]
fn arbiter_replies_and_the_game_exports_as_pgn() {
    let s = Server::start(&[]);
    let id = s.board("");
    let (status, v) = s.act(&id, r#"{"action": "new-game", "mode": "engine", "human": "white", "level": 1500}"#);
    assert_eq!(status, 200, "{v}");
    s.act(&id, r#"{"action": "move", "text": "e4"}"#);
    let (_, v) = s.act(&id, r#"{"action": "confirm"}"#);
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(1));
    assert_eq!(s.act(&id, r#"{"action": "move", "text": "d4"}"#).0, 409, "Arbiter's turn");
    let start = Instant::now();
    let v = loop {
        let (_, v) = s.json("GET", &format!("/api/boards/{id}"), None);
        if v["moves"].as_array().map(Vec::len) == Some(2) || start.elapsed() > Duration::from_secs(60) {
            break v;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(2), "Arbiter replied: {v}");
    assert_eq!(v["thinking"], false);
    let (_, v) = s.act(&id, r#"{"action": "undo"}"#);
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0), "the learner's move and the reply are taken back");
    // A resignation against a bare king is a draw, and the record says so.
    s.act(&id, r#"{"action": "set-position", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "moves": ["Qd7+", "Kf8"]}"#);
    let (_, v) = s.act(&id, r#"{"action": "resign"}"#);
    assert_eq!(v["result"]["result"], "1/2-1/2", "{v}");
    let (status, pgn) = s.request("GET", &format!("/api/boards/{id}/pgn"), None);
    assert_eq!(status, 200);
    assert!(pgn.contains("[Result \"1/2-1/2\"]") && pgn.contains("[FEN \"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"]"), "{pgn}");
    if super::common::have_python() {
        let out = super::common::python_with_input(
            &[
                "-c",
                "import chess.pgn, io, sys; g = chess.pgn.read_game(io.StringIO(sys.stdin.read())); \
                 assert not g.errors, g.errors; print(g.headers['Result'], len(list(g.mainline_moves())), g.end().board().fen())",
            ],
            &pgn,
        )
        .expect("python3 runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.starts_with("1/2-1/2 2 5k2/3Q4/"), "python-chess read: {text}");
    }
}

/// The seeds' scenarios in a real browser (`tests/browser/board.py`): run where chromium,
/// chromedriver and Selenium are installed (`.ci/setup` installs them, and `.ci/run` sets
/// `ARBITER_BROWSER_TESTS=require`, so there a missing browser fails instead of skipping).
#[test]
fn the_seeds_scenarios_in_a_real_browser() {
    let required = std::env::var("ARBITER_BROWSER_TESTS").is_ok_and(|v| v == "require");
    let have = |cmd: &str, args: &[&str]| Command::new(cmd).args(args).output().is_ok_and(|o| o.status.success());
    let ready = have("python3", &["-c", "import selenium"])
        && std::path::Path::new("/usr/bin/chromium").exists()
        && std::path::Path::new("/usr/bin/chromedriver").exists();
    if !ready {
        assert!(!required, "ARBITER_BROWSER_TESTS=require, but chromium, chromedriver or selenium is missing");
        eprintln!("SKIPPED: chromium, chromedriver or python3-selenium not installed (bash .ci/setup installs them)");
        return;
    }
    let s = Server::start(&[]);
    let shots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-shots");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/browser/board.py");
    let out =
        Command::new("python3").args([script, &s.url(), shots.to_str().expect("path")]).output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}");
    assert!(out.status.success(), "browser scenarios failed (screenshots in {}):\n{stdout}\n{stderr}", shots.display());
}

/// The command line: another address than loopback is said on stderr; bad options stop the
/// server at once with the reason and exit status 2.
#[test]
fn the_command_line_warns_and_refuses() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--host", "0.0.0.0", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start arbiter serve");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let mut said = Vec::new();
    for line in lines.by_ref().map_while(Result::ok) {
        let started = line.starts_with("Arbiter's board:");
        said.push(line);
        if started {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(said.iter().any(|l| l.starts_with("warning:") && l.contains("other machines")), "{said:?}");
    for (args, says) in [
        (&["serve", "--lang", "fr"][..], "--lang 'fr'"),
        (&["serve", "--evalfile", "/nonexistent/net.nnue"][..], "nonexistent"),
        (&["serve", "--syzygy", "/nonexistent-dir"][..], "Syzygy"),
        (&["serve", "--move-time", "0"][..], "move-time"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Castling is the king moved two squares; in Chess960 the king onto its own rook; promotion
/// asks for the piece.
#[test]
fn castling_and_promotion_on_the_board() {
    let s = Server::start(&[]);
    let targets = |v: &serde_json::Value| -> Vec<String> {
        v["targets"].as_array().unwrap().iter().map(|t| t["square"].as_str().unwrap().to_string()).collect()
    };
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let id = s.board(&format!(r#"{{"fen": "{fen}"}}"#));
    let (_, v) = s.act(&id, r#"{"action": "click", "square": "e1"}"#);
    assert!(targets(&v).contains(&"g1".into()) && targets(&v).contains(&"c1".into()), "{:?}", targets(&v));
    let (_, v) = s.act(&id, r#"{"action": "click", "square": "g1"}"#);
    assert_eq!(v["preview"]["san"], "O-O", "{}", v["preview"]);
    assert!(v["preview"]["summary"].to_string().contains("castling"), "{}", v["preview"]);
    // Clicking the own rook selects it in standard chess.
    s.act(&id, r#"{"action": "cancel"}"#);
    s.act(&id, r#"{"action": "click", "square": "e1"}"#);
    let (_, v) = s.act(&id, r#"{"action": "click", "square": "h1"}"#);
    assert_eq!(v["selected"], "h1");
    // Chess960: the king onto its own rook.
    let id = s.board(&format!(r#"{{"fen": "{fen}", "chess960": true}}"#));
    let (_, v) = s.act(&id, r#"{"action": "click", "square": "e1"}"#);
    assert!(targets(&v).contains(&"h1".into()) && targets(&v).contains(&"a1".into()), "{:?}", targets(&v));
    let (_, v) = s.act(&id, r#"{"action": "click", "square": "a1"}"#);
    assert_eq!(v["preview"]["san"], "O-O-O", "{}", v["preview"]);
    let (_, v) = s.act(&id, r#"{"action": "confirm"}"#);
    assert_eq!(v["moves"][0]["uci"], "e1a1");
    // Promotion: the piece is asked, then previewed.
    let id = s.board(r#"{"fen": "8/k1P5/2p5/2K5/8/8/8/8 w - - 0 1"}"#);
    s.act(&id, r#"{"action": "click", "square": "c7"}"#);
    let (_, v) = s.act(&id, r#"{"action": "click", "square": "c8"}"#);
    assert_eq!(v["stage"], "promotion");
    let (_, v) = s.act(&id, r#"{"action": "promote", "piece": "queen"}"#);
    assert!(v["preview"]["summary"].to_string().contains("Stalemate"), "{}", v["preview"]);
}

/// With `--syzygy`, the tablebase panel gives the tables' value of the position on the board
/// in the page's language, after every move; it is empty where the tables do not reach.
#[test]
fn the_tablebase_panel_speaks_the_pages_language() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let s = Server::start(&["--syzygy", tables]);
    let id = s.board(r#"{"fen": "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"}"#);
    let (status, v) = s.json("GET", &format!("/api/boards/{id}"), None);
    assert_eq!(status, 200, "{v}");
    let lines = v["tablebase"].to_string();
    assert!(lines.contains("Syzygy") && lines.contains("win") && lines.contains("DTZ 17"), "{lines}");
    let (_, v) = s.json("GET", &format!("/api/boards/{id}?lang=zh"), None);
    let lines = v["tablebase"].to_string();
    assert!(lines.contains("残局库") && lines.contains("白方走棋：胜") && !lines.contains("win"), "{lines}");
    // After a move, the value of the new position, Black to move: a loss.
    let (_, _) = s.act(&id, r#"{"action": "move", "text": "Kb2"}"#);
    let (_, v) = s.act(&id, r#"{"action": "confirm"}"#);
    assert_eq!(v["moves"][0]["san"], "Kb2", "{v}");
    let lines = v["tablebase"].to_string();
    assert!(lines.contains("black to move: loss"), "{lines}");
    assert!(lines.contains("moves: Kf4 (DTZ -16), Kd5 (DTZ -16)") && lines.ends_with("Kd4 (DTZ -12)\"]"), "{lines}");
    // Out of the tables' reach: nothing to say.
    let id = s.board(r#"{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}"#);
    let (_, v) = s.json("GET", &format!("/api/boards/{id}"), None);
    assert!(v["tablebase"].as_array().is_some_and(|l| l.iter().all(|t| !t.to_string().contains("win"))), "{v}");
}
