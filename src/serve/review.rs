//! A recorded game under review: read with the referee's PGN reader, replayed up to its first
//! move that cannot be played, judged by the referee (its findings shown at the ply they
//! concern), and stepped through ply by ply.

use crate::chess::{notation, Move, Position};
use crate::explain::judge::{judge, Judgement};
use crate::explain::Lang;
use crate::rules::pgn::{PgnError, PgnReader, RawGame};
use crate::rules::Game;

/// The largest PGN text the board reads (a game of a few hundred moves with comments is a
/// few kilobytes; this keeps one request's work bounded).
pub const MAX_PGN_BYTES: usize = 256 * 1024;

/// Why a PGN text cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// Larger than [`MAX_PGN_BYTES`].
    TooLarge,
    /// No game in the text.
    NoGame,
    /// The first game cannot be read (a broken tag, unbalanced brackets, a bad FEN tag, ...).
    Unreadable(PgnError),
}

/// A recorded game, stepped through.
#[derive(Clone, Debug)]
pub struct Review {
    pub white: String,
    pub black: String,
    /// As recorded (`*` when missing).
    pub result: String,
    start: Position,
    /// The moves up to the first one that cannot be played.
    moves: Vec<Move>,
    /// The recorded move texts, all of them (more than `moves` when one cannot be played).
    pub texts: Vec<String>,
    /// Plies shown: 0 is the start position, `moves.len()` the last one reached.
    pub cursor: usize,
    /// The referee's judgement, in every language (the texts are worded once, when read).
    judgements: Vec<(Lang, Judgement)>,
}

impl Review {
    /// The first game of `pgn`, or why it cannot be reviewed.
    pub fn read(pgn: &str) -> Result<Review, ReviewError> {
        if pgn.len() > MAX_PGN_BYTES {
            return Err(ReviewError::TooLarge);
        }
        let raw: RawGame = PgnReader::new(pgn.as_bytes())
            .next()
            .ok_or(ReviewError::NoGame)?
            .map_err(|e| ReviewError::Unreadable(PgnError::Read(e.to_string())))?;
        if let Some(e) = &raw.error {
            return Err(ReviewError::Unreadable(e.clone()));
        }
        let start = raw.start_position().map_err(ReviewError::Unreadable)?;
        let texts: Vec<String> = raw.moves().map(str::to_string).collect();
        let mut game = Game::new(start);
        for text in &texts {
            match notation::parse_move(game.current(), text) {
                Ok(m) if game.play(m).is_ok() => {}
                _ => break,
            }
        }
        let judgements = Lang::ALL.iter().map(|&lang| (lang, judge(&raw, lang))).collect();
        Ok(Review {
            white: raw.tag("White").unwrap_or("?").to_string(),
            black: raw.tag("Black").unwrap_or("?").to_string(),
            result: raw.result(),
            start,
            moves: game.moves().to_vec(),
            texts,
            cursor: 0,
            judgements,
        })
    }

    /// Plies that can be shown.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Shows ply `ply` (clamped to the game).
    pub fn goto(&mut self, ply: usize) {
        self.cursor = ply.min(self.plies());
    }

    /// The game up to the ply shown.
    pub fn game_at_cursor(&self) -> Game {
        let mut game = Game::new(self.start);
        for &m in &self.moves[..self.cursor] {
            let _ = game.play(m);
        }
        game
    }

    /// The referee's judgement, worded in `lang`.
    pub fn judgement(&self, lang: Lang) -> Option<&Judgement> {
        self.judgements.iter().find(|(l, _)| *l == lang).map(|(_, j)| j)
    }
}
