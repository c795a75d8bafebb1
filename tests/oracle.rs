//! Cross-check against python-chess (a test oracle only): legality verdicts, check,
//! checkmate, stalemate, insufficient material, fivefold, seventy-five moves, legal move
//! counts and SAN in both directions, on positions from seeded random games.
//!
//! Skipped with a clear message when `python3 -c 'import chess'` fails (CI installs it:
//! `pip install chess`). ORACLE_POSITIONS and ORACLE_SEED override the defaults.

use arbiter::chess::movegen;
use arbiter::chess::notation::{parse_san, parse_uci_squares, to_san};
use arbiter::explain::explain;
use arbiter::rules::Game;
use std::process::Command;

fn python_chess_available() -> bool {
    Command::new("python3").args(["-c", "import chess"]).output().map(|o| o.status.success()).unwrap_or(false)
}

/// The explain mode's verdict for a move text, checked for consistency: an illegal move
/// has at least one reason and only illegal-move codes; a legal one has none of those.
fn arbiter_says_legal(game: &Game, text: &str, problems: &mut Vec<String>) -> bool {
    let ex = explain(game, text);
    for lang in [arbiter::explain::Lang::En, arbiter::explain::Lang::Zh] {
        if arbiter::explain::text::render_explanation(&ex, lang).iter().any(|l| l.trim().is_empty()) {
            problems.push(format!("{}: {text}: empty text line", game.current().to_fen()));
        }
    }
    let illegal_codes = ex.reasons.iter().filter(|r| r.code().is_illegal()).count();
    if ex.is_legal() && illegal_codes > 0 {
        problems.push(format!("{}: {text} legal but with codes {:?}", game.current().to_fen(), ex.codes()));
    }
    if !ex.is_legal() && (illegal_codes == 0 || illegal_codes != ex.reasons.len()) {
        problems.push(format!("{}: {text} illegal with codes {:?}", game.current().to_fen(), ex.codes()));
    }
    let by_movegen =
        parse_uci_squares(text).and_then(|(f, t, p)| movegen::find_move(game.current(), f, t, p)).is_some()
            && game.outcome().is_none();
    if by_movegen != ex.is_legal() {
        problems.push(format!(
            "{}: {text}: explain says {}, movegen {by_movegen}",
            game.current().to_fen(),
            ex.is_legal()
        ));
    }
    // The verdict apart from the game having ended (python-chess lets play go on after
    // a dead position or seventy-five moves): no reason other than `game_over`.
    !ex.reasons.iter().any(|r| r.code().is_illegal() && r.code() != arbiter::explain::ReasonCode::GameOver)
}

#[test]
fn agrees_with_python_chess() {
    if !python_chess_available() {
        eprintln!("SKIPPED oracle test: python3 with python-chess not found (pip install chess)");
        return;
    }
    let positions = std::env::var("ORACLE_POSITIONS").unwrap_or_else(|_| "10000".into());
    let seed = std::env::var("ORACLE_SEED").unwrap_or_else(|_| "1".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/gen_cases.py");
    let out = Command::new("python3")
        .args([script, "--positions", &positions, "--seed", &seed])
        .output()
        .expect("run the oracle script");
    assert!(out.status.success(), "oracle script failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let mut game = Game::startpos();
    let (mut checked, mut probes, mut illegal_probes, mut mismatches) = (0usize, 0usize, 0usize, Vec::<String>::new());
    let mut seen = [0usize; 6];
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["G", fen] => game = Game::from_fen_and_moves::<&str>(Some(fen), &[]).expect("oracle FEN"),
            ["M", uci, san, flags @ ..] if flags.len() == 9 => {
                let before = *game.current();
                let before_game_over = game.outcome();
                let (from, to, promo) = parse_uci_squares(uci).expect("uci");
                let Some(m) = movegen::find_move(&before, from, to, promo) else {
                    mismatches.push(format!("{}: python plays {uci}, Arbiter says illegal", before.to_fen()));
                    break;
                };
                let ours = to_san(&before, m);
                if ours != *san {
                    mismatches.push(format!("{}: SAN of {uci}: python {san}, Arbiter {ours}", before.to_fen()));
                }
                // The explain mode reads python's SAN as the same legal move (unless the game is over).
                if before_game_over.is_none() {
                    let ex = explain(&game, san);
                    if !ex.is_legal() || ex.legal_move() != Some(m) {
                        mismatches.push(format!("{}: explain {san}: {:?}", before.to_fen(), ex.codes()));
                    }
                }
                if parse_san(&before, san).ok() != Some(m) {
                    mismatches.push(format!("{}: Arbiter does not read python's SAN {san} as {uci}", before.to_fen()));
                }
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
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first ones:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}
