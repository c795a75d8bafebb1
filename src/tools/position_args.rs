//! The arguments of the subcommands that judge one position (`explain`, `unwinnable`):
//! `--fen`, `--moves`, `--lang` and `--json`, flattened into each, and how they are read.

use crate::chess::Color;
use crate::explain::Lang;
use crate::rules::{Game, GameError};

/// The position (a FEN and the moves played from it) and how to answer about it.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Position to start from (default: the standard starting position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the FEN first (the game so far), one argument, space-separated, UCI or SAN.
    #[arg(long)]
    pub moves: Option<String>,
    /// Language of the text: en or zh.
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// One JSON object per answer, on one line, instead of text.
    #[arg(long)]
    pub json: bool,
}

impl PositionArgs {
    /// The game from `--fen` and `--moves`.
    pub fn game(&self) -> Result<Game, GameError> {
        let list: Vec<&str> = self.moves.as_deref().map(|m| m.split_whitespace().collect()).unwrap_or_default();
        Game::from_fen_and_moves(self.fen.as_deref(), &list)
    }

    /// The language of `--lang`, or the error to show.
    pub fn language(&self) -> Result<Lang, String> {
        Lang::parse(&self.lang).ok_or_else(|| {
            let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
            format!("--lang '{}' is not supported; use {}", self.lang, codes.join(" or "))
        })
    }
}

/// A player named on the command line: white or black (`w`, `b`; any case).
pub fn parse_player(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}
