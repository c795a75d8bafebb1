//! The arguments of the subcommands that judge one position (`explain`, `unwinnable`):
//! `--fen`, `--moves`, `--chess960`, `--lang` and `--json`, flattened into each, and how they
//! are read. `--chess960` alone is shared with `perft` too ([`Chess960Arg`]).

use crate::chess::Color;
use crate::explain::Lang;
use crate::rules::{Game, GameError};
use std::process::ExitCode;

/// `--chess960`, one argument for every subcommand that reads a position.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Chess960Arg {
    /// Chess960 (Fischer Random): castling is written and read as the king taking its own
    /// rook (`e1h1`), as with UCI_Chess960. Detected without it from the FEN: rook files in
    /// the castling field (HAha), or rights with the king off the e-file or a rook off the a-
    /// and h-files.
    #[arg(long)]
    pub chess960: bool,
}

/// The position (a FEN and the moves played from it) and how to answer about it.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Position to start from (default: the standard starting position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the FEN first (the game so far), one argument, space-separated, UCI or SAN.
    #[arg(long)]
    pub moves: Option<String>,
    #[command(flatten)]
    pub variant: Chess960Arg,
    /// Language of the text: en or zh.
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// One JSON object per answer, on one line, instead of text.
    #[arg(long)]
    pub json: bool,
}

impl PositionArgs {
    /// The game from `--fen` and `--moves`, castling written as `--chess960` says (the moves
    /// are read in that convention too).
    pub fn game(&self) -> Result<Game, GameError> {
        let mut game = Game::from_fen_and_moves::<&str>(self.fen.as_deref(), &[])?;
        if self.variant.chess960 {
            game.set_chess960(true);
        }
        for (i, text) in self.moves.as_deref().unwrap_or_default().split_whitespace().enumerate() {
            game.play_text(text).map_err(|error| GameError::Move { ply: i + 1, error })?;
        }
        Ok(game)
    }

    /// The language of `--lang`, or the exit status for an unknown one (the error printed).
    pub fn language(&self) -> Result<Lang, ExitCode> {
        language(&self.lang)
    }
}

/// The language a `--lang` value names, or the exit status of a subcommand given an unknown
/// one (the error printed, naming the languages there are).
pub fn language(text: &str) -> Result<Lang, ExitCode> {
    Lang::parse(text).ok_or_else(|| {
        let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        eprintln!("error: --lang '{text}' is not supported; use {}", codes.join(" or "));
        ExitCode::from(2)
    })
}

/// A player named on the command line: white or black (`w`, `b`; any case).
pub fn parse_player(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}
