//! FEN parsing (with typed errors naming the field and character) and printing.

use super::bitboard::Bitboard;
use super::position::Position;
use super::types::{CastleSide, Color, File, Piece, PieceType, Rank, Square};
use std::fmt;

pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The FEN at the start of an EPD (or FEN) line: 6 fields when the 5th and 6th are the move
/// counters, else the 4 position fields (EPD operations after them ignored). None when the
/// line has fewer than 4 fields.
pub fn epd_fen(line: &str) -> Option<String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    let counters = fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok();
    Some(fields[..if counters { 6 } else { 4 }].join(" "))
}

/// What is wrong with a FEN string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    /// Wrong number of whitespace-separated fields (4 to 6 accepted).
    FieldCount(usize),
    /// The placement does not have 8 ranks.
    RankCount(usize),
    BadPieceChar {
        rank: Rank,
        ch: char,
    },
    RankTooLong {
        rank: Rank,
    },
    RankTooShort {
        rank: Rank,
        files: usize,
    },
    KingCount {
        color: Color,
        count: usize,
    },
    PawnOnBackRank {
        square: Square,
    },
    BadSideToMove(String),
    BadCastling(String),
    /// A castling right without a king on its first rank and the rook the letter names
    /// (K/Q: the outermost rook on that side; A-H: the rook on that file).
    CastlingWithoutPieces {
        right: char,
    },
    BadEnPassant(String),
    /// An e.p. square that no double push can have produced.
    ImpossibleEnPassant {
        square: Square,
    },
    BadHalfmoveClock(String),
    BadFullmoveNumber(String),
    /// The side that is not to move is in check (its king could be captured).
    OpponentInCheck,
    TooManyPieces {
        color: Color,
        count: usize,
    },
    TooManyCheckers,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields; expected 6 (placement, side, castling, en passant, halfmove clock, fullmove number; the clocks may be omitted)"),
            FenError::RankCount(n) => write!(f, "piece placement has {n} ranks; expected 8 separated by '/'"),
            FenError::BadPieceChar { rank, ch } => write!(f, "piece placement, rank {}: '{ch}' is not a piece letter (PNBRQK/pnbrqk) or a digit 1-8", rank.char()),
            FenError::RankTooLong { rank } => write!(f, "piece placement, rank {}: more than 8 squares", rank.char()),
            FenError::RankTooShort { rank, files } => write!(f, "piece placement, rank {}: only {files} squares; expected 8", rank.char()),
            FenError::KingCount { color, count } => write!(f, "{} has {count} kings; expected exactly one", color.name()),
            FenError::PawnOnBackRank { square } => write!(f, "a pawn stands on {square}; pawns can never be on rank 1 or 8"),
            FenError::BadSideToMove(s) => write!(f, "side to move is '{s}'; expected 'w' or 'b'"),
            FenError::BadCastling(s) => write!(f, "castling field '{s}' is not '-' or a combination of KQkq (X-FEN) or rook files A-H/a-h (Shredder-FEN), at most one rook per side"),
            FenError::CastlingWithoutPieces { right } => write!(f, "castling right '{right}' but there is no king on its first rank with a rook of its colour on that side (K/Q) or file (A-H)"),
            FenError::BadEnPassant(s) => write!(f, "en-passant field '{s}' is not '-' or a square"),
            FenError::ImpossibleEnPassant { square } => write!(f, "en-passant square {square} is impossible: it must be on rank 3 (Black to move) or 6 (White to move), empty, behind an enemy pawn that just advanced two squares"),
            FenError::BadHalfmoveClock(s) => write!(f, "halfmove clock '{s}' is not a number from 0 to 65535"),
            FenError::BadFullmoveNumber(s) => write!(f, "fullmove number '{s}' is not a number from 1 to 65535"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::TooManyPieces { color, count } => write!(f, "{} has {count} pieces; at most 16 are possible", color.name()),
            FenError::TooManyCheckers => write!(f, "the side to move is in check from more than two pieces, which no legal move can produce"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        // The starting FEN is a constant known to be valid.
        Position::from_fen(STARTPOS_FEN).unwrap_or_else(|_| unreachable!())
    }

    /// Parses a FEN. Missing clocks mean "0 1"; runs of whitespace are accepted.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() < 4 || fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();

        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::RankCount(ranks.len()));
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = Rank::from_index(7 - i);
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(FenError::BadPieceChar { rank, ch });
                    }
                    file += d as usize;
                    if file > 8 {
                        return Err(FenError::RankTooLong { rank });
                    }
                } else {
                    let piece = Piece::from_fen_char(ch).ok_or(FenError::BadPieceChar { rank, ch })?;
                    if file >= 8 {
                        return Err(FenError::RankTooLong { rank });
                    }
                    pos.put_piece(piece, Square::from_coords(File::from_index(file), rank));
                    file += 1;
                }
            }
            if file < 8 {
                return Err(FenError::RankTooShort { rank, files: file });
            }
        }

        for color in Color::ALL {
            let count = pos.pieces_of(color, PieceType::King).count() as usize;
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
            let n = pos.color(color).count() as usize;
            if n > 16 {
                return Err(FenError::TooManyPieces { color, count: n });
            }
        }
        if let Some(square) = (pos.pieces(PieceType::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).lsb() {
            return Err(FenError::PawnOnBackRank { square });
        }

        let side = match fields[1] {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            s => return Err(FenError::BadSideToMove(s.to_string())),
        };
        pos.set_side(side);

        if fields[2] != "-" {
            parse_castling(&mut pos, fields[2])?;
        }

        let ep = if fields[3] == "-" {
            None
        } else {
            let sq = Square::parse(fields[3]).ok_or_else(|| FenError::BadEnPassant(fields[3].to_string()))?;
            // The square passed over must be empty, on the right rank, with the pawn that
            // just double-pushed in front of it and its start square empty.
            let ep_rank = match side {
                Color::White => Rank::R6,
                Color::Black => Rank::R3,
            };
            let them = side.flip();
            let pawn_sq = sq.offset(them.forward());
            let start_sq = sq.offset(-them.forward());
            let ok = sq.rank() == ep_rank
                && pos.piece_at(sq).is_none()
                && pawn_sq.is_some_and(|p| pos.piece_at(p) == Some(Piece::new(them, PieceType::Pawn)))
                && start_sq.is_some_and(|s| pos.piece_at(s).is_none());
            if !ok {
                return Err(FenError::ImpossibleEnPassant { square: sq });
            }
            Some(sq)
        };
        pos.set_ep_square(ep);

        let halfmove = match fields.get(4) {
            None => 0,
            Some(s) => s.parse::<u16>().map_err(|_| FenError::BadHalfmoveClock(s.to_string()))?,
        };
        let fullmove = match fields.get(5) {
            None => 1,
            Some(s) => match s.parse::<u16>() {
                Ok(n) if n >= 1 => n,
                // Some tools write 0; treat it as 1 rather than refusing a usable position.
                Ok(_) => 1,
                Err(_) => return Err(FenError::BadFullmoveNumber(s.to_string())),
            },
        };
        pos.set_clocks(halfmove, fullmove);

        // The side not to move may not be in check: its king could be captured.
        let their_king = pos.king_square(side.flip());
        if pos.is_square_attacked(their_king, side) {
            return Err(FenError::OpponentInCheck);
        }
        let ksq = pos.king_square(side);
        let checkers = pos.attackers_by(ksq, side.flip());
        if checkers.count() > 2 {
            return Err(FenError::TooManyCheckers);
        }
        pos.refresh();
        Ok(pos)
    }

    /// The position as FEN (round-trips `from_fen`, e.p. square kept as given).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for r in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for f in File::ALL {
                match self.piece_at(Square::from_coords(f, *r)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *r != Rank::R1 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(match self.side_to_move() {
            Color::White => 'w',
            Color::Black => 'b',
        });
        s.push(' ');
        s.push_str(&self.castling_field());
        s.push(' ');
        match self.ep_square() {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove_clock(), self.fullmove_number()));
        s
    }
}

/// Reads the castling field: X-FEN (`KQkq`: the outermost rook on that side; a file letter
/// for an inner rook) and Shredder-FEN (`HAha`: rook files) alike, upper case for White.
/// A Chess960 field (file letters, or rights with the king off the e-file or a rook off the
/// a- and h-files) puts the position in Chess960 mode (castling written `e1h1`).
fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let bad = || FenError::BadCastling(field.to_string());
    if !field.chars().all(|c| matches!(c, 'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h')) {
        return Err(bad());
    }
    let mut files_used = false;
    let mut sides_used = false;
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = color.back_rank();
        let king = pos.king_square(color);
        let rooks = pos.pieces_of(color, PieceType::Rook) & Bitboard::rank(back);
        let missing = FenError::CastlingWithoutPieces { right: ch };
        let lower = ch.to_ascii_lowercase();
        let rook = match lower {
            'k' | 'q' => {
                sides_used = true;
                if king.rank() != back {
                    return Err(missing);
                }
                let beyond = if lower == 'k' {
                    rooks.into_iter().filter(|r| r.file() > king.file()).last()
                } else {
                    rooks.into_iter().find(|r| r.file() < king.file())
                };
                beyond.ok_or(missing)?
            }
            'a'..='h' => {
                files_used = true;
                let file = File::from_char(lower).ok_or_else(bad)?;
                let sq = Square::from_coords(file, back);
                if king.rank() != back || !rooks.contains(sq) {
                    return Err(missing);
                }
                sq
            }
            _ => return Err(bad()),
        };
        let side = CastleSide::of_rook(king, rook);
        match pos.castling_rook(color, side) {
            Some(r) if r != rook => return Err(bad()),
            _ => pos.add_castling_right(color, rook),
        }
    }
    pos.set_shredder_fen(files_used && !sides_used);
    pos.set_chess960(files_used || !pos.castling_is_standard());
    Ok(())
}

impl Position {
    /// The FEN castling field in the notation it was read in: Shredder-FEN rook files, or
    /// X-FEN (`K`/`Q` for the outermost rook of that side, the rook's file for an inner one).
    fn castling_field(&self) -> String {
        let mut s = String::new();
        for (color, side) in self.castling_rights().iter() {
            let Some(rook) = self.castling_rook(color, side) else { continue };
            let king = self.king_square(color);
            let rooks = self.pieces_of(color, PieceType::Rook) & Bitboard::rank(color.back_rank());
            let outermost = match side {
                CastleSide::King => rooks.into_iter().filter(|r| r.file() > king.file()).last(),
                CastleSide::Queen => rooks.into_iter().find(|r| r.file() < king.file()),
            };
            let ch = if !self.writes_shredder_fen() && outermost == Some(rook) {
                match side {
                    CastleSide::King => 'K',
                    CastleSide::Queen => 'Q',
                }
            } else {
                rook.file().char().to_ascii_uppercase()
            };
            s.push(if color == Color::White { ch } else { ch.to_ascii_lowercase() });
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}
