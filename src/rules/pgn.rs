//! PGN: writing a game (seven-tag roster, `Variant "Chess960"`, `SetUp`/`FEN` for other start
//! positions, any extra tags, per-move comments, lines of at most 80 characters) and reading PGN
//! back in export or import format ([`PgnReader`], a tokenizer that splits a stream into games
//! one at a time, so a file of any size is read in memory bounded by its largest game).

use crate::chess::notation::{self, SanError};
use crate::chess::{FenError, Move, Position, STARTPOS_FEN};
use std::fmt;

/// The seven-tag roster, in the order PGN requires.
const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// A game as PGN holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in file order. The writer fills missing roster tags with `?` (and `Result` from
    /// `result`), adds `SetUp`/`FEN` when `start_fen` is not the standard start.
    pub tags: Vec<(String, String)>,
    /// `None` (or the standard FEN) = the standard starting position.
    pub start_fen: Option<String>,
    pub moves: Vec<Move>,
    /// Comment after each move (`comments[i]` follows `moves[i]`); may be shorter than `moves`.
    pub comments: Vec<Option<String>>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// What went wrong reading or writing PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// The input could not be read.
    Read(String),
    /// The `FEN` tag (or `start_fen`) is not a valid position.
    Fen { game: usize, error: FenError },
    /// A move token is not a legal move in its position.
    Move { game: usize, ply: usize, token: String, error: SanError },
    /// A tag is broken (`[Name "value"]` expected); `line` counts from 1.
    Tag { game: usize, line: usize, text: String },
    /// A `(` without `)`, `{` without `}`, or a `)`, `}` or `]` without its opening bracket.
    Unbalanced { game: usize, line: usize, what: char },
    /// The `Variant` tag names other rules than chess or Chess960.
    Variant { game: usize, name: String },
    /// A tag pair after moves on the same line (`1. f3 e5 [Event "x"] 2. g4`): tags belong
    /// before the movetext, so the record is broken (a tag pair starting a line after the
    /// moves begins the next game instead).
    TagInMovetext { game: usize, line: usize, text: String },
    /// A termination marker written against a move (`Qh4#0-1`): PGN separates symbols.
    GluedResult { game: usize, line: usize, token: String, result: String },
}

impl PgnError {
    /// Sets the game number (the tokenizer knows it only when the game ends).
    fn set_game(&mut self, n: usize) {
        match self {
            PgnError::Read(_) => {}
            PgnError::Fen { game, .. }
            | PgnError::Move { game, .. }
            | PgnError::Tag { game, .. }
            | PgnError::Unbalanced { game, .. }
            | PgnError::Variant { game, .. }
            | PgnError::TagInMovetext { game, .. }
            | PgnError::GluedResult { game, .. } => *game = n,
        }
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Read(e) => write!(f, "cannot read the PGN: {e}"),
            PgnError::Fen { game, error } => write!(f, "game {game}: bad FEN tag: {error}"),
            PgnError::Move { game, ply, token, error } => {
                write!(f, "game {game}, half-move {ply}: '{token}': {error}")
            }
            PgnError::Tag { game, line, text } => write!(f, "game {game}, line {line}: malformed tag: {text}"),
            PgnError::Unbalanced { game, line, what } => {
                write!(f, "game {game}, line {line}: unbalanced '{what}' in the movetext")
            }
            PgnError::Variant { game, name } => {
                write!(f, "game {game}: variant '{name}' is not supported (the FIDE Laws of chess and Chess960 only)")
            }
            PgnError::TagInMovetext { game, line, text } => {
                write!(f, "game {game}, line {line}: a tag pair in the middle of the moves: {text}")
            }
            PgnError::GluedResult { game, line, token, result } => {
                write!(
                    f,
                    "game {game}, line {line}: '{token}': the result {result} is written against the move (a space \
                     must separate them)"
                )
            }
        }
    }
}

impl std::error::Error for PgnError {}

impl PgnGame {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Sets (or replaces) a tag.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// A Chess960 game: the `Variant` tag says so (`Chess960`, Cute Chess's `fischerandom`, ...).
    pub fn is_chess960(&self) -> bool {
        Variant::of_tag(self.tag("Variant")) == Variant::Chess960
    }

    /// The start position (in Chess960 mode for a Chess960 game).
    pub fn start_position(&self) -> Result<Position, FenError> {
        let mut pos = match &self.start_fen {
            Some(f) => Position::from_fen(f)?,
            None => Position::startpos(),
        };
        if self.is_chess960() {
            pos.set_chess960(true);
        }
        Ok(pos)
    }
}

fn escape_tag(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes one game as PGN text (ending with a blank line). Moves are checked against the
/// position, so the SAN is always correct; an illegal move is an error naming it.
pub fn write_pgn(game: &PgnGame) -> Result<String, PgnError> {
    let start = game.start_position().map_err(|error| PgnError::Fen { game: 1, error })?;
    // Anything but the four game-termination markers would not read back: written as `*`.
    let result = match game.result.as_str() {
        "½-½" => "1/2-1/2",
        r if is_result(r) => r,
        _ => "*",
    };
    let mut out = String::new();
    for name in SEVEN_TAG_ROSTER {
        let value = if name == "Result" { result.to_string() } else { game.tag(name).unwrap_or("?").to_string() };
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(&value)));
    }
    let fen = start.to_fen();
    if let Some(v) = game.tag("Variant") {
        out.push_str(&format!("[Variant \"{}\"]\n", escape_tag(v)));
    }
    // A Chess960 game always names its start position (518 has the standard FEN).
    if fen != STARTPOS_FEN || game.is_chess960() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", escape_tag(&fen)));
    }
    for (k, v) in &game.tags {
        if SEVEN_TAG_ROSTER.contains(&k.as_str()) || matches!(k.as_str(), "SetUp" | "FEN" | "Variant") {
            continue;
        }
        out.push_str(&format!("[{k} \"{}\"]\n", escape_tag(v)));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut pos = start;
    let mut need_number = true;
    for (i, &m) in game.moves.iter().enumerate() {
        if !crate::chess::movegen::is_legal(&pos, m) {
            return Err(PgnError::Move {
                game: 1,
                ply: i + 1,
                token: m.to_uci(),
                error: SanError::Illegal(m.to_uci()),
            });
        }
        let white = pos.side_to_move() == crate::chess::Color::White;
        if white {
            tokens.push(format!("{}.", pos.fullmove_number()));
        } else if need_number {
            tokens.push(format!("{}...", pos.fullmove_number()));
        }
        tokens.push(notation::to_san(&pos, m));
        need_number = false;
        if let Some(Some(c)) = game.comments.get(i) {
            // '}' cannot appear inside a brace comment; words are separate tokens so long
            // comments wrap like everything else.
            let clean = c.replace('}', ")");
            let words: Vec<&str> = clean.split_whitespace().collect();
            match words.as_slice() {
                [] => tokens.push("{}".to_string()),
                [only] => tokens.push(format!("{{{only}}}")),
                [first, middle @ .., last] => {
                    tokens.push(format!("{{{first}"));
                    tokens.extend(middle.iter().map(|w| w.to_string()));
                    tokens.push(format!("{last}}}"));
                }
            }
            need_number = true;
        }
        pos = pos.make_move(m);
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        } else if t.starts_with('%') {
            // A comment word starting a line must not look like a '%' escape line.
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    Ok(out)
}

/// Reads every game of a PGN text. Comments, NAGs, annotation marks and variations are
/// skipped; comments directly after a main-line move are kept in `comments`. The first game
/// that cannot be read (its text, a move, its FEN, another variant) is the error.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    PgnReader::new(text.as_bytes())
        .map(|raw| raw.map_err(|e| PgnError::Read(e.to_string())).and_then(RawGame::parse))
        .collect()
}

/// The rules a game's `Variant` tag names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// No tag, or a name of standard chess (`Standard`, `From Position`, ...).
    Standard,
    /// Chess960 (`Chess960`, `Chess 960`, `Fischerandom`, `Fischer Random`, ...).
    Chess960,
    /// Anything else (Crazyhouse, Atomic, Antichess, Three-check, ...): not the FIDE Laws.
    Other(String),
}

impl Variant {
    /// The variant a `Variant` tag value names (case, blanks, `-` and `_` ignored).
    pub fn of_tag(tag: Option<&str>) -> Variant {
        let Some(value) = tag else { return Variant::Standard };
        let name: String = value
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_'))
            .collect::<String>()
            .to_ascii_lowercase();
        match name.as_str() {
            // python-chess's names of chess.Board, and Lichess's "From Position".
            "" | "standard" | "chess" | "classical" | "normal" | "fromposition" => Variant::Standard,
            // python-chess's and Cute Chess's names of Chess960, and the common short ones.
            "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc" => Variant::Chess960,
            _ => Variant::Other(value.to_string()),
        }
    }
}

/// One game as it stands in a PGN file: its tags and its main line as written, not yet
/// played out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based position of the game in the file.
    pub index: usize,
    /// The line of the file the game starts on (from 1).
    pub line: usize,
    /// Tags in file order (a repeated tag keeps its last value, in its first place).
    pub tags: Vec<(String, String)>,
    /// The main line's moves as written (move numbers, NAGs and `!?` marks gone) and the
    /// brace comments between them; variations are skipped.
    pub movetext: Vec<Token>,
    /// The game termination marker ending the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub termination: Option<String>,
    /// The first thing in the game's text that could not be read.
    pub error: Option<PgnError>,
}

/// A main-line element of the movetext.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Move(String),
    Comment(String),
}

impl RawGame {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The main line's moves as written.
    pub fn moves(&self) -> impl Iterator<Item = &str> {
        self.movetext.iter().filter_map(|t| if let Token::Move(m) = t { Some(m.as_str()) } else { None })
    }

    /// The recorded result: the movetext's termination marker, else the `Result` tag (`*`
    /// when neither gives one).
    pub fn result(&self) -> String {
        match &self.termination {
            Some(r) => r.clone(),
            None => tag_result(self.tag("Result")),
        }
    }

    /// The `Result` tag when it names another result than the termination marker (both
    /// present): the record contradicts itself.
    pub fn result_tag_mismatch(&self) -> Option<&str> {
        let tag = self.tag("Result")?;
        let marker = self.termination.as_deref()?;
        (tag_result(Some(tag)) != marker || !is_result(tag)).then_some(tag)
    }

    /// The rules the `Variant` tag names.
    pub fn variant(&self) -> Variant {
        Variant::of_tag(self.tag("Variant"))
    }

    /// The start position: the `FEN` tag or the standard one, in Chess960 mode for a Chess960
    /// game. Games of other variants are refused.
    pub fn start_position(&self) -> Result<Position, PgnError> {
        let chess960 = match self.variant() {
            Variant::Standard => false,
            Variant::Chess960 => true,
            Variant::Other(name) => return Err(PgnError::Variant { game: self.index, name }),
        };
        let mut pos = match self.tag("FEN") {
            Some(f) => Position::from_fen(f).map_err(|error| PgnError::Fen { game: self.index, error })?,
            None => Position::startpos(),
        };
        if chess960 {
            pos.set_chess960(true);
        }
        Ok(pos)
    }

    /// The game with every move played out; the first illegal move is an error.
    pub fn parse(self) -> Result<PgnGame, PgnError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let index = self.index;
        let mut pos = self.start_position()?;
        let result = self.result();
        let start_fen = self.tag("FEN").map(str::to_string);
        let mut game = PgnGame { tags: self.tags, start_fen, result, ..PgnGame::default() };
        for t in self.movetext {
            match t {
                Token::Move(token) => {
                    let m = notation::parse_san(&pos, &token).map_err(|error| PgnError::Move {
                        game: index,
                        ply: game.moves.len() + 1,
                        token: token.clone(),
                        error,
                    })?;
                    pos = pos.make_move(m);
                    game.moves.push(m);
                }
                Token::Comment(c) => {
                    let n = game.moves.len();
                    if n > 0 {
                        game.comments.resize(n, None);
                        let slot = &mut game.comments[n - 1];
                        *slot = Some(match slot.take() {
                            Some(prev) => format!("{prev} {c}"),
                            None => c,
                        });
                    }
                }
            }
        }
        game.comments.resize(game.moves.len(), None);
        Ok(game)
    }
}

/// The result a `Result` tag gives (`*` when missing or malformed).
fn tag_result(tag: Option<&str>) -> String {
    match tag {
        Some("½-½") => "1/2-1/2".to_string(),
        Some(r) if is_result(r) => r.to_string(),
        _ => "*".to_string(),
    }
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
}

/// The termination marker a symbol ends with after something else (`Qh4#0-1`, `e4*`), if any:
/// no move's notation ends that way.
fn glued_result(symbol: &str) -> Option<&'static str> {
    ["1/2-1/2", "½-½", "1-0", "0-1", "*"].into_iter().find(|r| symbol.len() > r.len() && symbol.ends_with(r))
}

/// Splits a PGN stream into games, one at a time, in memory bounded by the largest game.
///
/// A tokenizer for export and import format (PGN standard, sections 7 and 8): tag pairs
/// `[Name "value"]` with `\"` and `\\` escapes; brace comments `{...}` over any number of
/// lines and rest-of-line comments `;...`, in which every character is text; escape lines
/// (`%` in the first column); nested variations; NAGs `$n`, `!?`-style marks; move numbers
/// `12.` and `12...`. A game ends with its termination marker in the main line, where a tag
/// begins after its moves, at a blank line after its moves (as python-chess reads it), or at
/// the end of the input; so games without tags (import format) are told apart. A UTF-8 byte
/// order mark is skipped; invalid UTF-8 is read leniently. Text that cannot be read is the
/// game's `error`, and reading goes on with the next game. `Err` is a read error of `input`.
pub struct PgnReader<R: std::io::BufRead> {
    input: R,
    lexer: Lexer,
    done: bool,
}

impl<R: std::io::BufRead> PgnReader<R> {
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader { input, lexer: Lexer::new(), done: false }
    }
}

impl<R: std::io::BufRead> Iterator for PgnReader<R> {
    type Item = std::io::Result<RawGame>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(game) = self.lexer.ready.pop_front() {
                return Some(Ok(game));
            }
            if self.done {
                return None;
            }
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if buf.is_empty() {
                self.lexer.finish();
                self.done = true;
                continue;
            }
            for &b in buf {
                self.lexer.byte(b);
            }
            let n = buf.len();
            self.input.consume(n);
        }
    }
}

/// What the tokenizer is in the middle of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Mode {
    #[default]
    Between,
    /// A symbol (move, move number, result, NAG), collected in `buf`.
    Word,
    /// A brace comment, collected in `buf`.
    Brace,
    /// The rest of the line is skipped: a `;` comment, a `%` escape line, a broken tag.
    RestOfLine,
    Tag(TagStep),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagStep {
    BeforeName,
    Name,
    BeforeValue,
    Value,
    Escape,
    AfterValue,
}

/// The game being read.
#[derive(Default)]
struct Builder {
    game: RawGame,
    /// A move or a move number has been read: a tag or a blank line now ends the game.
    moves_begun: bool,
}

struct Lexer {
    /// Bytes of a UTF-8 byte order mark read at the start (3 once past it, or if none).
    bom: usize,
    mode: Mode,
    /// The current line (from 1).
    line: usize,
    at_line_start: bool,
    /// Nothing but blanks on this line so far (comments and escape lines are not blank).
    line_blank: bool,
    buf: Vec<u8>,
    /// A tag's name, and the tag's text so far (for the error message).
    tag_name: String,
    tag_text: Vec<u8>,
    /// Variation depth, and the line the outermost open variation began on.
    depth: usize,
    variation_line: usize,
    /// The line a brace comment began on.
    brace_line: usize,
    game: Option<Builder>,
    /// The line of the termination marker that ended the last game.
    marker_line: Option<usize>,
    /// The tag being read stands after moves on their line: it is the game's error, not a tag.
    tag_in_movetext: bool,
    games: usize,
    ready: std::collections::VecDeque<RawGame>,
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// Ends a symbol (besides blanks).
fn is_delimiter(b: u8) -> bool {
    is_blank(b) || matches!(b, b'\n' | b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']' | b'$')
}

fn is_tag_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-')
}

impl Lexer {
    fn new() -> Lexer {
        Lexer {
            bom: 0,
            mode: Mode::Between,
            line: 1,
            at_line_start: true,
            line_blank: true,
            buf: Vec::new(),
            tag_name: String::new(),
            tag_text: Vec::new(),
            depth: 0,
            variation_line: 0,
            brace_line: 0,
            game: None,
            marker_line: None,
            tag_in_movetext: false,
            games: 0,
            ready: std::collections::VecDeque::new(),
        }
    }

    fn byte(&mut self, b: u8) {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        if self.bom < BOM.len() {
            if b == BOM[self.bom] {
                self.bom += 1;
                return;
            }
            self.bom = BOM.len(); // (a broken mark is dropped, as invalid UTF-8 would be)
        }
        match self.mode {
            Mode::Between => self.between(b),
            Mode::Word => {
                if is_delimiter(b) {
                    self.end_word();
                    self.mode = Mode::Between;
                    self.between(b);
                } else {
                    self.buf.push(b);
                }
            }
            Mode::Brace => match b {
                b'}' => {
                    self.end_comment();
                    self.mode = Mode::Between;
                }
                b'\n' => {
                    self.line += 1;
                    self.buf.push(b);
                }
                _ => self.buf.push(b),
            },
            Mode::RestOfLine => {
                if b == b'\n' {
                    self.mode = Mode::Between;
                    self.between(b);
                }
            }
            Mode::Tag(step) => self.tag_byte(step, b),
        }
    }

    fn between(&mut self, b: u8) {
        let line_start = std::mem::replace(&mut self.at_line_start, false);
        if b == b'\n' {
            if self.line_blank {
                self.blank_line();
            }
            self.line += 1;
            self.at_line_start = true;
            self.line_blank = true;
            return;
        }
        if is_blank(b) {
            return;
        }
        let blank_so_far = std::mem::replace(&mut self.line_blank, false);
        match b {
            b'%' if line_start => self.mode = Mode::RestOfLine,
            b'{' => {
                self.buf.clear();
                self.brace_line = self.line;
                self.mode = Mode::Brace;
            }
            b';' => self.mode = Mode::RestOfLine,
            b'[' => self.begin_tag(blank_so_far),
            b'(' => {
                self.open_game();
                if self.depth == 0 {
                    self.variation_line = self.line;
                }
                self.depth += 1;
            }
            b')' => {
                if self.depth == 0 {
                    self.error(PgnError::Unbalanced { game: 0, line: self.line, what: ')' });
                } else {
                    self.depth -= 1;
                }
            }
            b'}' | b']' => self.error(PgnError::Unbalanced { game: 0, line: self.line, what: b as char }),
            _ => {
                self.buf.clear();
                self.buf.push(b);
                self.mode = Mode::Word;
            }
        }
    }

    /// A symbol has been read: a move, a move number, a result, a NAG or an annotation.
    fn end_word(&mut self) {
        if self.depth > 0 || self.buf.first() == Some(&b'$') {
            return; // inside a variation, or a NAG
        }
        let word = String::from_utf8_lossy(&self.buf).into_owned();
        if is_result(&word) {
            // A marker on the line where the last game ended is a stray repeat of it (as
            // python-chess reads it); elsewhere, with no game open, it is a game of its own
            // without tags or moves (import format allows one).
            if self.game.is_none() && self.marker_line == Some(self.line) {
                return;
            }
            let line = self.line;
            self.open_game().game.termination = Some(if word == "½-½" { "1/2-1/2".to_string() } else { word });
            self.close_game();
            self.marker_line = Some(line);
            return;
        }
        // A move number ("12", "12.", "12...", "12.e4"); "0-0" is castling, not a number.
        let after_digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
        let numbered = after_digits.len() < word.len() && (after_digits.is_empty() || after_digits.starts_with('.'));
        let san = if numbered { after_digits.trim_start_matches('.') } else { word.as_str() };
        let is_move = !san.is_empty()
            && !san.chars().all(|c| matches!(c, '!' | '?' | '.'))
            && !matches!(san, "e.p." | "ep" | "e.p");
        if !numbered && !is_move {
            return;
        }
        if let Some(result) = glued_result(san) {
            // `Qh4#0-1`: the move and the result run together. The marker still ends the game
            // (the next one is not swallowed), and the record is broken.
            let (line, token) = (self.line, word.clone());
            let game = self.open_game();
            game.moves_begun = true;
            game.game.movetext.push(Token::Move(san[..san.len() - result.len()].to_string()));
            game.game.termination = Some(tag_result(Some(result)));
            self.error(PgnError::GluedResult { game: 0, line, token, result: result.to_string() });
            self.close_game();
            self.marker_line = Some(line);
            return;
        }
        let game = self.open_game();
        game.moves_begun = true;
        if is_move {
            game.game.movetext.push(Token::Move(san.to_string()));
        }
    }

    fn end_comment(&mut self) {
        if self.depth > 0 {
            return;
        }
        if let Some(g) = &mut self.game {
            let text = String::from_utf8_lossy(&self.buf).trim().to_string();
            g.game.movetext.push(Token::Comment(text));
        }
    }

    /// A `[` outside comments; `line_start`: nothing but blanks before it on its line.
    fn begin_tag(&mut self, line_start: bool) {
        // A tag starting a line after the moves (or inside a variation) begins the next game;
        // one after moves on the same line is in the middle of the movetext, where no reader
        // can tell what it means (python-chess skips it): the game's error.
        let moves_begun = self.game.as_ref().is_some_and(|g| g.moves_begun);
        self.tag_in_movetext = moves_begun && !line_start && self.depth == 0;
        if !self.tag_in_movetext && (moves_begun || self.depth > 0) {
            self.close_game();
        }
        self.open_game();
        self.tag_name.clear();
        self.buf.clear();
        self.tag_text.clear();
        self.tag_text.push(b'[');
        self.mode = Mode::Tag(TagStep::BeforeName);
    }

    fn tag_byte(&mut self, step: TagStep, b: u8) {
        if b != b'\n' {
            self.tag_text.push(b);
        }
        let next = match (step, b) {
            (TagStep::Value, b'\\') => TagStep::Escape,
            (TagStep::Value, b'"') => TagStep::AfterValue,
            (TagStep::Value | TagStep::Escape, b'\n') => return self.tag_error(b),
            (TagStep::Value, _) => {
                self.buf.push(b);
                TagStep::Value
            }
            (TagStep::Escape, _) => {
                // `\"` and `\\` are the escapes; any other backslash is kept as it stands.
                if !matches!(b, b'"' | b'\\') {
                    self.buf.push(b'\\');
                }
                self.buf.push(b);
                TagStep::Value
            }
            (_, b'\n') => return self.tag_error(b),
            (TagStep::BeforeName, b) if is_blank(b) => TagStep::BeforeName,
            (TagStep::BeforeName | TagStep::Name, b) if is_tag_name_char(b) => {
                self.tag_name.push(b as char);
                TagStep::Name
            }
            (TagStep::Name | TagStep::BeforeValue, b) if is_blank(b) => TagStep::BeforeValue,
            (TagStep::Name | TagStep::BeforeValue, b'"') => TagStep::Value,
            (TagStep::AfterValue, b) if is_blank(b) => TagStep::AfterValue,
            (TagStep::AfterValue, b']') if self.tag_in_movetext => {
                let text = String::from_utf8_lossy(&self.tag_text).into_owned();
                self.error(PgnError::TagInMovetext { game: 0, line: self.line, text });
                self.mode = Mode::Between;
                return;
            }
            (TagStep::AfterValue, b']') => {
                let value = String::from_utf8_lossy(&self.buf).into_owned();
                let name = std::mem::take(&mut self.tag_name);
                let tags = &mut self.open_game().game.tags;
                match tags.iter_mut().find(|(k, _)| *k == name) {
                    Some(t) => t.1 = value,
                    None => tags.push((name, value)),
                }
                self.mode = Mode::Between;
                return;
            }
            _ => return self.tag_error(b),
        };
        self.mode = Mode::Tag(next);
    }

    /// A broken tag: the game is unreadable; the rest of the line is skipped.
    fn tag_error(&mut self, b: u8) {
        let text = String::from_utf8_lossy(&self.tag_text).trim_end().to_string();
        self.error(PgnError::Tag { game: 0, line: self.line, text });
        self.mode = Mode::RestOfLine;
        if b == b'\n' {
            self.mode = Mode::Between;
            self.between(b);
        }
    }

    fn blank_line(&mut self) {
        if self.game.as_ref().is_some_and(|g| g.moves_begun) {
            self.close_game();
        }
    }

    fn open_game(&mut self) -> &mut Builder {
        let line = self.line;
        self.game.get_or_insert_with(|| Builder { game: RawGame { line, ..RawGame::default() }, moves_begun: false })
    }

    /// Records the game's first error (opening a game for it if none is open).
    fn error(&mut self, e: PgnError) {
        let g = &mut self.open_game().game;
        if g.error.is_none() {
            g.error = Some(e);
        }
    }

    fn close_game(&mut self) {
        if self.depth > 0 {
            self.depth = 0;
            self.error(PgnError::Unbalanced { game: 0, line: self.variation_line, what: '(' });
        }
        let Some(Builder { mut game, .. }) = self.game.take() else { return };
        let empty = game.tags.is_empty()
            && !game.movetext.iter().any(|t| matches!(t, Token::Move(_)))
            && game.termination.is_none()
            && game.error.is_none();
        if empty {
            return;
        }
        self.games += 1;
        game.index = self.games;
        if let Some(e) = &mut game.error {
            e.set_game(self.games);
        }
        self.ready.push_back(game);
    }

    /// The end of the input.
    fn finish(&mut self) {
        match self.mode {
            Mode::Word => self.end_word(),
            Mode::Brace => {
                let line = self.brace_line;
                self.error(PgnError::Unbalanced { game: 0, line, what: '{' })
            }
            Mode::Tag(_) => self.tag_error(b' '),
            Mode::Between | Mode::RestOfLine => {}
        }
        self.mode = Mode::Between;
        self.close_game();
    }
}

impl PgnGame {
    /// A PGN record of a referee [`Game`](crate::rules::Game): its start position (kept only
    /// when it is not the standard one, or the game is Chess960: then with `Variant
    /// "Chess960"`), moves, and the result if the game has ended by the Laws (`*` otherwise).
    /// Other tags and comments are left for the caller to fill.
    pub fn from_game(game: &crate::rules::Game) -> PgnGame {
        let fen = game.start().to_fen();
        let chess960 = game.start().is_chess960();
        PgnGame {
            tags: if chess960 { vec![("Variant".into(), "Chess960".into())] } else { Vec::new() },
            start_fen: if fen == STARTPOS_FEN && !chess960 { None } else { Some(fen) },
            moves: game.moves().to_vec(),
            result: game.outcome().map_or("*", |o| o.result()).to_string(),
            ..PgnGame::default()
        }
    }

    /// Replays the game for the referee.
    pub fn to_game(&self) -> Result<crate::rules::Game, PgnError> {
        let start = self.start_position().map_err(|error| PgnError::Fen { game: 1, error })?;
        let mut game = crate::rules::Game::new(start);
        for (i, &m) in self.moves.iter().enumerate() {
            game.play(m).map_err(|error| PgnError::Move { game: 1, ply: i + 1, token: m.to_uci(), error })?;
        }
        Ok(game)
    }
}
