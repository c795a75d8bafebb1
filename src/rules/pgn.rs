//! PGN: writing a game (seven-tag roster, `Variant "Chess960"`, `SetUp`/`FEN` for other start
//! positions, any extra tags, per-move comments, lines of at most 80 characters) and reading PGN back
//! (tags, comments `{..}` and `;..`, NAGs, `!?`-style annotations, nested variations,
//! move numbers, results, several games per file). [`PgnReader`] splits a stream into
//! games one at a time, so a file of any size is read in constant memory.

use crate::chess::notation::{self, SanError};
use crate::chess::{FenError, Move, Position, STARTPOS_FEN};
use std::fmt;

/// The seven-tag roster, in the order PGN requires.
pub const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

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
    /// The `FEN` tag (or `start_fen`) is not a valid position.
    Fen { game: usize, error: FenError },
    /// A move token is not a legal move in its position.
    Move { game: usize, ply: usize, token: String, error: SanError },
    /// A tag line is broken (`[Name "value"]` expected).
    Tag { game: usize, line: String },
    /// A `(` without `)`, `{` without `}`, or a `)` or `}` without its opening bracket.
    Unbalanced { game: usize, what: char },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Fen { game, error } => write!(f, "game {game}: bad FEN tag: {error}"),
            PgnError::Move { game, ply, token, error } => {
                write!(f, "game {game}, half-move {ply}: '{token}': {error}")
            }
            PgnError::Tag { game, line } => write!(f, "game {game}: malformed tag line: {line}"),
            PgnError::Unbalanced { game, what } => write!(f, "game {game}: unbalanced '{what}' in the movetext"),
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
        self.tag("Variant").is_some_and(is_chess960_variant)
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

/// The `Variant` tag values that name Chess960 (as python-chess and Cute Chess write them).
fn is_chess960_variant(v: &str) -> bool {
    let v: String = v.chars().filter(|c| !c.is_whitespace() && *c != '-').collect::<String>().to_ascii_lowercase();
    matches!(v.as_str(), "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc")
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
/// skipped; comments directly after a main-line move are kept in `comments`.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    PgnReader::new(text.as_bytes()).map(|raw| raw.and_then(|r| r.parse())).collect()
}

/// One game as it stands in a PGN file: its tags and its movetext, not yet played out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based position of the game in the file.
    pub index: usize,
    pub tags: Vec<(String, String)>,
    pub movetext: String,
}

/// What the movetext holds, in order: main-line moves as written (move numbers, `!?` marks
/// and NAGs gone), the comments after them, and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Move(String),
    Comment(String),
    Result(String),
}

impl RawGame {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The main line's tokens (variations skipped).
    pub fn tokens(&self) -> Result<Vec<Token>, PgnError> {
        movetext_tokens(self.index, &self.movetext)
    }

    /// The game with every move played out; the first illegal move is an error.
    pub fn parse(self) -> Result<PgnGame, PgnError> {
        let index = self.index;
        let tokens = self.tokens()?;
        let start_fen = self.tag("FEN").map(str::to_string);
        let mut game = PgnGame { tags: self.tags, start_fen, ..PgnGame::default() };
        let mut pos = game.start_position().map_err(|error| PgnError::Fen { game: index, error })?;
        for t in tokens {
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
                Token::Result(r) => game.result = r,
            }
        }
        game.comments.resize(game.moves.len(), None);
        if game.result.is_empty() {
            game.result = tag_result(game.tag("Result"));
        }
        Ok(game)
    }
}

/// The result a `Result` tag gives (`*` when missing or malformed).
pub fn tag_result(tag: Option<&str>) -> String {
    match tag {
        Some("½-½") => "1/2-1/2".to_string(),
        Some(r) if is_result(r) => r.to_string(),
        _ => "*".to_string(),
    }
}

/// Splits a PGN stream into games, one at a time (constant memory for any file size).
/// Invalid UTF-8 is read leniently; a line starting with `%` is skipped (PGN standard 6).
pub struct PgnReader<R: std::io::BufRead> {
    input: R,
    peeked: Option<String>,
    games: usize,
}

impl<R: std::io::BufRead> PgnReader<R> {
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader { input, peeked: None, games: 0 }
    }

    fn peek(&mut self) -> Option<&str> {
        if self.peeked.is_none() {
            let mut buf = Vec::new();
            match self.input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    self.peeked = Some(line.trim_end_matches(['\n', '\r']).to_string());
                }
            }
        }
        self.peeked.as_deref()
    }

    fn take(&mut self) -> Option<String> {
        self.peek();
        self.peeked.take()
    }
}

impl<R: std::io::BufRead> Iterator for PgnReader<R> {
    type Item = Result<RawGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let index = self.games + 1;
            // Tag section.
            let mut tags = Vec::new();
            while let Some(l) = self.peek() {
                let t = l.trim();
                if t.is_empty() || l.starts_with('%') {
                    self.take();
                    continue;
                }
                if !t.starts_with('[') {
                    break;
                }
                let t = t.to_string();
                self.take();
                match parse_tag(&t) {
                    Some(tag) => tags.push(tag),
                    None => {
                        self.games += 1;
                        self.skip_movetext();
                        return Some(Err(PgnError::Tag { game: index, line: t }));
                    }
                }
            }
            // Movetext: up to the next tag line that follows it, or the end.
            let mut movetext = String::new();
            let mut in_brace = false;
            while let Some(l) = self.peek() {
                if !in_brace && l.trim_start().starts_with('[') {
                    break;
                }
                let Some(l) = self.take() else { break };
                if l.starts_with('%') {
                    continue;
                }
                // An open brace comment may span lines: a '[' inside it is not a tag.
                for c in l.chars() {
                    match c {
                        '{' => in_brace = true,
                        '}' => in_brace = false,
                        _ => {}
                    }
                }
                movetext.push_str(&l);
                movetext.push('\n');
            }
            if tags.is_empty() && movetext.trim().is_empty() {
                self.peek()?;
                continue;
            }
            self.games += 1;
            return Some(Ok(RawGame { index, tags, movetext }));
        }
    }
}

impl<R: std::io::BufRead> PgnReader<R> {
    /// Drops the rest of a game after a broken tag line.
    fn skip_movetext(&mut self) {
        while let Some(l) = self.peek() {
            if l.trim_start().starts_with('[') {
                return;
            }
            self.take();
        }
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let value = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut v = String::new();
    let mut escaped = false;
    for c in value.chars() {
        if escaped {
            v.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else {
            v.push(c);
        }
    }
    Some((name.to_string(), v))
}

fn is_result(t: &str) -> bool {
    matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
}

/// The main line of a movetext as tokens (variations and NAGs skipped, move numbers removed).
fn movetext_tokens(index: usize, movetext: &str) -> Result<Vec<Token>, PgnError> {
    let chars: Vec<char> = movetext.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut variation_depth = 0usize;
    while i < chars.len() {
        match chars[i] {
            '{' => {
                let start = i + 1;
                while i < chars.len() && chars[i] != '}' {
                    i += 1;
                }
                if i >= chars.len() {
                    return Err(PgnError::Unbalanced { game: index, what: '{' });
                }
                if variation_depth == 0 {
                    out.push(Token::Comment(chars[start..i].iter().collect::<String>().trim().to_string()));
                }
                i += 1;
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            // A '}' outside a comment (it would otherwise end an empty token forever).
            '}' => return Err(PgnError::Unbalanced { game: index, what: '}' }),
            '(' => {
                variation_depth += 1;
                i += 1;
            }
            ')' => {
                if variation_depth == 0 {
                    return Err(PgnError::Unbalanced { game: index, what: ')' });
                }
                variation_depth -= 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && !matches!(chars[i], '{' | '}' | '(' | ')' | ';') {
                    i += 1;
                }
                let token: String = chars[start..i].iter().collect();
                if variation_depth > 0 {
                    continue;
                }
                if is_result(&token) {
                    out.push(Token::Result(if token == "½-½" { "1/2-1/2".to_string() } else { token }));
                    continue;
                }
                // NAGs, and an "e.p." written as its own word after an en-passant capture.
                if token.starts_with('$') || matches!(token.as_str(), "e.p." | "ep" | "e.p") {
                    continue;
                }
                // Strip a move number ("12." / "12..." / "12...e5").
                let san = if token.starts_with(|c: char| c.is_ascii_digit()) && token.contains('.') {
                    token.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches('.')
                } else {
                    token.as_str()
                };
                if san.is_empty() || san.chars().all(|c| matches!(c, '!' | '?')) {
                    continue;
                }
                out.push(Token::Move(san.to_string()));
            }
        }
    }
    if variation_depth > 0 {
        return Err(PgnError::Unbalanced { game: index, what: '(' });
    }
    Ok(out)
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
