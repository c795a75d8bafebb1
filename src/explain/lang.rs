//! The languages of the explain mode: [`Lang`] (chosen with `--lang`, in UCI's
//! `explain ... zh`, and named in JSON) and the [`Wording`] interface each language
//! implements in a file of its own. A new language is one new file implementing
//! [`Wording`] and one row in the `languages!` table below.

use super::analysis::{CastlingWriting, MoveCategory};
use super::reason::Reason;
use super::report::Note;
use crate::chess::{Color, FenError, Piece, Square};
use crate::rules::pgn::PgnError;
use crate::rules::ProblemCode;
use crate::syzygy::report::TablebaseReport;
use crate::syzygy::Wdl;

/// Everything the explain mode says in words. The facts come ready-made (from the
/// explainer and the referee); a language only chooses the words.
pub trait Wording: Sync {
    /// One reason as a sentence, without its citation.
    fn reason(&self, r: &Reason) -> String;
    /// One fact of the position report as a sentence, without its citation.
    fn note(&self, n: &Note) -> String;
    /// A sentence followed by the citation of `rule` (`(FIDE 3.9.2)`).
    fn cited(&self, sentence: String, rule: &str) -> String;
    /// The first line for a legal move (`Legal: Nf3 (g1f3), white knight, quiet move.`).
    fn legal_headline(&self, san: &str, uci: &str, what: Option<(Piece, MoveCategory)>) -> String;
    /// The first line for an illegal move; `uci` is given when it says more than the input.
    fn illegal_headline(&self, input: &str, uci: Option<&str>) -> String;
    /// The line saying how the input was read when not as written (`"nf3" is read as Nf3.`).
    fn read_as(&self, input: &str, read_as: &str) -> String;
    /// The line saying how the castling the position allows is written in this game, when the
    /// input wrote it the other convention's way.
    fn castling_writing(&self, input: &str, w: &CastlingWriting) -> String;
    /// The line introducing what a legal move causes (`After Nf3:`).
    fn after_move(&self, san: &str) -> String;
    /// The first line of the position report (`Position: FEN`).
    fn position(&self, fen: &str) -> String;
    /// The labels of the diagram's legend.
    fn legend(&self) -> Legend;
    /// A square of the board for a screen reader: `e2, white pawn`, `e4, empty`.
    fn square_label(&self, sq: Square, piece: Option<Piece>) -> String;
    /// The board for a screen reader, seen from `bottom`'s side.
    fn board_label(&self, bottom: Color) -> String;
    /// A sentence of `arbiter referee`'s report on a recorded game.
    fn referee(&self, t: &RefereeText) -> String;
    /// Why a FEN cannot be read.
    fn fen_error(&self, e: &FenError) -> String;
    /// The phrases of a position's value in the endgame tables.
    fn tablebase_words(&self) -> TablebaseWords;
    /// The lines stating a position's value in the endgame tables (`d`, `explain --syzygy`):
    /// a head line, the value, the best result and its moves, in every language the same.
    fn tablebase(&self, r: &TablebaseReport) -> Vec<String> {
        let w = self.tablebase_words();
        let k = match r {
            TablebaseReport::NotInTables { pieces, largest } => {
                return vec![(w.not_in_tables)(w.head, *pieces, *largest)]
            }
            TablebaseReport::Unknown { why } => return vec![(w.unknown)(w.head, why)],
            TablebaseReport::Known(k) => k,
        };
        let dtz = match &k.dtz {
            Ok(0) => String::new(),
            Ok(d) => (w.dtz)(Ok(*d)),
            Err(e) => (w.dtz)(Err(e)),
        };
        let mut lines = vec![w.head.to_string(), (w.value)(k.side, k.value, &dtz, k.halfmove_clock)];
        match (&k.moves, k.result()) {
            (Ok(moves), Some(best)) => {
                let keep: Vec<String> = moves
                    .iter()
                    .filter(|m| m.best)
                    .map(|m| if m.dtz == 0 { m.san.clone() } else { (w.move_dtz)(&m.san, m.dtz) })
                    .collect();
                lines.push((w.best)((w.result)(best), &keep.join(w.separator)));
            }
            (Ok(_), None) => {}
            (Err(e), _) => lines.push((w.moves_unknown)(e)),
        }
        lines
    }
}

/// A language's phrases for a position's value in the endgame tables ([`Wording::tablebase`]
/// puts them together).
pub struct TablebaseWords {
    /// The first line.
    pub head: &'static str,
    /// The line after `head`'s place when the position has more pieces than the largest tables.
    pub not_in_tables: fn(head: &str, pieces: u32, largest: u32) -> String,
    /// The line when the tables cannot tell, and why.
    pub unknown: fn(head: &str, why: &str) -> String,
    /// After the value: the distance to zeroing (never 0), or why it is unknown.
    pub dtz: fn(Result<i32, &str>) -> String,
    /// The value line: side to move, value with the counter at 0, the DTZ part, the counter.
    pub value: fn(Color, Wdl, &str, u32) -> String,
    /// The best result with the counter as it stands.
    pub result: fn(Wdl) -> &'static str,
    /// A best move with its DTZ (never 0).
    pub move_dtz: fn(&str, i32) -> String,
    /// Between two best moves.
    pub separator: &'static str,
    /// The best-result line: the result, the best moves.
    pub best: fn(&str, &str) -> String,
    /// The moves are unknown, and why.
    pub moves_unknown: fn(&str) -> String,
}

/// What `arbiter referee` says about a recorded game; the facts (and the reasons, already in
/// the language) come ready-made.
pub enum RefereeText<'a> {
    /// `mover`'s move `text` is illegal, for `reasons`.
    IllegalMove { mover: Color, text: &'a str, reasons: &'a str },
    /// `mover`'s move `text` is no move in any notation, for `reasons` (explain's `malformed`).
    UnreadableMove { mover: Color, text: &'a str, reasons: &'a str },
    /// `text` was played after the game had ended, for `reasons`.
    MoveAfterEnd { text: &'a str, reasons: &'a str },
    /// The recorded result is not the one the Laws give, because `why`.
    ContradictsLaws { recorded: &'a str, laws: &'a str, why: &'a str },
    /// The `Variant` tag names other rules.
    OtherVariant { name: &'a str },
    /// The `Result` tag and the movetext's termination marker disagree.
    ResultTag { tag: &'a str, marker: &'a str },
    /// The `FEN` tag cannot be read.
    BadFen { error: &'a str },
    /// The game's text cannot be read.
    Unreadable { error: &'a PgnError },
    /// A game's first line: its number, players, recorded result, the Laws' result when it
    /// differs (`Some(None)`: the Laws cannot tell), and whether a problem was found.
    Game { number: usize, white: &'a str, black: &'a str, result: &'a str, laws: Option<Option<&'a str>>, clean: bool },
    /// A finding's line: its half-move (0: the record as a whole), what it is, the article
    /// (empty where none applies) and its sentence.
    Problem { ply: usize, code: ProblemCode, rule: &'a str, text: &'a str },
    /// The last line: games, clean games, and how many findings of each kind.
    Summary { games: usize, clean: usize, counts: &'a [(ProblemCode, usize)] },
}

/// The diagram's legend in one language.
pub struct Legend {
    pub quiet: &'static str,
    pub capture: &'static str,
    pub two_step: &'static str,
    pub the_move: &'static str,
    pub attacked: &'static str,
    pub in_the_way: &'static str,
    pub other: &'static str,
    /// Average width of one character of a label at the legend's font size, in pixels.
    pub char_width: i32,
}

/// The language table: variant, code (CLI, UCI, JSON), other names accepted, wording.
macro_rules! languages {
    ($($variant:ident = $code:literal [$($alias:literal),*] => $wording:path;)*) => {
        /// Output language.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Lang {
            $($variant,)*
        }

        impl Lang {
            pub const ALL: [Lang; [$($code),*].len()] = [$(Lang::$variant),*];

            /// The language's code (`en`), as `--lang` takes it and JSON names it.
            pub fn code(self) -> &'static str {
                match self {
                    $(Lang::$variant => $code,)*
                }
            }

            /// Reads a code or another accepted name, case-insensitively.
            pub fn parse(text: &str) -> Option<Lang> {
                let name = text.trim().to_ascii_lowercase();
                match name.as_str() {
                    $($code $(| $alias)* => Some(Lang::$variant),)*
                    _ => None,
                }
            }

            /// The words of this language.
            pub fn words(self) -> &'static dyn Wording {
                match self {
                    $(Lang::$variant => &$wording,)*
                }
            }
        }
    };
}

languages! {
    En = "en" ["english", "en-us", "en-gb"] => super::en::English;
    Zh = "zh" ["cn", "zh-cn", "zh-hans", "chinese"] => super::zh::Chinese;
}
