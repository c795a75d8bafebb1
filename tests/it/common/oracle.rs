//! What the python-chess cross-checks (`tests/oracle.rs`, standard; `tests/oracle960.rs`,
//! Chess960) share: running the oracle script, the checks on a move python-chess played
//! and on a probe move it judged, and the final verdict.

use arbiter::chess::movegen;
use arbiter::chess::notation::{parse_san, parse_uci_squares, to_san};
use arbiter::chess::Move;
use arbiter::explain::{explain, text::render_explanation, Lang, ReasonCode};
use arbiter::rules::Game;
use std::process::Command;

/// The output of `tests/oracle/SCRIPT ARGS...`, or `None` (with a SKIPPED line naming
/// `what`) when python3 with python-chess is not installed (CI installs it: `pip install chess`).
pub fn python_chess_output(what: &str, script: &str, args: &[&str]) -> Option<String> {
    let available =
        Command::new("python3").args(["-c", "import chess"]).output().map(|o| o.status.success()).unwrap_or(false);
    if !available {
        eprintln!("SKIPPED {what}: python3 with python-chess not found (pip install chess)");
        return None;
    }
    let path = format!("{}/tests/oracle/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3").arg(&path).args(args).output().expect("run the oracle script");
    assert!(out.status.success(), "oracle script {script} failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).expect("utf-8"))
}

/// The move python-chess played (`uci`, its SAN `san`), found by Arbiter as `m`: Arbiter writes
/// the same SAN, reads it back as `m`, and (unless the game is over) the explain mode reads
/// both texts as `m`.
pub fn check_played_move(game: &Game, m: Move, uci: &str, san: &str, problems: &mut Vec<String>) {
    let pos = game.current();
    let ours = to_san(pos, m);
    if ours != san {
        problems.push(format!("{}: SAN of {uci}: python {san}, Arbiter {ours}", pos.to_fen()));
    }
    if parse_san(pos, san).ok() != Some(m) {
        problems.push(format!("{}: Arbiter does not read python's SAN {san} as {uci}", pos.to_fen()));
    }
    if game.outcome().is_none() {
        for text in [uci, san] {
            let ex = explain(game, text);
            if ex.legal_move() != Some(m) {
                problems.push(format!("{}: explain {text}: {:?}", pos.to_fen(), ex.codes()));
            }
        }
    }
}

/// The explain mode's verdict for a move text, checked for consistency: its text has no
/// empty line in any language, an illegal move has at least one reason and only
/// illegal-move codes, a legal one has none of those, and the move generator agrees.
/// Returns the verdict apart from the game having ended (python-chess lets play go on after
/// a dead position or seventy-five moves): no reason other than `game_over`.
pub fn arbiter_says_legal(game: &Game, text: &str, problems: &mut Vec<String>) -> bool {
    let fen = game.current().to_fen();
    let ex = explain(game, text);
    for lang in Lang::ALL {
        if render_explanation(&ex, lang).iter().any(|l| l.trim().is_empty()) {
            problems.push(format!("{fen}: {text}: empty text line"));
        }
    }
    let illegal_codes = ex.reasons.iter().filter(|r| r.code().is_illegal()).count();
    if ex.is_legal() && illegal_codes > 0 {
        problems.push(format!("{fen}: {text} legal but with codes {:?}", ex.codes()));
    }
    if !ex.is_legal() && (illegal_codes == 0 || illegal_codes != ex.reasons.len()) {
        problems.push(format!("{fen}: {text} illegal with codes {:?}", ex.codes()));
    }
    let by_movegen =
        parse_uci_squares(text).and_then(|(f, t, p)| movegen::find_move(game.current(), f, t, p)).is_some()
            && game.outcome().is_none();
    if by_movegen != ex.is_legal() {
        problems.push(format!("{fen}: {text}: explain says {}, movegen {by_movegen}", ex.is_legal()));
    }
    !ex.reasons.iter().any(|r| r.code().is_illegal() && r.code() != ReasonCode::GameOver)
}

/// Fails with the first mismatches, if any.
pub fn assert_no_mismatches(mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first ones:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}
