//! Cross-check against python-chess (a test oracle only): legality verdicts, check,
//! checkmate, stalemate, insufficient material, fivefold, seventy-five moves, legal move
//! counts and SAN in both directions, on positions from seeded random games.
//!
//! Skipped with a clear message when `python3 -c 'import chess'` fails (CI installs it:
//! `pip install chess`). ORACLE_POSITIONS and ORACLE_SEED override the defaults.

use crate::common::oracle::{arbiter_says_legal, assert_no_mismatches, check_played_move, python_chess_output};
use arbiter::chess::movegen;
use arbiter::chess::notation::parse_uci_squares;
use arbiter::rules::Game;

#[test]
fn agrees_with_python_chess() {
    let positions = std::env::var("ORACLE_POSITIONS").unwrap_or_else(|_| "10000".into());
    let seed = std::env::var("ORACLE_SEED").unwrap_or_else(|_| "1".into());
    let Some(text) = python_chess_output("oracle test", "gen_cases.py", &["--positions", &positions, "--seed", &seed])
    else {
        return;
    };
    let mut game = Game::startpos();
    let (mut checked, mut probes, mut illegal_probes, mut mismatches) = (0usize, 0usize, 0usize, Vec::<String>::new());
    let mut seen = [0usize; 6];
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["G", fen] => game = Game::from_fen_and_moves::<&str>(Some(fen), &[]).expect("oracle FEN"),
            ["M", uci, san, flags @ ..] if flags.len() == 9 => {
                let before = *game.current();
                let (from, to, promo) = parse_uci_squares(uci).expect("uci");
                let Some(m) = movegen::find_move(&before, from, to, promo) else {
                    mismatches.push(format!("{}: python plays {uci}, Arbiter says illegal", before.to_fen()));
                    break;
                };
                check_played_move(&game, m, uci, san, &mut mismatches);
                game.play(m).expect("legal");
                let r = game.report();
                let ours = [
                    !r.checkers.is_empty(),
                    r.checkmate,
                    r.stalemate,
                    r.insufficient_material,
                    r.repetitions >= 5,
                    r.halfmove_clock >= 150 && r.legal_moves > 0,
                ];
                for (i, name) in
                    ["check", "checkmate", "stalemate", "insufficient", "fivefold", "seventy-five"].iter().enumerate()
                {
                    let theirs = flags[i] == "1";
                    seen[i] += theirs as usize;
                    if theirs != ours[i] {
                        mismatches.push(format!("{}: {name}: python {theirs}, Arbiter {}", r.fen, ours[i]));
                    }
                }
                if flags[6] != r.legal_moves.to_string() {
                    mismatches.push(format!("{}: legal moves python {} Arbiter {}", r.fen, flags[6], r.legal_moves));
                }
                let theirs = flags[8] == "1";
                let says = arbiter_says_legal(&game, flags[7], &mut mismatches);
                illegal_probes += usize::from(!theirs);
                if says != theirs {
                    mismatches.push(format!("{}: probe {}: python legal={theirs}", r.fen, flags[7]));
                }
                probes += 1;
                checked += 1;
            }
            _ => panic!("bad oracle line: {line}"),
        }
    }
    eprintln!(
        "oracle: {checked} positions, {probes} probe moves ({illegal_probes} illegal), {} mismatches; python-chess saw check {}, mate {}, \
         stalemate {}, insufficient {}, fivefold {}, seventy-five {}",
        mismatches.len(),
        seen[0],
        seen[1],
        seen[2],
        seen[3],
        seen[4],
        seen[5]
    );
    assert!(checked >= 1000, "too few positions checked: {checked}");
    assert_no_mismatches(&mismatches);
}
