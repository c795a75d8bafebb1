//! Game records (`selfplay --records FILE`) and the training data made from them.
//!
//! A record is one line per game: `START-FEN | RESULT | MOVE SCORE MOVE SCORE ...`, every move
//! in UCI notation followed by the score its engine gave (centipawns, or `#N` for mate in N,
//! from the mover's side; `-` for none), RESULT `1.0`, `0.5` or `0.0` from White's side. It
//! holds everything training data is made of, so the data lines (`--datagen`'s
//! `FEN | score-cp-from-White | result`) are a function of it, [`lines::write`]: `--datagen`
//! writes them so, and `arbiter train` / `arbiter texel` make them from a `.games` file when
//! they read one. A record compresses (xz) to a few bytes a move, where the data lines take
//! about 70 bytes a position: the project keeps its self-play data as records (docs/nnue.md).

use super::lines;
use crate::chess::{notation, FenError, Move, Position};
use crate::engine::Score;
use std::fmt;
use std::path::Path;

/// Plies at the start of a game that give no training data (the opening book's and the
/// first moves after it, alike in many games): `selfplay --datagen-skip`'s default, and what
/// a `.games` file is expanded with.
pub const DEFAULT_SKIP_PLIES: u32 = 8;

/// The extension of a file of game records: read as the data lines it expands to.
const RECORDS_EXTENSION: &str = "games";

/// A game as its record gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub start: Position,
    /// `1.0`, `0.5` or `0.0`: White's points.
    pub result: &'static str,
    /// Each move with the score its engine gave, from the mover's side.
    pub moves: Vec<(Move, Option<Score>)>,
}

/// A record line that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Fewer than three `|`-separated fields.
    Fields,
    Fen(FenError),
    Result(String),
    /// Move `ply` (1-based) is not a legal move of its position.
    Move {
        ply: usize,
        text: String,
    },
    /// The score after move `ply` is not a number, `#N` or `-` (or is missing).
    Score {
        ply: usize,
        text: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Fields => write!(f, "a game record is 'FEN | result | moves and scores'"),
            RecordError::Fen(e) => write!(f, "bad start FEN: {e}"),
            RecordError::Result(t) => write!(f, "bad result '{t}' (1.0, 0.5 or 0.0)"),
            RecordError::Move { ply, text } => write!(f, "ply {ply}: '{text}' is not a legal move"),
            RecordError::Score { ply, text } => write!(f, "ply {ply}: bad score '{text}' (centipawns, #N or -)"),
        }
    }
}

impl std::error::Error for RecordError {}

/// White's points (1, ½ or 0) as the data lines and records write them.
pub fn result_text(white_points: f64) -> &'static str {
    match white_points {
        p if p > 0.75 => "1.0",
        p if p < 0.25 => "0.0",
        _ => "0.5",
    }
}

fn score_text(score: Option<Score>) -> String {
    match score {
        Some(Score::Cp(cp)) => cp.to_string(),
        Some(Score::Mate(n)) => format!("#{n}"),
        None => "-".to_string(),
    }
}

fn parse_score(text: &str) -> Option<Option<Score>> {
    match text {
        "-" => Some(None),
        _ => match text.strip_prefix('#') {
            Some(n) => n.parse().ok().map(|n| Some(Score::Mate(n))),
            None => text.parse().ok().map(|cp| Some(Score::Cp(cp))),
        },
    }
}

/// The record of a finished game, one line with its newline: the start position as given,
/// the result ([`result_text`]) and every move with its engine's score.
pub fn record_line(start_fen: &str, result: &str, moves: impl IntoIterator<Item = (Move, Option<Score>)>) -> String {
    let mut line = format!("{start_fen} | {result} |");
    for (mv, score) in moves {
        line.push(' ');
        line.push_str(&mv.to_uci());
        line.push(' ');
        line.push_str(&score_text(score));
    }
    line.push('\n');
    line
}

/// Reads a record line.
pub fn parse_record(line: &str) -> Result<GameLine, RecordError> {
    let mut fields = line.splitn(3, '|').map(str::trim);
    let (Some(fen), Some(result), Some(moves)) = (fields.next(), fields.next(), fields.next()) else {
        return Err(RecordError::Fields);
    };
    let start = Position::from_fen(fen).map_err(RecordError::Fen)?;
    let result = match result {
        "1.0" => "1.0",
        "0.5" => "0.5",
        "0.0" => "0.0",
        other => return Err(RecordError::Result(other.to_string())),
    };
    let mut pos = start;
    let mut out = Vec::new();
    let mut tokens = moves.split_whitespace();
    while let Some(text) = tokens.next() {
        let ply = out.len() + 1;
        let mv = notation::parse_uci_move(&pos, text).map_err(|_| RecordError::Move { ply, text: text.to_string() })?;
        let score_token = tokens.next().unwrap_or("");
        let score =
            parse_score(score_token).ok_or_else(|| RecordError::Score { ply, text: score_token.to_string() })?;
        out.push((mv, score));
        pos = pos.make_move(mv);
    }
    Ok(GameLine { start, result, moves: out })
}

/// The training data of a finished game ([`lines::write`]).
pub fn data_lines_of(
    start_fen: &str,
    result: &str,
    moves: impl IntoIterator<Item = (Move, Option<Score>)>,
    skip: u32,
) -> Result<String, RecordError> {
    let start = Position::from_fen(start_fen).map_err(RecordError::Fen)?;
    let mut out = String::new();
    lines::write(&start, moves, result, skip, &mut out);
    Ok(out)
}

/// The data lines of a file of records (`skip` as in [`lines::write`]), and how many of its
/// non-empty lines were not records.
pub fn expand(text: &str, skip: u32) -> (String, usize) {
    expand_with(text, skip, false)
}

/// [`expand`], with a blank line after each game's lines when `game_ends`: consecutive
/// games can follow on in move numbers, and [`lines::games`] must not merge them (the
/// training's validation split is by game).
fn expand_with(text: &str, skip: u32, game_ends: bool) -> (String, usize) {
    let mut out = String::new();
    let mut bad = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match parse_record(line) {
            Ok(g) => {
                lines::write(&g.start, g.moves, g.result, skip, &mut out);
                if game_ends {
                    out.push('\n');
                }
            }
            Err(e) => {
                log::debug!("not a game record ({e}): {line}");
                bad += 1;
            }
        }
    }
    (out, bad)
}

/// A training data file as data lines: a `.games` file of records is expanded (with
/// [`DEFAULT_SKIP_PLIES`], a blank line after each game), any other is read as data lines.
/// Bytes that are not UTF-8 (a damaged file) make malformed lines, not a refusal.
pub fn read_data_file(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    let text = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    if path.extension().is_some_and(|e| e == RECORDS_EXTENSION) {
        let (lines, bad) = expand_with(&text, DEFAULT_SKIP_PLIES, true);
        if bad > 0 {
            log::warn!("{}: {bad} lines are not game records (skipped)", path.display());
        }
        Ok(lines)
    } else {
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored_moves(start: &str, moves: &[(&str, Option<Score>)]) -> Vec<(Move, Option<Score>)> {
        let mut pos = Position::from_fen(start).expect("fen");
        let mut played = Vec::new();
        for &(text, score) in moves {
            let mv = notation::parse_uci_move(&pos, text).expect("legal");
            played.push((mv, score));
            pos = pos.make_move(mv);
        }
        played
    }

    #[test]
    fn a_record_round_trips_and_gives_the_data_lines() {
        crate::chess::attacks::init();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let moves = [
            ("e2e4", Some(Score::Cp(30))),
            ("e7e5", Some(Score::Cp(-25))),
            ("g1f3", None),
            ("b8c6", Some(Score::Cp(-20))),
            ("f1b5", Some(Score::Cp(35))),
            ("a7a6", Some(Score::Mate(-9))),
            ("b5c6", Some(Score::Cp(40))),
            ("d7c6", Some(Score::Cp(-38))),
        ];
        let played = scored_moves(start, &moves);
        let line = record_line(start, result_text(1.0), played.iter().copied());
        assert_eq!(
            line,
            format!("{start} | 1.0 | e2e4 30 e7e5 -25 g1f3 - b8c6 -20 f1b5 35 a7a6 #-9 b5c6 40 d7c6 -38\n")
        );
        let g = parse_record(&line).expect("parses");
        assert_eq!(g.start, Position::from_fen(start).unwrap());
        assert_eq!(g.result, "1.0");
        assert_eq!(g.moves, played);
        // Skip 2: e2e4 and e7e5 are skipped; g1f3 has no score, a7a6 a mate score, b5c6 and
        // d7c6 are captures. Left: b8c6 (Black's -20 is +20 for White) and f1b5, each with the
        // position it was played in.
        let mut out = String::new();
        lines::write(&g.start, g.moves.iter().copied(), g.result, 2, &mut out);
        assert_eq!(
            out,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 | 20 | 1.0\n\
             r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 35 | 1.0\n"
        );
        assert_eq!(data_lines_of(start, "1.0", played, 2).unwrap(), out);
        assert_eq!(expand(&format!("{line}\nnot a record\n"), 2), (out, 1));
    }

    #[test]
    fn bad_records_are_refused_with_the_reason() {
        crate::chess::attacks::init();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(parse_record("no fields"), Err(RecordError::Fields));
        assert!(matches!(parse_record("not a fen | 1.0 | e2e4 1"), Err(RecordError::Fen(_))));
        assert_eq!(parse_record(&format!("{start} | 2.0 | e2e4 1")), Err(RecordError::Result("2.0".into())));
        assert_eq!(
            parse_record(&format!("{start} | 0.5 | e2e4 1 e2e4 1")),
            Err(RecordError::Move { ply: 2, text: "e2e4".into() })
        );
        assert_eq!(parse_record(&format!("{start} | 0.5 | e2e4")), Err(RecordError::Score { ply: 1, text: "".into() }));
        assert_eq!(
            parse_record(&format!("{start} | 0.5 | e2e4 #x")),
            Err(RecordError::Score { ply: 1, text: "#x".into() })
        );
        assert_eq!(parse_record(&format!("{start} | 0.5 |")).map(|g| g.moves.len()), Ok(0));
    }
}
