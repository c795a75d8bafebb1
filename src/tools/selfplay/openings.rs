//! Opening books: EPD/FEN (one position per line) or PGN (the position after each game's
//! moves), taken in order or shuffled with a seed.

use super::judge;
use crate::chess::{movegen, Position};
use std::fmt;
use std::path::Path;

#[derive(Debug)]
pub enum OpeningsError {
    Read { path: String, error: String },
    BadFen { line: usize, error: String },
    BadPgnMove { game: usize, text: String },
    Empty(String),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read { path, error } => write!(f, "cannot read openings file {path}: {error}"),
            OpeningsError::BadFen { line, error } => write!(f, "openings line {line}: {error}"),
            OpeningsError::BadPgnMove { game, text } => {
                write!(f, "openings PGN game {game}: '{text}' is not a legal move in standard algebraic notation")
            }
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
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(OpeningsError::BadFen { line: i + 1, error: format!("'{line}' has fewer than 4 fields") });
        }
        let counters = fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
        let fen = if counters { fields[..6].join(" ") } else { format!("{} 0 1", fields[..4].join(" ")) };
        let pos = Position::from_fen(&fen).map_err(|e| OpeningsError::BadFen { line: i + 1, error: e.to_string() })?;
        out.push(pos);
    }
    Ok(out)
}

/// The final position of every game in a PGN text (tags `FEN` honoured; comments, variations,
/// NAGs, move numbers and results skipped).
pub fn parse_pgn(text: &str) -> Result<Vec<Position>, OpeningsError> {
    let mut out = Vec::new();
    let mut pos: Option<Position> = None;
    let mut in_movetext = false;
    let mut game = 0;
    let mut depth_comment = false;
    let mut depth_variation = 0;
    for raw in text.lines() {
        let line = raw.trim();
        if !depth_comment && depth_variation == 0 && line.starts_with('[') {
            if in_movetext {
                if let Some(p) = pos.take() {
                    out.push(p);
                }
                in_movetext = false;
            }
            if pos.is_none() {
                game += 1;
                pos = Some(Position::startpos());
            }
            if let Some(rest) = line.strip_prefix("[FEN \"") {
                let fen = rest.trim_end_matches(']').trim_end_matches('"');
                let p =
                    Position::from_fen(fen).map_err(|e| OpeningsError::BadFen { line: game, error: e.to_string() })?;
                pos = Some(p);
            }
            continue;
        }
        if line.starts_with('%') || line.is_empty() && !in_movetext {
            continue;
        }
        let mut spaced = String::new();
        for c in line.chars() {
            if matches!(c, '{' | '}' | '(' | ')' | ';') {
                spaced.push(' ');
                spaced.push(c);
                spaced.push(' ');
            } else {
                spaced.push(c);
            }
        }
        for w in spaced.split_whitespace() {
            if depth_comment {
                if w == "}" {
                    depth_comment = false;
                }
                continue;
            }
            match w {
                "{" => depth_comment = true,
                ";" => break,
                "(" => depth_variation += 1,
                ")" => depth_variation -= 1,
                _ if depth_variation > 0 => {}
                "1-0" | "0-1" | "1/2-1/2" | "*" => {
                    if let Some(p) = pos.take() {
                        out.push(p);
                    }
                    in_movetext = false;
                }
                _ => {
                    if pos.is_none() {
                        game += 1;
                        pos = Some(Position::startpos());
                    }
                    in_movetext = true;
                    let token = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    if token.is_empty() || token.starts_with('$') {
                        continue;
                    }
                    let Some(p) = pos.as_mut() else { continue };
                    let m =
                        find_san(p, token).ok_or_else(|| OpeningsError::BadPgnMove { game, text: w.to_string() })?;
                    *p = p.make_move(m);
                }
            }
        }
    }
    if let Some(p) = pos {
        if in_movetext {
            out.push(p);
        }
    }
    Ok(out)
}

/// The legal move whose SAN is `text` (check marks and annotations ignored).
fn find_san(pos: &Position, text: &str) -> Option<crate::chess::Move> {
    let clean = |s: &str| s.trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
    let want = clean(text);
    movegen::legal_moves(pos).iter().copied().find(|&m| clean(&judge::san(pos, m)) == want)
}

/// SplitMix64: a tiny seeded generator for shuffling (no dependency needed).
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}
