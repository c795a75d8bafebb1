//! Chess960 against python-chess (`chess960=True`, a test oracle only): the start position
//! of every number 0-959, and on seeded random games from random start positions the legal
//! move lists (castling written king takes own rook), X-FEN output, SAN in both directions,
//! and the explain mode's verdict on the move played and on a probe move (often a castling
//! attempt).
//!
//! Skipped with a clear message when `python3 -c 'import chess'` fails (CI installs it).
//! ORACLE960_GAMES and ORACLE960_SEED override the defaults.

use crate::common::oracle::{arbiter_says_legal, assert_no_mismatches, check_played_move, python_chess_output};
use arbiter::chess::notation::parse_uci_move;
use arbiter::chess::{chess960, movegen, Position};
use arbiter::rules::Game;

#[test]
fn agrees_with_python_chess_on_chess960() {
    let games = std::env::var("ORACLE960_GAMES").unwrap_or_else(|_| "60".into());
    let seed = std::env::var("ORACLE960_SEED").unwrap_or_else(|_| "1".into());
    let Some(text) = python_chess_output("Chess960 oracle test", "gen_960.py", &["--games", &games, "--seed", &seed])
    else {
        return;
    };
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
                check_played_move(&game, m, uci, san, &mut mismatches);
                if game.outcome().is_none() {
                    let theirs = *probe_legal == "1";
                    if arbiter_says_legal(&game, probe, &mut mismatches) != theirs {
                        mismatches.push(format!("{}: probe {probe}: python legal={theirs}", pos.to_fen()));
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
    assert_no_mismatches(&mismatches);
}
