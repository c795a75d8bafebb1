//! The rules of movement: nothing here knows about search or text.

pub mod attacks;
pub mod bitboard;
pub mod castling;
pub mod chess960;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, STARTPOS_FEN};
pub use movegen::{legal_moves, MoveList};
pub use position::Position;
pub use types::{CastleSide, CastlingRights, Color, File, Move, MoveKind, Piece, PieceType, Rank, Square};
