//! Move text: UCI long algebraic (`e2e4`, `e7e8q`, `e1g1`) in both directions.
//! SAN lives here too once written (see `san` functions).

use super::movegen;
use super::position::Position;
use super::types::{Move, PieceType, Square};
use std::fmt;

/// Why a UCI move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciMoveError {
    /// Not of the form `<from><to>[promotion]`.
    Malformed(String),
    /// Well-formed but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Malformed(s) => write!(f, "'{s}' is not a move in UCI notation (like e2e4 or e7e8q)"),
            UciMoveError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
        }
    }
}

impl std::error::Error for UciMoveError {}

/// Splits UCI text into squares and promotion piece, without looking at a position.
pub fn parse_uci_squares(text: &str) -> Option<(Square, Square, Option<PieceType>)> {
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return None;
    }
    let from = Square::parse(&text[0..2])?;
    let to = Square::parse(&text[2..4])?;
    let promo = match text.len() {
        5 => match PieceType::from_char(text.as_bytes()[4] as char)? {
            PieceType::Pawn | PieceType::King => return None,
            p => Some(p),
        },
        _ => None,
    };
    Some((from, to, promo))
}

/// Parses a UCI move and checks it is legal in `pos`.
pub fn parse_uci_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    let (from, to, promo) = parse_uci_squares(text).ok_or_else(|| UciMoveError::Malformed(text.to_string()))?;
    movegen::find_move(pos, from, to, promo).ok_or_else(|| UciMoveError::Illegal(text.to_string()))
}
