//! Replays every session in `uci-scripts/` against the built binary and checks what a
//! GUI relies on (see uci-scripts/README.md for the directives).

use crate::common::Engine;
use arbiter::chess::notation::parse_uci_move;
use arbiter::chess::Position;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// The position a `position ...` line describes (the scripts only send valid ones
/// when they check a bestmove), castling written as UCI_Chess960 says.
fn position_of(line: &str, chess960: bool) -> Option<Position> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let moves_at = tokens.iter().position(|t| *t == "moves").unwrap_or(tokens.len());
    let mut pos = match tokens.get(1) {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&tokens[2..moves_at].join(" ")).ok()?,
        _ => return None,
    };
    pos.set_chess960(chess960);
    for m in tokens.iter().skip(moves_at + 1) {
        let mv = parse_uci_move(&pos, m).ok()?;
        pos = pos.make_move(mv);
    }
    Some(pos)
}

fn run_script(name: &str, text: &str) {
    arbiter::chess::attacks::init();
    let mut e = Engine::start();
    let mut pos = Position::startpos();
    let mut chess960 = false;
    let mut checked_upto = 0;
    let mut last_pv_start = 0;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let ctx = format!("{name}:{}", n + 1);
        if line.starts_with('#') {
            continue;
        }
        let (directive, arg) = match line.strip_prefix('%') {
            Some(rest) => {
                let mut it = rest.splitn(2, ' ');
                (Some(it.next().unwrap_or("")), it.next().unwrap_or("").to_string())
            }
            None => (None, String::new()),
        };
        match directive {
            None => {
                if let Some(v) = line.strip_prefix("setoption name UCI_Chess960 value ") {
                    chess960 = v.trim() == "true";
                }
                if line.starts_with("position") {
                    if let Some(p) = position_of(line, chess960) {
                        pos = p;
                    }
                }
                e.send(line);
            }
            Some("expect") => {
                e.wait_for(&format!("{ctx}: a line starting '{arg}'"), WAIT, |l| l.starts_with(arg.as_str()));
            }
            Some("contains") => {
                e.wait_for(&format!("{ctx}: a line containing '{arg}'"), WAIT, |l| l.contains(arg.as_str()));
            }
            Some("sleep") => std::thread::sleep(Duration::from_millis(arg.parse().expect("sleep ms"))),
            Some("no") => {
                // Drain what is already there, then check.
                while e.next_line(Duration::from_millis(20)).is_some() {}
                for l in &e.seen[checked_upto..] {
                    assert!(!l.contains(arg.as_str()), "{ctx}: unexpected line '{l}'");
                }
            }
            Some("bestmove-none") => {
                let l = e.wait_for(&format!("{ctx}: bestmove"), WAIT, |l| l.starts_with("bestmove"));
                assert_eq!(l.trim(), "bestmove 0000", "{ctx}");
            }
            Some(d @ ("bestmove" | "bestmove-is" | "bestmove-not")) => {
                let before = e.seen.len();
                let l = e.wait_for(&format!("{ctx}: bestmove"), WAIT, |l| l.starts_with("bestmove"));
                let words: Vec<&str> = l.split_whitespace().collect();
                let m = words.get(1).copied().unwrap_or("");
                let mv = parse_uci_move(&pos, m)
                    .unwrap_or_else(|err| panic!("{ctx}: illegal bestmove '{l}' in {}: {err}", pos.to_fen()));
                if words.len() >= 4 {
                    assert_eq!(words[2], "ponder", "{ctx}: {l}");
                    let child = pos.make_move(mv);
                    parse_uci_move(&child, words[3]).unwrap_or_else(|err| panic!("{ctx}: illegal ponder move: {err}"));
                }
                // The best move is the first move of the last reported PV.
                let start = before.max(last_pv_start);
                if let Some(info) = e.seen[start..].iter().rev().find(|l| l.starts_with("info") && l.contains(" pv ")) {
                    let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap_or("").split_whitespace().collect();
                    if info.contains("multipv 1 ") {
                        assert_eq!(pv.first().copied(), Some(m), "{ctx}: bestmove is not the PV's first move");
                    }
                }
                last_pv_start = e.seen.len();
                match d {
                    "bestmove-is" => assert_eq!(m, arg, "{ctx}"),
                    "bestmove-not" => assert_ne!(m, arg, "{ctx}"),
                    _ => {}
                }
            }
            Some(other) => panic!("{ctx}: unknown directive %{other}"),
        }
        if matches!(directive, Some(d) if d != "no" && d != "sleep") {
            checked_upto = e.seen.len();
        }
    }
    e.close_stdin();
    assert!(e.wait_exit(Duration::from_secs(10)), "{name}: engine did not exit after quit/EOF");
}

#[test]
fn replay_all_uci_scripts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/uci-scripts");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("uci-scripts dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 10);
    for f in files {
        let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
        let text = std::fs::read_to_string(&f).expect("read script");
        run_script(&name, &text);
    }
}
