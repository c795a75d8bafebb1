//! Opening books: EPD/FEN (one position per line) or PGN (the position after each game's
//! moves), taken in order or shuffled with a seed.

use crate::chess::fen::epd_fen;
use crate::chess::Position;
use crate::rules::pgn::read_pgn;
use std::fmt;
use std::path::Path;

#[derive(Debug)]
pub enum OpeningsError {
    Read { path: String, error: String },
    BadFen { line: usize, error: String },
    Pgn(String),
    Empty(String),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read { path, error } => write!(f, "cannot read openings file {path}: {error}"),
            OpeningsError::BadFen { line, error } => write!(f, "openings line {line}: {error}"),
            OpeningsError::Pgn(e) => write!(f, "openings PGN: {e}"),
            OpeningsError::Empty(p) => write!(f, "openings file {p} holds no position"),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// Reads a file of openings; PGN when the extension is `.pgn` or the text starts with a tag.
pub fn load(path: &Path) -> Result<Vec<Position>, OpeningsError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| OpeningsError::Read { path: path.display().to_string(), error: e.to_string() })?;
    let is_pgn = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")) || text.trim_start().starts_with('[');
    let v = if is_pgn { parse_pgn(&text)? } else { parse_epd(&text)? };
    if v.is_empty() {
        return Err(OpeningsError::Empty(path.display().to_string()));
    }
    Ok(v)
}

/// One FEN or EPD per line; `#` comments and blank lines skipped. EPD operations after the
/// four position fields are ignored (counters default to `0 1`).
pub fn parse_epd(text: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(fen) = epd_fen(line) else {
            return Err(OpeningsError::BadFen { line: i + 1, error: format!("'{line}' has fewer than 4 fields") });
        };
        let pos = Position::from_fen(&fen).map_err(|e| OpeningsError::BadFen { line: i + 1, error: e.to_string() })?;
        out.push(pos);
    }
    Ok(out)
}

/// The final position of every game in a PGN text (read by `rules::pgn::read_pgn`).
pub fn parse_pgn(text: &str) -> Result<Vec<Position>, OpeningsError> {
    let games = read_pgn(text).map_err(|e| OpeningsError::Pgn(e.to_string()))?;
    games.iter().map(|g| g.to_game().map(|g| *g.current()).map_err(|e| OpeningsError::Pgn(e.to_string()))).collect()
}

/// The 960 Chess960 start positions, by number (0-959; 518 is the standard array), in Chess960 mode.
pub fn chess960_starts() -> Vec<Position> {
    (0..crate::chess::chess960::COUNT).filter_map(crate::chess::chess960::start_position).collect()
}
