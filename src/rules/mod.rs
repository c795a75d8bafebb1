//! The Laws beyond movement: the referee (game state, draws), dead positions, who can
//! still checkmate, and PGN. Explaining a move in words is `crate::explain`.

pub mod dead;
pub mod pgn;
pub mod referee;
pub mod unwinnable;

pub use dead::DeadReason;
pub use referee::{
    Act, AutomaticDraw, ClaimError, ClaimVerdict, ClaimWithMove, DrawClaim, Game, GameError, Outcome, PositionReport,
    ProblemCode, Ruling,
};
