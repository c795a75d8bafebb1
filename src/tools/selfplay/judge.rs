//! The one door between self-play and the Laws: every question the game loop asks about how
//! a game ends is answered by the referee (`rules::referee`: the board, flag falls 6.9 and
//! resignations 5.1.2), and move text by `chess::notation`. Nothing here decides a rule by
//! itself.

use crate::chess::notation::{self, UciMoveError};
use crate::chess::{Color, Move, Position};
use crate::rules::{DrawClaim, Game, Outcome, Ruling};

/// What the referee says about the position on the board, for the player having the move.
pub enum Verdict {
    /// The game is over by itself (checkmate or an automatic draw).
    Over(Outcome),
    /// A draw that player may claim now, on the position on the board (9.2.1.2 / 9.3.2).
    Claimable(DrawClaim),
    Ongoing,
}

/// The referee's verdict on the game's current position.
pub fn verdict(game: &Game) -> Verdict {
    if let Some(o) = game.outcome() {
        return Verdict::Over(o);
    }
    match game.report().claimable_draws.first() {
        Some(&c) => Verdict::Claimable(c),
        None => Verdict::Ongoing,
    }
}

/// FIDE 6.9: `side`'s flag has fallen in the game's current position.
pub fn flag_fall(game: &Game, side: Color) -> Ruling {
    game.flag_fall(side)
}

/// FIDE 5.1.2: `side` resigns in the game's current position (score adjudication).
pub fn resign(game: &Game, side: Color) -> Ruling {
    game.resign(side)
}

/// The move a player sent (UCI text), if it is legal here.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    notation::parse_uci_move(pos, text)
}

/// Standard algebraic notation of a legal move.
pub fn san(pos: &Position, m: Move) -> String {
    notation::to_san(pos, m)
}
