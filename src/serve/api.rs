//! The board API's requests: what a page (or a site embedding the board) may ask of a board,
//! read from JSON with serde. Unknown fields and actions are refused, so a typo is a 400
//! naming it rather than a silent no-op.

use super::board::{Board, BoardError, Mode, Strength};
use super::review::Review;
use crate::chess::{Color, PieceType, Square};
use crate::rules::{Act, DrawClaim, Game, GameError};
use serde::Deserialize;

/// The largest JSON body the server reads (a PGN of [`super::review::MAX_PGN_BYTES`] fits).
pub const MAX_BODY_BYTES: usize = super::review::MAX_PGN_BYTES + 4096;

/// The lowest and highest `UCI_Elo` a level may ask for (the engine's option's range).
pub const ELO_RANGE: (u32, u32) = (1000, 2800);

/// A new board: a position (FEN, or the standard start) and moves played from it.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct NewBoard {
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    #[serde(default)]
    pub chess960: bool,
}

impl NewBoard {
    /// The game it describes, or why not.
    pub fn game(&self) -> Result<Game, BoardError> {
        if self.moves.len() > 2000 {
            return Err(BoardError::Input("too many moves (at most 2000)".into()));
        }
        let fen = self.fen.as_deref().map(str::trim).filter(|f| !f.is_empty());
        let mut game = match Game::from_fen_and_moves::<&str>(fen, &[]) {
            Ok(g) => g,
            Err(GameError::Fen(e)) => return Err(BoardError::Fen(e)),
            Err(e) => return Err(BoardError::Input(e.to_string())),
        };
        game.set_chess960(self.chess960);
        for (i, m) in self.moves.iter().enumerate() {
            game.play_text(m).map_err(|e| BoardError::Input(format!("move {} ('{m}'): {e}", i + 1)))?;
        }
        Ok(game)
    }
}

/// A player, as the API names it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// A promotion piece.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Promotion {
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl From<Promotion> for PieceType {
    fn from(p: Promotion) -> PieceType {
        match p {
            Promotion::Queen => PieceType::Queen,
            Promotion::Rook => PieceType::Rook,
            Promotion::Bishop => PieceType::Bishop,
            Promotion::Knight => PieceType::Knight,
        }
    }
}

/// The draw a claim is for.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    Threefold,
    Fifty,
}

/// Who plays, for a new game.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum ModeName {
    TwoPlayers,
    Engine,
}

/// One thing done on a board (`{"action": "click", "square": "e2"}`).
#[derive(Deserialize, Debug)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// A click (or tap) on a square: select, pick a target, or ask why not.
    Click {
        square: String,
    },
    /// A move typed as SAN or UCI: previewed when legal, explained when not.
    Move {
        text: String,
    },
    /// The piece a pawn becomes.
    Promote {
        piece: Promotion,
    },
    Confirm,
    Cancel,
    /// A draw claim by the player to move, with the move in preview if there is one.
    Claim {
        draw: Claim,
    },
    Resign {
        #[serde(default)]
        side: Option<Side>,
    },
    Flag {
        #[serde(default)]
        side: Option<Side>,
    },
    Undo,
    Reset,
    /// A new position (FEN, moves): two players on one board.
    SetPosition(NewBoard),
    /// A new game: two players, or against Arbiter (`human`'s colour, `level` as `UCI_Elo`,
    /// none for full strength), from the standard start or the position on the board.
    NewGame {
        mode: ModeName,
        #[serde(default)]
        human: Option<Side>,
        #[serde(default)]
        level: Option<u32>,
        #[serde(default)]
        from_current: bool,
    },
    Drill {
        id: String,
    },
    /// A strategy's branch, 0 or 1.
    Branch {
        which: usize,
    },
    LoadPgn {
        pgn: String,
    },
    /// Shows ply `ply` of the game under review.
    Goto {
        ply: usize,
    },
    /// Leaves the review: the position shown, two players.
    PlayOn,
}

/// A square named by the API, or a 400 naming it.
fn square(text: &str) -> Result<Square, BoardError> {
    Square::parse(text.trim()).ok_or_else(|| BoardError::Input(format!("'{text}' is not a square (a1 to h8)")))
}

/// Does `action` to `board`.
pub fn apply(board: &mut Board, action: Action) -> Result<(), BoardError> {
    match action {
        Action::Click { square: s } => board.click(square(&s)?),
        Action::Move { text } => {
            if text.len() > 64 {
                return Err(BoardError::Input("a move is at most 64 characters".into()));
            }
            board.type_move(&text)
        }
        Action::Promote { piece } => board.promote(piece.into()),
        Action::Confirm => board.confirm(),
        Action::Cancel => {
            board.cancel();
            Ok(())
        }
        Action::Claim { draw } => board.claim(match draw {
            Claim::Threefold => DrawClaim::ThreefoldRepetition,
            Claim::Fifty => DrawClaim::FiftyMoves,
        }),
        Action::Resign { side } => board.act(Act::Resignation, side.map(Color::from)),
        Action::Flag { side } => board.act(Act::FlagFall, side.map(Color::from)),
        Action::Undo => board.undo(),
        Action::Reset => board.reset(),
        Action::SetPosition(position) => {
            let game = position.game()?;
            board.restart(game, Mode::TwoPlayers);
            Ok(())
        }
        Action::NewGame { mode, human, level, from_current } => {
            let mode = match mode {
                ModeName::TwoPlayers => Mode::TwoPlayers,
                ModeName::Engine => {
                    let strength = match level {
                        None => Strength::Full,
                        Some(e) if (ELO_RANGE.0..=ELO_RANGE.1).contains(&e) => Strength::Elo(e),
                        Some(e) => {
                            return Err(BoardError::Input(format!(
                                "level {e} is out of range ({} to {})",
                                ELO_RANGE.0, ELO_RANGE.1
                            )))
                        }
                    };
                    Mode::Engine { human: human.map_or(Color::White, Color::from), strength }
                }
            };
            let game = if from_current {
                board.review().map_or_else(|| board.game().clone(), Review::game_at_cursor)
            } else {
                let mut g = Game::startpos();
                g.set_chess960(board.game().start().is_chess960());
                g
            };
            board.restart(game, mode);
            Ok(())
        }
        Action::Drill { id } => board.drill(&id),
        Action::Branch { which } => board.branch(which),
        Action::LoadPgn { pgn } => {
            let review = Review::read(&pgn).map_err(BoardError::Pgn)?;
            board.start_review(review);
            Ok(())
        }
        Action::Goto { ply } => match board.review_mut() {
            Some(r) => {
                r.goto(ply);
                Ok(())
            }
            None => Err(BoardError::Input("no recorded game is loaded".into())),
        },
        Action::PlayOn => board.play_from_review(),
    }
}
