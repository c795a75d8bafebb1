//! One game between two players, with clocks, judged by the referee (`rules::referee`).
//!
//! Order of business at every turn, for the player having the move:
//! 1. an automatic end (checkmate, stalemate, dead position, fivefold, seventy-five moves)
//!    finishes the game;
//! 2. a draw by threefold repetition or the fifty-move rule is claimed *for* that player as
//!    soon as it may be claimed on the position on the board (FIDE 9.2.2 / 9.3.2; claims
//!    "with the intended move", 9.2.1.1 / 9.3.1, are not made);
//! 3. the player is asked for a move. No answer (crash, stall, flag) or an illegal move loses
//!    the game — except that a flag fall is a draw when the opponent cannot checkmate by any
//!    series of legal moves (FIDE 6.9, ruled by the referee) — and the player is restarted;
//! 4. optional score adjudication (off unless `--resign-score` / `--draw-score`): the losing
//!    side resigns, which the referee rules like any resignation (FIDE 5.1.2: a draw when
//!    the winner could never checkmate).

use super::player::{GoRequest, Player, PlayerError, Reply};
use super::tc::{Clock, MoveLimit};
use crate::chess::{notation, Color, Move, Position};
use crate::engine::{Limits, Score};
use crate::rules::{AutomaticDraw, DrawClaim, Game, Outcome};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The result of a game, as PGN writes it (why it ended is [`EndReason`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// Points for White.
    pub fn white_points(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Checkmate or an automatic draw on the board, as the referee ruled.
    OnTheBoard(Outcome),
    /// A draw claimed for the player having the move.
    Claimed(DrawClaim),
    /// The flag of this side fell.
    TimeForfeit(Color),
    /// This side's flag fell but the opponent cannot checkmate by any series of legal moves
    /// (draw, FIDE 6.9).
    TimeForfeitNoMate(Color),
    IllegalMove {
        side: Color,
        text: String,
    },
    /// The engine crashed or stalled (no move before its deadline, outside a clock).
    Disconnected {
        side: Color,
        error: String,
    },
    /// Both engines agreed, for the configured number of moves, that this side wins: the
    /// other resigns.
    ResignAdjudication(Color),
    /// The scores said this side should resign, but the opponent cannot checkmate by any
    /// series of legal moves (draw, FIDE 5.1.2).
    ResignNoMate(Color),
    DrawAdjudication,
    /// The match was interrupted (Ctrl-C, SIGTERM) before the game ended: it counts for
    /// nobody and is not written.
    Interrupted,
}

impl EndReason {
    /// The PGN `Termination` tag (the standard's values).
    pub fn termination_tag(&self) -> &'static str {
        match self {
            EndReason::OnTheBoard(_) | EndReason::Claimed(_) => "normal",
            EndReason::TimeForfeit(_) | EndReason::TimeForfeitNoMate(_) => "time forfeit",
            EndReason::IllegalMove { .. } => "rules infraction",
            EndReason::Disconnected { .. } => "abandoned",
            EndReason::ResignAdjudication(_) | EndReason::ResignNoMate(_) | EndReason::DrawAdjudication => {
                "adjudication"
            }
            EndReason::Interrupted => "unterminated",
        }
    }
}

/// "White" / "Black".
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::OnTheBoard(Outcome::Checkmate { winner }) => {
                write!(f, "{} mates: checkmate (FIDE 5.1.1)", side_name(*winner))
            }
            EndReason::OnTheBoard(Outcome::Draw(d)) => {
                let what = match d {
                    AutomaticDraw::Stalemate => "stalemate",
                    AutomaticDraw::DeadPosition => "dead position",
                    AutomaticDraw::FivefoldRepetition => "fivefold repetition",
                    AutomaticDraw::SeventyFiveMoves => "seventy-five-move rule",
                };
                write!(f, "draw by {what} (FIDE {})", d.rule())
            }
            EndReason::Claimed(c) => {
                let what = match c {
                    DrawClaim::ThreefoldRepetition => "threefold repetition",
                    DrawClaim::FiftyMoves => "fifty-move rule",
                };
                write!(f, "draw by {what}, claimed (FIDE {})", c.rule(true))
            }
            EndReason::TimeForfeit(c) => write!(f, "{} loses on time (FIDE 6.9)", side_name(*c)),
            EndReason::TimeForfeitNoMate(c) => write!(
                f,
                "{} flagged but {} cannot checkmate by any series of legal moves: draw (FIDE 6.9)",
                side_name(*c),
                side_name(c.flip())
            ),
            EndReason::IllegalMove { side, text } => write!(f, "{} made an illegal move: {text}", side_name(*side)),
            EndReason::Disconnected { side, error } => write!(f, "{} disconnects: {error}", side_name(*side)),
            EndReason::ResignAdjudication(c) => {
                write!(f, "{} wins by adjudication: {} resigns (FIDE 5.1.2)", side_name(*c), side_name(c.flip()))
            }
            EndReason::ResignNoMate(c) => write!(
                f,
                "{} resigns by adjudication but {} cannot checkmate by any series of legal moves: draw (FIDE 5.1.2)",
                side_name(*c),
                side_name(c.flip())
            ),
            EndReason::DrawAdjudication => write!(f, "draw by adjudication"),
            EndReason::Interrupted => write!(f, "the match was interrupted"),
        }
    }
}

/// Score adjudication settings (both off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// (moves, cp): the game is won for a side when, for `moves` consecutive moves of each
    /// player, both engines' scores say that side is ahead by at least `cp`.
    pub resign: Option<(u32, i32)>,
    /// (moves, cp, from_move): drawn when both engines' |score| ≤ cp for `moves` consecutive
    /// moves each, from full move `from_move` on.
    pub draw: Option<(u32, i32, u32)>,
}

/// One move as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub san: String,
    /// From the mover's point of view.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub time: Duration,
}

/// Everything about a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub start_fen: String,
    /// Chess960: castling written king takes own rook; the PGN says `Variant "Chess960"`.
    pub chess960: bool,
    pub white: String,
    pub black: String,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    pub reason: EndReason,
    /// Which sides must be restarted before their next game (White, Black).
    pub restart: [bool; 2],
}

impl GameRecord {
    /// White's points as records and data lines write them (`1.0`, `0.5`, `0.0`).
    pub fn result_text(&self) -> &'static str {
        crate::data::records::result_text(self.result.white_points())
    }

    /// Every move with the score its engine gave.
    pub fn scored_moves(&self) -> impl Iterator<Item = (Move, Option<Score>)> + '_ {
        self.moves.iter().map(|m| (m.mv, m.score))
    }
}

/// How one game is played.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub limits: MoveLimit,
    pub adjudication: Adjudication,
    /// Waiting time for a move without a clock (nodes/depth) before the engine counts as stalled.
    pub stall_timeout: Duration,
    /// Extra wait past the flag before giving up on a move (the move still loses on time).
    pub flag_grace: Duration,
    /// Claim threefold / fifty-move draws for the players (on by default; off lets games run
    /// to the automatic fivefold / seventy-five-move endings).
    pub claim_draws: bool,
    /// When set, the game is abandoned at once ([`EndReason::Interrupted`]), even in the
    /// middle of a player's move.
    pub interrupt: Option<&'static AtomicBool>,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            limits: MoveLimit::Fixed(Limits { nodes: Some(1000), ..Limits::default() }),
            adjudication: Adjudication::default(),
            stall_timeout: Duration::from_secs(60),
            flag_grace: Duration::from_millis(200),
            claim_draws: true,
            interrupt: None,
        }
    }
}

/// Counts consecutive plies on which both engines agreed, for score adjudication.
#[derive(Default)]
struct AdjudicationState {
    win_white: u32,
    win_black: u32,
    draw: u32,
}

/// Plays one game from `start` between `white` and `black`.
pub fn play_game(start: &Position, white: &mut dyn Player, black: &mut dyn Player, cfg: &GameConfig) -> GameRecord {
    let start_fen = start.to_fen();
    let mut rec = GameRecord {
        start_fen: start_fen.clone(),
        chess960: start.is_chess960(),
        white: white.name().to_string(),
        black: black.name().to_string(),
        moves: Vec::new(),
        result: GameResult::Draw,
        reason: EndReason::DrawAdjudication,
        restart: [false; 2],
    };
    for side in [Color::White, Color::Black] {
        let p: &mut dyn Player = if side == Color::White { &mut *white } else { &mut *black };
        if let Err(e) = p.new_game() {
            return finish_forfeit(rec, side, EndReason::Disconnected { side, error: e.to_string() }, start);
        }
    }
    let mut clocks = match cfg.limits {
        MoveLimit::Clock(tc) => Some([Clock::new(tc), Clock::new(tc)]),
        MoveLimit::Fixed(_) => None,
    };
    let mut game = Game::new(*start);
    let mut adj = AdjudicationState::default();
    let interrupted = || cfg.interrupt.is_some_and(|f| f.load(Ordering::SeqCst));
    loop {
        if interrupted() {
            rec.reason = EndReason::Interrupted;
            return rec;
        }
        let pos = *game.current();
        // Every end is the referee's (rules::referee): the board, claims, flag falls (6.9)
        // and resignations (5.1.2); nothing here decides a rule by itself.
        if let Some(end) = game.outcome() {
            rec.result = match end {
                Outcome::Checkmate { winner } => GameResult::win_for(winner),
                Outcome::Draw(_) => GameResult::Draw,
            };
            rec.reason = EndReason::OnTheBoard(end);
            return rec;
        }
        if cfg.claim_draws {
            if let Some(&claim) = game.claimable_draws().first() {
                rec.result = GameResult::Draw;
                rec.reason = EndReason::Claimed(claim);
                return rec;
            }
        }
        let side = pos.side_to_move();
        let (limits, deadline) = match (&cfg.limits, &clocks) {
            (MoveLimit::Clock(tc), Some(c)) => {
                let [w, b] = c;
                let own = if side == Color::White { w } else { b };
                (
                    Limits {
                        wtime: Some(w.remaining),
                        btime: Some(b.remaining),
                        winc: Some(tc.increment),
                        binc: Some(tc.increment),
                        movestogo: own.moves_to_go(),
                        ..Limits::default()
                    },
                    own.remaining + cfg.flag_grace,
                )
            }
            (MoveLimit::Fixed(limits), _) => (limits.clone(), limits.movetime.unwrap_or_default() + cfg.stall_timeout),
            (MoveLimit::Clock(_), None) => unreachable!("clocks exist with a clock limit"),
        };
        let req = GoRequest {
            start_fen: &start_fen,
            moves: game.moves(),
            position: &pos,
            history: game.keys(),
            limits,
            deadline,
            interrupt: cfg.interrupt,
        };
        let player: &mut dyn Player = if side == Color::White { &mut *white } else { &mut *black };
        let reply: Result<Reply, PlayerError> = player.go(&req);
        let reply = match reply {
            Ok(r) => r,
            Err(PlayerError::Interrupted) => {
                rec.reason = EndReason::Interrupted;
                return rec;
            }
            Err(PlayerError::NoReply { waited }) if clocks.is_some() => {
                log::warn!(
                    "{} ({}) flagged: no move after {:.3}s with {:.3}s on the clock",
                    player.name(),
                    side_name(side),
                    waited.as_secs_f64(),
                    deadline.saturating_sub(cfg.flag_grace).as_secs_f64()
                );
                rec.restart[side.index()] = true;
                return flag_fall(rec, side, &game);
            }
            Err(e) => {
                log::warn!("{} ({}) failed: {e}", player.name(), side_name(side));
                return finish_forfeit(rec, side, EndReason::Disconnected { side, error: e.to_string() }, &pos);
            }
        };
        if let Some(c) = clocks.as_mut() {
            let left = c[side.index()].remaining;
            if !c[side.index()].charge(reply.elapsed) {
                log::warn!(
                    "{} ({}) lost on time: the move took {:.3}s with {:.3}s on the clock",
                    player.name(),
                    side_name(side),
                    reply.elapsed.as_secs_f64(),
                    left.as_secs_f64()
                );
                return flag_fall(rec, side, &game);
            }
        }
        let mv = match notation::parse_uci_move(&pos, &reply.best) {
            Ok(m) => m,
            Err(e) => {
                log::warn!("{} ({}) sent an illegal move: {e}", player.name(), side_name(side));
                let text = format!("{} in {}", reply.best, pos.to_fen());
                return finish_forfeit(rec, side, EndReason::IllegalMove { side, text }, &pos);
            }
        };
        rec.moves.push(PlayedMove {
            mv,
            san: notation::to_san(&pos, mv),
            score: reply.score,
            depth: reply.depth,
            time: reply.elapsed,
        });
        if let Err(e) = game.play(mv) {
            // parse_uci_move only returns legal moves; a refusal here is a bug, reported as such.
            let text = format!("{} refused by the referee: {e}", reply.best);
            return finish_forfeit(rec, side, EndReason::IllegalMove { side, text }, &pos);
        }
        let after = *game.current();
        if let Some((outcome, reason)) = adjudicate_scores(&cfg.adjudication, &mut adj, side, reply.score, &after) {
            // An end on the board takes precedence over score adjudication.
            if game.outcome().is_none() && game.claimable_draws().is_empty() {
                (rec.result, rec.reason) = match reason {
                    EndReason::ResignAdjudication(winner) => resignation(&game, winner.flip()),
                    other => (outcome, other),
                };
                return rec;
            }
        }
    }
}

/// `side` failed to move in time: as the referee rules it (FIDE 6.9), a loss, or a draw when
/// the opponent cannot checkmate by any series of legal moves.
fn flag_fall(mut rec: GameRecord, side: Color, game: &Game) -> GameRecord {
    if game.flag_fall(side).drawn_by_unwinnability() {
        rec.result = GameResult::Draw;
        rec.reason = EndReason::TimeForfeitNoMate(side);
    } else {
        rec.result = GameResult::win_for(side.flip());
        rec.reason = EndReason::TimeForfeit(side);
    }
    rec
}

/// `side` resigns (score adjudication), as the referee rules it (FIDE 5.1.2).
fn resignation(game: &Game, side: Color) -> (GameResult, EndReason) {
    if game.resign(side).drawn_by_unwinnability() {
        (GameResult::Draw, EndReason::ResignNoMate(side))
    } else {
        (GameResult::win_for(side.flip()), EndReason::ResignAdjudication(side.flip()))
    }
}

/// `side` forfeits (crash, stall, illegal move) and must be restarted.
fn finish_forfeit(mut rec: GameRecord, side: Color, reason: EndReason, _pos: &Position) -> GameRecord {
    rec.restart[side.index()] = true;
    rec.result = GameResult::win_for(side.flip());
    rec.reason = reason;
    rec
}

/// Centipawns with mates mapped to ±100000 (for adjudication thresholds only).
fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

fn adjudicate_scores(
    cfg: &Adjudication,
    st: &mut AdjudicationState,
    mover: Color,
    score: Option<Score>,
    pos: &Position,
) -> Option<(GameResult, EndReason)> {
    let white_cp = score.map(|s| centipawns(if mover == Color::White { s } else { s.negate() }));
    if let Some((moves, cp)) = cfg.resign {
        match white_cp {
            Some(s) if s >= cp => {
                st.win_white += 1;
                st.win_black = 0;
            }
            Some(s) if s <= -cp => {
                st.win_black += 1;
                st.win_white = 0;
            }
            _ => {
                st.win_white = 0;
                st.win_black = 0;
            }
        }
        // `moves` moves by each player = 2 * moves plies of agreement.
        if st.win_white >= 2 * moves {
            return Some((GameResult::WhiteWins, EndReason::ResignAdjudication(Color::White)));
        }
        if st.win_black >= 2 * moves {
            return Some((GameResult::BlackWins, EndReason::ResignAdjudication(Color::Black)));
        }
    }
    if let Some((moves, cp, from_move)) = cfg.draw {
        match white_cp {
            Some(s) if s.abs() <= cp => st.draw += 1,
            _ => st.draw = 0,
        }
        if st.draw >= 2 * moves && u32::from(pos.fullmove_number()) >= from_move {
            return Some((GameResult::Draw, EndReason::DrawAdjudication));
        }
    }
    None
}
