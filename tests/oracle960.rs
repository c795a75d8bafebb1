//! Chess960 against python-chess (`chess960=True`, a test oracle only): the start position
//! of every number 0-959, and on seeded random games from random start positions the legal
//! move lists (castling written king takes own rook), X-FEN output, SAN in both directions,
//! and the explain mode's verdict on the move played and on a probe move (often a castling
//! attempt).
//!
//! Skipped with a clear message when `python3 -c 'import chess'` fails (CI installs it).
//! ORACLE960_GAMES and ORACLE960_SEED override the defaults.

use arbiter::chess::notation::{parse_san, parse_uci_move, to_san};
use arbiter::chess::{chess960, movegen, Position};
use arbiter::explain::explain;
use arbiter::rules::Game;
use std::process::Command;

fn python_chess_available() -> bool {
    Command::new("python3").args(["-c", "import chess"]).output().map(|o| o.status.success()).unwrap_or(false)
}

#[test]
fn agrees_with_python_chess_on_chess960() {
    if !python_chess_available() {
        eprintln!("SKIPPED Chess960 oracle test: python3 with python-chess not found (pip install chess)");
        return;
    }
    let games = std::env::var("ORACLE960_GAMES").unwrap_or_else(|_| "60".into());
    let seed = std::env::var("ORACLE960_SEED").unwrap_or_else(|_| "1".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/gen_960.py");
    let out = Command::new("python3")
        .args([script, "--games", &games, "--seed", &seed])
        .output()
        .expect("run the Chess960 oracle script");
    assert!(out.status.success(), "oracle script failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut game = Game::new(Position::startpos());
    let mut mismatches: Vec<String> = Vec::new();
    let (mut starts, mut positions, mut castlings, mut probes) = (0, 0, 0, 0);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["S", n, fen] => {
                let n: u16 = n.parse().expect("number");
                if chess960::start_fen(n).as_deref() != Some(*fen) {
                    mismatches.push(format!("start {n}: python {fen}, Arbiter {:?}", chess960::start_fen(n)));
                }
                starts += 1;
            }
            ["G", fen] => {
                let mut start = Position::from_fen(fen).expect("oracle FEN");
                start.set_chess960(true);
                game = Game::new(start);
            }
            ["P", moves, fen] => {
                let pos = game.current();
                let mut ours: Vec<String> = movegen::legal_moves(pos).iter().map(|m| m.to_uci()).collect();
                ours.sort();
                if ours.join(" ") != *moves {
                    mismatches.push(format!(
                        "{}: legal moves\n  python  {moves}\n  Arbiter {}",
                        pos.to_fen(),
                        ours.join(" ")
                    ));
                }
                if pos.to_fen() != *fen {
                    mismatches.push(format!("FEN: python {fen}, Arbiter {}", pos.to_fen()));
                }
                positions += 1;
            }
            ["M", uci, san, probe, probe_legal] => {
                let pos = *game.current();
                let Ok(m) = parse_uci_move(&pos, uci) else {
                    mismatches.push(format!("{}: python plays {uci}, Arbiter says illegal", pos.to_fen()));
                    break;
                };
                castlings += usize::from(m.is_castling());
                if to_san(&pos, m) != *san {
                    mismatches.push(format!(
                        "{}: SAN of {uci}: python {san}, Arbiter {}",
                        pos.to_fen(),
                        to_san(&pos, m)
                    ));
                }
                if parse_san(&pos, san).ok() != Some(m) {
                    mismatches.push(format!("{}: Arbiter does not read python's SAN {san} as {uci}", pos.to_fen()));
                }
                if game.outcome().is_none() {
                    for text in [*uci, *san] {
                        let ex = explain(&game, text);
                        if ex.legal.as_ref().map(|l| l.mv) != Some(m) {
                            mismatches.push(format!("{}: explain {text}: {:?}", pos.to_fen(), ex.codes()));
                        }
                    }
                    let ex = explain(&game, probe);
                    let theirs = *probe_legal == "1";
                    if ex.legal.is_some() != theirs {
                        mismatches.push(format!(
                            "{}: probe {probe}: python {theirs}, explain {:?}",
                            pos.to_fen(),
                            ex.codes()
                        ));
                    }
                    for lang in [arbiter::explain::Lang::En, arbiter::explain::Lang::Zh] {
                        let lines = arbiter::explain::text::render_explanation(&ex, lang);
                        if lines.iter().any(|l| l.trim().is_empty()) {
                            mismatches.push(format!("{}: probe {probe}: empty text line", pos.to_fen()));
                        }
                    }
                    if !theirs && ex.reasons.is_empty() {
                        mismatches.push(format!("{}: probe {probe}: illegal without a reason", pos.to_fen()));
                    }
                    probes += 1;
                }
                game.play(m).expect("legal");
            }
            _ => panic!("bad oracle line: {line}"),
        }
    }
    eprintln!(
        "oracle 960: {starts} start positions, {positions} positions, {castlings} castlings played, {probes} probes, \
         {} mismatches",
        mismatches.len()
    );
    assert_eq!(starts, 960);
    assert!(positions >= 1000 && castlings >= 20, "too little exercised: {positions} positions, {castlings} castlings");
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first ones:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}
