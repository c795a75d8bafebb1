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
    match parse_uci_lenient(text)? {
        (_, _, Some(PieceType::Pawn | PieceType::King)) => None,
        squares => Some(squares),
    }
}

/// UCI-like text (`e2e4`, `e7e8q`) read leniently: a promotion letter of any piece is
/// accepted (the explain mode explains `e7e8k` as a bad promotion piece).
pub fn parse_uci_lenient(text: &str) -> Option<(Square, Square, Option<PieceType>)> {
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return None;
    }
    let from = Square::parse(&text[0..2])?;
    let to = Square::parse(&text[2..4])?;
    let promo = match text.len() {
        5 => Some(PieceType::from_char(text.as_bytes()[4] as char)?),
        _ => None,
    };
    Some((from, to, promo))
}

/// Parses a UCI move and checks it is legal in `pos`.
pub fn parse_uci_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    let (from, to, promo) = parse_uci_squares(text).ok_or_else(|| UciMoveError::Malformed(text.to_string()))?;
    movegen::find_move(pos, from, to, promo).ok_or_else(|| UciMoveError::Illegal(text.to_string()))
}

// ---------------------------------------------------------------------------------------------
// SAN (Standard Algebraic Notation, FIDE Appendix C), both directions.
// ---------------------------------------------------------------------------------------------

use super::types::{CastleSide, File, Rank};

/// Why a SAN (or UCI) move text was refused for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not move notation at all.
    Malformed(String),
    /// Well-formed notation, but no legal move of this position matches it.
    Illegal(String),
    /// Several legal moves match; `candidates` are their SAN spellings.
    Ambiguous { text: String, candidates: Vec<String> },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Malformed(s) => {
                write!(
                    f,
                    "'{s}' is not a move in algebraic notation (like e4, Nf3, exd5, O-O, e8=Q) or UCI (like e2e4)"
                )
            }
            SanError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
            SanError::Ambiguous { text, candidates } => {
                write!(f, "'{text}' is ambiguous: it could be {}", candidates.join(" or "))
            }
        }
    }
}

impl std::error::Error for SanError {}

/// What a piece of SAN text says, before looking at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SanSyntax {
    /// `Some` for `O-O` / `O-O-O` (then the other fields are meaningless).
    pub castle: Option<CastleSide>,
    pub piece: PieceType,
    pub from_file: Option<File>,
    pub from_rank: Option<Rank>,
    pub capture: bool,
    pub to: Square,
    /// The promotion letter as written; may be a king or pawn letter (an error the
    /// explainer reports as `bad_promotion_piece`).
    pub promotion: Option<PieceType>,
}

/// Strips annotation suffixes (`+ # ! ? !! ?? !? ?!`) and an `e.p.` marker.
fn strip_san_suffixes(text: &str) -> &str {
    let mut t = text.trim();
    loop {
        let before = t;
        t = t.trim_end_matches(['+', '#', '!', '?']).trim_end();
        for ep in ["e.p.", "ep", "e.p"] {
            if let Some(s) = t.strip_suffix(ep) {
                // "ep" must not eat the file letter of a square ("e5" never ends in "ep").
                t = s.trim_end();
            }
        }
        if t == before {
            return t;
        }
    }
}

/// Reads SAN text (`e4`, `Nf3`, `Nbd2`, `R1e2`, `Qh4e1`, `exd6`, `exd6 e.p.`, `O-O`, `0-0-0`,
/// `e8=Q`, `e8Q`, any `+ # ! ?` suffixes; also hyphenated long algebraic like `Ng1-f3`) into
/// its parts. `None` when the text is not notation at all.
pub fn parse_san_syntax(text: &str) -> Option<SanSyntax> {
    let t = strip_san_suffixes(text);
    if !t.is_ascii() || t.is_empty() {
        return None;
    }
    let castle = match t {
        "O-O" | "0-0" | "o-o" => Some(CastleSide::King),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(CastleSide::Queen),
        _ => None,
    };
    if castle.is_some() {
        return Some(SanSyntax {
            castle,
            piece: PieceType::King,
            from_file: None,
            from_rank: None,
            capture: false,
            to: Square::A1,
            promotion: None,
        });
    }
    let mut b: Vec<u8> = t.bytes().filter(|&c| c != b'-').collect();
    // Promotion: "=Q" or a bare letter after the destination rank.
    let mut promotion = None;
    if b.len() >= 3 {
        let last = b[b.len() - 1] as char;
        if last.is_ascii_alphabetic() && (b[b.len() - 2] as char).is_ascii_digit() {
            promotion = Some(PieceType::from_char(last)?);
            b.pop();
        } else if last.is_ascii_alphabetic() && b[b.len() - 2] == b'=' {
            promotion = Some(PieceType::from_char(last)?);
            b.truncate(b.len() - 2);
        }
    }
    if b.len() < 2 {
        return None;
    }
    let to = Square::parse(std::str::from_utf8(&b[b.len() - 2..]).ok()?)?;
    let mut rest = &b[..b.len() - 2];
    let mut piece = PieceType::Pawn;
    if let Some(&c) = rest.first() {
        if matches!(c, b'K' | b'Q' | b'R' | b'B' | b'N' | b'P') {
            piece = PieceType::from_char(c as char)?;
            rest = &rest[1..];
        }
    }
    let mut capture = false;
    if let Some(&c) = rest.last() {
        if c == b'x' || c == b':' {
            capture = true;
            rest = &rest[..rest.len() - 1];
        }
    }
    let (mut from_file, mut from_rank) = (None, None);
    match rest {
        [] => {}
        [c] if (b'a'..=b'h').contains(c) => from_file = File::from_char(*c as char),
        [c] if (b'1'..=b'8').contains(c) => from_rank = Rank::from_char(*c as char),
        [f, r] => {
            from_file = Some(File::from_char(*f as char)?);
            from_rank = Some(Rank::from_char(*r as char)?);
        }
        _ => return None,
    }
    Some(SanSyntax { castle: None, piece, from_file, from_rank, capture, to, promotion })
}

/// The legal moves of `pos` that a SAN text could mean (empty when none; several when ambiguous).
pub fn san_candidates(pos: &Position, syntax: &SanSyntax) -> Vec<Move> {
    movegen::legal_moves(pos)
        .iter()
        .copied()
        .filter(|m| {
            if let Some(side) = syntax.castle {
                return m.castle_side() == Some(side);
            }
            let Some(p) = pos.piece_at(m.from()) else { return false };
            p.kind == syntax.piece
                && m.to() == syntax.to
                && !m.is_castling()
                && syntax.from_file.is_none_or(|f| m.from().file() == f)
                && syntax.from_rank.is_none_or(|r| m.from().rank() == r)
                && m.promotion() == syntax.promotion
                // A pawn named only by its destination ("e4") is the pawn on that file.
                && (syntax.piece != PieceType::Pawn || syntax.from_file.is_some() || m.from().file() == m.to().file())
        })
        .collect()
}

/// Parses SAN for `pos`: the unique legal move it names.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let syntax = parse_san_syntax(text).ok_or_else(|| SanError::Malformed(text.to_string()))?;
    let candidates = san_candidates(pos, &syntax);
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(SanError::Illegal(text.to_string())),
        many => Err(SanError::Ambiguous {
            text: text.to_string(),
            candidates: many.iter().map(|&m| to_san(pos, m)).collect(),
        }),
    }
}

/// Parses move text in either notation: UCI (`e2e4`, `e7e8q`) first, then SAN.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, SanError> {
    let t = text.trim();
    if let Some((from, to, promo)) = parse_uci_squares(t) {
        return movegen::find_move(pos, from, to, promo).ok_or_else(|| SanError::Illegal(t.to_string()));
    }
    parse_san(pos, t)
}

/// SAN of the legal move `m` in `pos`, with minimal disambiguation and `+`/`#`.
pub fn to_san(pos: &Position, m: Move) -> String {
    let mut s = to_san_without_suffix(pos, m);
    let after = pos.make_move(m);
    if after.in_check() {
        s.push(if movegen::has_legal_move(&after) { '+' } else { '#' });
    }
    s
}

/// SAN without the check/mate suffix (what PGN tools call the "bare" SAN).
fn to_san_without_suffix(pos: &Position, m: Move) -> String {
    match m.kind() {
        super::types::MoveKind::CastleKing => return "O-O".to_string(),
        super::types::MoveKind::CastleQueen => return "O-O-O".to_string(),
        _ => {}
    }
    let Some(piece) = pos.piece_at(m.from()) else { return m.to_uci() };
    let mut s = String::with_capacity(8);
    if piece.kind == PieceType::Pawn {
        if m.is_capture() {
            s.push(m.from().file().char());
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if let Some(p) = m.promotion() {
            s.push('=');
            s.push(p.san_char());
        }
        return s;
    }
    s.push(piece.kind.san_char());
    if piece.kind != PieceType::King {
        let rivals: Vec<Square> = movegen::legal_moves(pos)
            .iter()
            .filter(|o| o.to() == m.to() && o.from() != m.from())
            .filter(|o| pos.piece_at(o.from()).is_some_and(|p| p.kind == piece.kind))
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let file_unique = rivals.iter().all(|r| r.file() != m.from().file());
            let rank_unique = rivals.iter().all(|r| r.rank() != m.from().rank());
            if file_unique {
                s.push(m.from().file().char());
            } else if rank_unique {
                s.push(m.from().rank().char());
            } else {
                s.push_str(&m.from().to_string());
            }
        }
    }
    if m.is_capture() {
        s.push('x');
    }
    s.push_str(&m.to().to_string());
    s
}
