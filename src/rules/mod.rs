//! The Laws beyond movement: the referee (game state, draws), PGN, and the explain mode.

pub mod mating;
pub mod pgn;
pub mod referee;

pub use referee::{AutomaticDraw, ClaimWithMove, DrawClaim, Game, GameError, Outcome, PositionReport};
