//! The referee: the state of a game from its start position and move list, by the FIDE
//! Laws beyond movement — checkmate (5.1.1), stalemate (5.2.1), dead position (5.2.2),
//! draws the player to move may claim (threefold 9.2, fifty moves 9.3, including the claim
//! made by declaring a move that creates the condition), and draws that end the game
//! automatically (fivefold 9.6.1, seventy-five moves 9.6.2, where a mate on the last move
//! takes precedence).
//!
//! Position identity is FIDE 9.2.3, which the foundation's Zobrist key already encodes
//! (an en-passant square counts only when the capture is legal), so repetition is counted
//! by comparing keys.
//!
//! A game also ends by a player's act: resignation (5.1.2) and a flag fall (6.9) lose,
//! unless the opponent cannot checkmate by any series of legal moves — then they draw
//! ([`Game::resign`], [`Game::flag_fall`], decided by [`unwinnable`]).

use super::dead::{self, DeadReason};
use super::unwinnable::{self, Budget, Decision};
use crate::chess::notation::{self, SanError};
use crate::chess::{movegen, Color, FenError, Move, Piece, Position, Square};
use std::fmt;

/// A game: the start position and the moves played from it. Self-play, the UCI loop and
/// the explain mode all build one; the referee judges it.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    /// `keys[i]` is the key of the position after `i` moves (so `keys[0]` is the start).
    keys: Vec<u64>,
    current: Position,
}

/// Why a move could not be added to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The start FEN is unusable.
    Fen(FenError),
    /// Move number `ply` (1-based half-move count from the start) is not legal or not notation.
    Move { ply: usize, error: SanError },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Fen(e) => write!(f, "bad FEN: {e}"),
            GameError::Move { ply, error } => write!(f, "move {} of the list: {error}", ply),
        }
    }
}

impl std::error::Error for GameError {}

impl From<FenError> for GameError {
    fn from(e: FenError) -> GameError {
        GameError::Fen(e)
    }
}

impl Game {
    /// A game starting from `start` with no moves yet.
    pub fn new(start: Position) -> Game {
        Game { start, moves: Vec::new(), keys: vec![start.key()], current: start }
    }

    /// A game known only by its current position and the keys of the positions before it
    /// (oldest first, as the UCI session keeps them for the search). Repetition counting is
    /// exact; the moves themselves are unknown, so the explainer cannot name an expired
    /// en-passant chance or say whether the king or the rook moved. Prefer
    /// [`Game::from_fen_and_moves`] when the moves are at hand.
    pub fn from_history(current: Position, earlier_keys: &[u64]) -> Game {
        let mut keys = earlier_keys.to_vec();
        keys.push(current.key());
        Game { start: current, moves: Vec::new(), keys, current }
    }

    /// A game from the standard starting position.
    pub fn startpos() -> Game {
        Game::new(Position::startpos())
    }

    /// A game from a FEN (`None` = the standard starting position) and a list of moves in
    /// UCI or SAN, exactly as UCI's `position [startpos | fen F] moves ...` builds one.
    pub fn from_fen_and_moves<S: AsRef<str>>(fen: Option<&str>, moves: &[S]) -> Result<Game, GameError> {
        let start = match fen {
            Some(f) => Position::from_fen(f)?,
            None => Position::startpos(),
        };
        let mut game = Game::new(start);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text.as_ref()).map_err(|error| GameError::Move { ply: i + 1, error })?;
        }
        Ok(game)
    }

    /// Plays a legal move. An illegal move is refused and the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), SanError> {
        if !movegen::is_legal(&self.current, m) {
            return Err(SanError::Illegal(m.to_uci()));
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move given as UCI or SAN text; returns the move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, SanError> {
        let m = notation::parse_move(&self.current, text)?;
        self.play_unchecked(m);
        Ok(m)
    }

    fn play_unchecked(&mut self, m: Move) {
        self.current = self.current.make_move(m);
        self.moves.push(m);
        self.keys.push(self.current.key());
    }

    /// Switches the castling move convention (king takes own rook in Chess960 mode) of the
    /// whole game, re-encoding the castling moves already played.
    pub fn set_chess960(&mut self, on: bool) {
        if self.start.is_chess960() == on {
            return;
        }
        let mut pos = self.start;
        pos.set_chess960(on);
        self.start = pos;
        for m in &mut self.moves {
            if let Some(side) = m.castle_side() {
                *m = pos.castling_move(pos.side_to_move(), side);
            }
            pos = pos.make_move(*m);
        }
        self.current = pos;
    }

    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn current(&self) -> &Position {
        &self.current
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Keys of every position of the game, the start first (FIDE 9.2.3 identity).
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// How many times the current position has occurred in the game (itself included).
    /// Only positions since the last capture or pawn move can be equal, so only those are looked at.
    pub fn repetitions(&self) -> u32 {
        count_in_window(&self.keys, self.current.halfmove_clock(), self.current.key())
    }

    /// The draws the player to move may claim now without a move (9.2, 9.3), for a game not
    /// over ([`Game::outcome`] is `None`): what [`Game::report`] lists as `claimable_draws`,
    /// without the report's searches (self-play asks at every move).
    pub fn claimable_draws(&self) -> Vec<DrawClaim> {
        claimable_now(&self.current, self.repetitions())
    }

    /// The squares where pawns landed after advancing two squares in this game, with the ply
    /// (0-based index into `moves`, or `None` for a double step recorded in the start FEN)
    /// — the explainer uses it to tell an expired en-passant chance from none at all.
    pub fn double_steps(&self) -> Vec<(Option<usize>, Square)> {
        let mut out = Vec::new();
        // The FEN's e.p. square is the square passed over; the pawn stands one further on.
        let mover = self.start.side_to_move().flip();
        if let Some(landing) = self.start.ep_square().and_then(|ep| ep.offset(mover.forward())) {
            out.push((None, landing));
        }
        for (i, m) in self.moves.iter().enumerate() {
            if m.kind() == crate::chess::MoveKind::DoublePush {
                out.push((Some(i), m.to()));
            }
        }
        out
    }

    /// The referee's report on the current position, with both players' verdicts on whether
    /// they can still checkmate (`mate_possible`).
    pub fn report(&self) -> PositionReport {
        // Both decisions once: the dead-position verdict is read from them, not decided again.
        let both = unwinnable::decide_both(&self.current, Budget::default());
        let mut r = PositionReport::with_dead_reason(&self.current, &self.keys, dead::dead_from(&both));
        r.mate_possible = Some(both);
        r
    }

    /// FIDE 5.1.2: `color` resigns now. The opponent wins, unless it cannot checkmate by any
    /// series of legal moves (a draw). A game already over on the board keeps its result.
    pub fn resign(&self, color: Color) -> Ruling {
        self.ruling(color, Act::Resignation)
    }

    /// FIDE 6.9: `color`'s flag falls now. The opponent wins, unless it cannot checkmate by
    /// any series of legal moves (a draw). A game already over on the board keeps its result.
    pub fn flag_fall(&self, color: Color) -> Ruling {
        self.ruling(color, Act::FlagFall)
    }

    /// FIDE 9.2, 9.3, 9.5: the player to move claims `draw`, on the board as it stands or, with
    /// `intended`, by declaring that move first (9.2.1.1, 9.3.1). The verdict says whether the
    /// claim is correct and the count it rests on; the claim never changes the game (the
    /// caller ends it, or plays the declared move of an incorrect claim, 9.5.3).
    pub fn claim(&self, draw: DrawClaim, intended: Option<Move>) -> Result<ClaimVerdict, ClaimError> {
        if let Some(outcome) = self.outcome() {
            return Err(ClaimError::GameOver(outcome));
        }
        let side = self.current.side_to_move();
        let (count, with_move) = match intended {
            None => (self.claim_count(draw), None),
            Some(m) => {
                if !movegen::is_legal(&self.current, m) {
                    return Err(ClaimError::IllegalMove(m.to_uci()));
                }
                let mut after = self.clone();
                after.play_unchecked(m);
                (after.claim_count(draw), Some((m, notation::to_san(&self.current, m))))
            }
        };
        let needed = match draw {
            DrawClaim::ThreefoldRepetition => 3,
            DrawClaim::FiftyMoves => 100,
        };
        Ok(ClaimVerdict { side, draw, with_move, count, correct: count >= needed })
    }

    /// What a claim of `draw` rests on in the current position: its occurrences, or the
    /// half-moves since the last capture or pawn move.
    fn claim_count(&self, draw: DrawClaim) -> u32 {
        match draw {
            DrawClaim::ThreefoldRepetition => self.repetitions(),
            DrawClaim::FiftyMoves => u32::from(self.current.halfmove_clock()),
        }
    }

    fn ruling(&self, side: Color, act: Act) -> Ruling {
        let opponent = unwinnable::decide(&self.current, side.flip(), Budget::default());
        Ruling { side, act, already_over: self.outcome(), opponent }
    }

    /// The game's result if it has ended by the Laws (checkmate or an automatic draw).
    /// Claimable draws do not end the game.
    pub fn outcome(&self) -> Option<Outcome> {
        outcome_of(
            &self.current,
            self.repetitions(),
            movegen::has_legal_move(&self.current),
            dead::dead_position(&self.current),
        )
    }
}

/// The draws claimable in `pos`, a position not over, that has occurred `repetitions` times.
fn claimable_now(pos: &Position, repetitions: u32) -> Vec<DrawClaim> {
    let mut claims = Vec::new();
    if repetitions >= 3 {
        claims.push(DrawClaim::ThreefoldRepetition);
    }
    if pos.halfmove_clock() >= 100 {
        claims.push(DrawClaim::FiftyMoves);
    }
    claims
}

fn count_in_window(keys: &[u64], halfmove_clock: u16, key: u64) -> u32 {
    let n = keys.len();
    let first = n.saturating_sub(halfmove_clock as usize + 1);
    keys[first..].iter().filter(|&&k| k == key).count() as u32
}

/// How a game ended by itself (no claim, no resignation, no clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// 5.1.1: the side that delivered mate wins.
    Checkmate { winner: Color },
    /// One of the automatic draws.
    Draw(AutomaticDraw),
}

impl Outcome {
    /// The PGN result string.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: Color::White } => "1-0",
            Outcome::Checkmate { winner: Color::Black } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }
}

/// What a player did that ends the game (apart from the moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// 5.1.2
    Resignation,
    /// 6.9
    FlagFall,
}

impl Act {
    pub fn code(self) -> &'static str {
        match self {
            Act::Resignation => "resignation",
            Act::FlagFall => "flag_fall",
        }
    }
    /// The article that rules it.
    pub fn rule(self) -> &'static str {
        match self {
            Act::Resignation => "5.1.2",
            Act::FlagFall => "6.9",
        }
    }
}

/// The Laws' result of a resignation or a flag fall.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Who resigned, or whose flag fell.
    pub side: Color,
    pub act: Act,
    /// The game had already ended on the board: that result stands (the act changes nothing).
    pub already_over: Option<Outcome>,
    /// Can the opponent still checkmate? With its evidence. A win needs no proof that mate is
    /// possible: only a proof that it is impossible turns the loss into a draw.
    pub opponent: Decision,
}

impl Ruling {
    /// The ruling as shown to a reader (`pos` the position ruled on): the opponent's helpmate
    /// shortened ([`unwinnable::for_reader`]).
    pub fn for_reader(mut self, pos: &Position) -> Ruling {
        self.opponent = unwinnable::for_reader(pos, self.side.flip(), &self.opponent);
        self
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self.already_over {
            Some(Outcome::Checkmate { winner }) => Some(winner),
            Some(Outcome::Draw(_)) => None,
            None if self.opponent.verdict.is_unwinnable() => None,
            None => Some(self.side.flip()),
        }
    }

    /// The PGN result.
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The article that decides the result.
    pub fn rule(&self) -> &'static str {
        match self.already_over {
            Some(Outcome::Checkmate { .. }) => "5.1.1",
            Some(Outcome::Draw(d)) => d.rule(),
            None => self.act.rule(),
        }
    }

    /// A draw because the opponent can never checkmate (not because the game had ended).
    pub fn drawn_by_unwinnability(&self) -> bool {
        self.already_over.is_none() && self.opponent.verdict.is_unwinnable()
    }
}

/// Draws that end the game without a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AutomaticDraw {
    /// 5.2.1
    Stalemate,
    /// 5.2.2 (insufficient material and other recognised dead positions)
    DeadPosition,
    /// 9.6.1
    FivefoldRepetition,
    /// 9.6.2
    SeventyFiveMoves,
}

impl AutomaticDraw {
    /// The JSON / machine name.
    pub fn code(self) -> &'static str {
        match self {
            AutomaticDraw::Stalemate => "stalemate",
            AutomaticDraw::DeadPosition => "dead_position",
            AutomaticDraw::FivefoldRepetition => "fivefold_repetition",
            AutomaticDraw::SeventyFiveMoves => "seventy_five_moves",
        }
    }
    /// The FIDE article.
    pub fn rule(self) -> &'static str {
        match self {
            AutomaticDraw::Stalemate => "5.2.1",
            AutomaticDraw::DeadPosition => "5.2.2",
            AutomaticDraw::FivefoldRepetition => "9.6.1",
            AutomaticDraw::SeventyFiveMoves => "9.6.2",
        }
    }
}

/// Draws the player to move may claim (they never end the game by themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// 9.2
    ThreefoldRepetition,
    /// 9.3
    FiftyMoves,
}

impl DrawClaim {
    pub fn code(self) -> &'static str {
        match self {
            DrawClaim::ThreefoldRepetition => "threefold_repetition",
            DrawClaim::FiftyMoves => "fifty_moves",
        }
    }
    /// The article for a claim on the board as it stands (`now`) or by declaring a move.
    pub fn rule(self, now: bool) -> &'static str {
        match (self, now) {
            (DrawClaim::ThreefoldRepetition, true) => "9.2.1.2",
            (DrawClaim::ThreefoldRepetition, false) => "9.2.1.1",
            (DrawClaim::FiftyMoves, true) => "9.3.2",
            (DrawClaim::FiftyMoves, false) => "9.3.1",
        }
    }
}

/// A claim the player to move could make by writing down (declaring) `mv` first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimWithMove {
    pub mv: Move,
    pub san: String,
    pub draw: DrawClaim,
}

/// The arbiter's answer to a draw claim ([`Game::claim`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimVerdict {
    /// The claimant: the player to move.
    pub side: Color,
    pub draw: DrawClaim,
    /// The move declared first (9.2.1.1, 9.3.1), with its SAN.
    pub with_move: Option<(Move, String)>,
    /// What the claim rests on, in the position it is about (after the declared move, if
    /// any): the position's occurrences (threefold) or the half-moves since the last capture
    /// or pawn move (fifty moves).
    pub count: u32,
    /// The condition holds: the game is drawn (9.5.2). Otherwise it goes on (9.5.3), and a
    /// declared move must be played.
    pub correct: bool,
}

impl ClaimVerdict {
    /// The article the claim is judged by: the condition's (9.2.1.x, 9.3.x) when correct,
    /// 9.5.3 (the game goes on) when not.
    pub fn rule(&self) -> &'static str {
        if self.correct {
            self.draw.rule(self.with_move.is_none())
        } else {
            "9.5.3"
        }
    }
}

/// Why a claim cannot even be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimError {
    /// The game has already ended.
    GameOver(Outcome),
    /// The declared move is not legal here (its UCI text).
    IllegalMove(String),
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::GameOver(o) => write!(f, "the game is already over ({})", o.result()),
            ClaimError::IllegalMove(m) => write!(f, "the declared move {m} is not legal here"),
        }
    }
}

/// Everything the referee says about a position in its game (the contract's "position report").
#[derive(Clone, Debug)]
pub struct PositionReport {
    pub fen: String,
    pub side_to_move: Color,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Vec<(Piece, Square)>,
    pub legal_moves: usize,
    pub checkmate: bool,
    pub stalemate: bool,
    /// Dead by material alone (both players' proofs are material ones).
    pub insufficient_material: bool,
    /// Dead position (5.2.2): neither player can checkmate (`rules::dead`).
    pub dead_position: bool,
    /// Why it is dead, when `dead_position`.
    pub dead_reason: Option<DeadReason>,
    /// Can each player still checkmate (White, Black)? Filled by [`Game::report`]; `None` in
    /// a report made by [`PositionReport::new`].
    pub mate_possible: Option<[Decision; 2]>,
    pub automatic_draw: Option<AutomaticDraw>,
    /// Claims available now, with the condition already on the board (9.2.1.2, 9.3.2).
    pub claimable_draws: Vec<DrawClaim>,
    /// Claims available by declaring a move that creates the condition (9.2.1.1, 9.3.1).
    pub claimable_with_move: Vec<ClaimWithMove>,
    /// Occurrences of this position in the game, itself included (FIDE 9.2.3 identity).
    pub repetitions: u32,
    pub halfmove_clock: u16,
}

/// How the board alone has ended the game (checkmate, stalemate, the seventy-five-move rule),
/// without the game's history (fivefold repetition) or the dead-position decision.
pub fn board_outcome(pos: &Position) -> Option<Outcome> {
    outcome_of(pos, 1, movegen::has_legal_move(pos), None)
}

fn outcome_of(pos: &Position, repetitions: u32, has_moves: bool, dead: Option<DeadReason>) -> Option<Outcome> {
    if !has_moves {
        return Some(if pos.in_check() {
            Outcome::Checkmate { winner: pos.side_to_move().flip() }
        } else {
            Outcome::Draw(AutomaticDraw::Stalemate)
        });
    }
    if dead.is_some() {
        Some(Outcome::Draw(AutomaticDraw::DeadPosition))
    } else if repetitions >= 5 {
        Some(Outcome::Draw(AutomaticDraw::FivefoldRepetition))
    } else if pos.halfmove_clock() >= 150 {
        // 9.6.2: reached only when the last move did not mate (mate was returned above).
        Some(Outcome::Draw(AutomaticDraw::SeventyFiveMoves))
    } else {
        None
    }
}

impl PositionReport {
    /// The report as shown to a reader (`pos` the position reported on): each helpmate of
    /// `mate_possible` shortened ([`unwinnable::for_reader`]; the referee and the programs
    /// reading reports need only the verdicts, and do not pay for it).
    pub fn for_reader(mut self, pos: &Position) -> PositionReport {
        if let Some(both) = &mut self.mate_possible {
            for (d, side) in both.iter_mut().zip(Color::ALL) {
                *d = unwinnable::for_reader(pos, side, d);
            }
        }
        self
    }

    /// The report for `pos`, the last position of a game whose position keys (start first,
    /// `pos` last) are `keys`. With `keys == [pos.key()]` the position stands alone.
    pub fn new(pos: &Position, keys: &[u64]) -> PositionReport {
        PositionReport::with_dead_reason(pos, keys, dead::dead_position(pos))
    }

    /// As [`PositionReport::new`], with the dead-position verdict already decided.
    fn with_dead_reason(pos: &Position, keys: &[u64], dead_reason: Option<DeadReason>) -> PositionReport {
        let moves = movegen::legal_moves(pos);
        let repetitions = count_in_window(keys, pos.halfmove_clock(), pos.key()).max(1);
        let outcome = outcome_of(pos, repetitions, !moves.is_empty(), dead_reason);
        let automatic_draw = match outcome {
            Some(Outcome::Draw(d)) => Some(d),
            _ => None,
        };
        let checkers =
            pos.checkers().into_iter().filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq))).collect::<Vec<_>>();
        let mut claimable_draws = Vec::new();
        let mut claimable_with_move = Vec::new();
        if outcome.is_none() {
            claimable_draws = claimable_now(pos, repetitions);
            let mut next_keys = keys.to_vec();
            for &m in moves.iter() {
                let after = pos.make_move(m);
                next_keys.push(after.key());
                let mut san = None;
                if !claimable_draws.contains(&DrawClaim::ThreefoldRepetition)
                    && count_in_window(&next_keys, after.halfmove_clock(), after.key()) >= 3
                {
                    let s = notation::to_san(pos, m);
                    claimable_with_move.push(ClaimWithMove {
                        mv: m,
                        san: s.clone(),
                        draw: DrawClaim::ThreefoldRepetition,
                    });
                    san = Some(s);
                }
                if !claimable_draws.contains(&DrawClaim::FiftyMoves) && after.halfmove_clock() >= 100 {
                    let san = san.unwrap_or_else(|| notation::to_san(pos, m));
                    claimable_with_move.push(ClaimWithMove { mv: m, san, draw: DrawClaim::FiftyMoves });
                }
                next_keys.pop();
            }
        }
        PositionReport {
            fen: pos.to_fen(),
            side_to_move: pos.side_to_move(),
            checkers,
            legal_moves: moves.len(),
            checkmate: matches!(outcome, Some(Outcome::Checkmate { .. })),
            stalemate: outcome == Some(Outcome::Draw(AutomaticDraw::Stalemate)),
            insufficient_material: dead_reason.is_some_and(|d| d.is_material()),
            dead_position: dead_reason.is_some(),
            dead_reason,
            mate_possible: None,
            automatic_draw,
            claimable_draws,
            claimable_with_move,
            repetitions,
            halfmove_clock: pos.halfmove_clock(),
        }
    }

    /// The game's end by the Laws, if it has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.checkmate {
            Some(Outcome::Checkmate { winner: self.side_to_move.flip() })
        } else {
            self.automatic_draw.map(Outcome::Draw)
        }
    }

    pub fn is_game_over(&self) -> bool {
        self.outcome().is_some()
    }
}

/// What `arbiter referee` can find wrong with a recorded game (the codes of its JSON; each
/// language names them in `Wording::referee`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemCode {
    IllegalMove,
    MoveAfterEnd,
    ResultContradictsLaws,
    /// The game's text cannot be read (broken tag, unbalanced brackets, a tag pair in the
    /// moves, a result against a move, bad FEN tag), or a move text is no move in any notation.
    Unreadable,
    /// The `Variant` tag names other rules (Crazyhouse, Atomic, ...): the game is not judged.
    UnsupportedVariant,
    /// The `Result` tag and the movetext's termination marker disagree (the marker is taken).
    ResultTagMismatch,
}

impl ProblemCode {
    pub const ALL: [ProblemCode; 6] = [
        ProblemCode::IllegalMove,
        ProblemCode::MoveAfterEnd,
        ProblemCode::ResultContradictsLaws,
        ProblemCode::Unreadable,
        ProblemCode::UnsupportedVariant,
        ProblemCode::ResultTagMismatch,
    ];

    /// The code as JSON gives it, in every language.
    pub fn code(self) -> &'static str {
        match self {
            ProblemCode::IllegalMove => "illegal_move",
            ProblemCode::MoveAfterEnd => "move_after_end",
            ProblemCode::ResultContradictsLaws => "result_contradicts_laws",
            ProblemCode::Unreadable => "unreadable",
            ProblemCode::UnsupportedVariant => "unsupported_variant",
            ProblemCode::ResultTagMismatch => "result_tag_mismatch",
        }
    }
}
