//! The Laws beyond movement: the referee (game state, draws), PGN, and the explain mode.

pub mod dead;
pub mod mating;
pub mod pgn;
pub mod referee;

pub use dead::DeadReason;
pub use referee::{AutomaticDraw, ClaimWithMove, DrawClaim, Game, GameError, Outcome, PositionReport};
pub mod explain;
pub mod text;

pub use explain::{explain, Explanation, Lang, Reason, ReasonCode};
pub mod cli;
pub mod json;
pub mod svg;

pub use cli::{explain_for_uci, explain_for_uci_history};
