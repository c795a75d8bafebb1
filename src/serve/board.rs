//! One board of `arbiter serve`: a game, what the learner is doing with the next move
//! (nothing, a piece selected, a promotion to choose, a move in preview), how the game ended
//! when a player's act or claim ended it, the mode, and a recorded game under review.
//!
//! Nothing here decides chess. Legality and every reason come from the explain mode, the end
//! of the game, claims and rulings from the referee (`crate::rules`); the board keeps state,
//! and keeps it unchanged when a request is refused.

use super::drills::{self, BranchAct};
use super::review::Review;
use crate::chess::{movegen, notation, Color, Move, PieceType, Square};
use crate::explain::{explain, explain_selection, Explanation};
use crate::rules::{Act, ClaimError, ClaimVerdict, DrawClaim, Game, Outcome, PositionReport, Ruling};
use std::sync::Arc;

/// How strong Arbiter plays against the learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// `UCI_LimitStrength` at this `UCI_Elo`.
    Elo(u32),
    Full,
}

/// Who moves the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two people on one board: nothing moves by itself.
    TwoPlayers,
    /// The learner plays `human`; Arbiter the other side.
    Engine { human: Color, strength: Strength },
    /// A drill (index into [`drills::DRILLS`]): both sides are the learner's, nothing moves by
    /// itself, and reset sets the drill up again.
    Drill(usize),
}

/// How a game ended other than on the board.
#[derive(Clone, Debug)]
pub enum Ending {
    /// A resignation (5.1.2) or a flag fall (6.9), as ruled.
    Ruling(Ruling),
    /// A correct draw claim (9.2, 9.3).
    Claim(ClaimVerdict),
}

/// What the learner is doing with the next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Idle,
    /// A piece of the player to move is selected: its legal moves are the targets.
    Selected(Square),
    /// A pawn's move to the last rank is chosen: which piece does it become?
    Promotion {
        from: Square,
        to: Square,
    },
    /// A legal move shown on the board, not played until confirmed.
    Preview(Move),
}

/// What the explanation panel shows besides a preview: the last thing the learner asked
/// about, as facts (worded in the page's language when shown).
#[derive(Clone, Debug)]
pub enum Message {
    /// A selection or a move that cannot be made, and why.
    Refused(Box<Explanation>),
    /// A judged claim (correct or not).
    Claim(ClaimVerdict),
    /// A ruling on a resignation or a flag fall.
    Ruling(Ruling),
}

/// A request the board refuses; the board is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// It is Arbiter's move (or Arbiter is thinking).
    EngineToMove,
    /// A recorded game is shown: it cannot be played on.
    InReview,
    NothingToConfirm,
    NothingToUndo,
    /// A promotion piece must be chosen first.
    PromotionPending,
    /// The game is over: no claim or act can follow.
    GameOver,
    /// No move was typed.
    EmptyMove,
    /// The FEN cannot be read.
    Fen(crate::chess::FenError),
    /// The PGN cannot be reviewed.
    Pgn(super::review::ReviewError),
    /// Other bad input (what only the API can send: a move list, a drill name, ...); the text
    /// says which and why.
    Input(String),
}

/// An Arbiter search the board is waiting for.
#[derive(Clone, Debug)]
pub struct Thinking {
    /// The board's generation when the search started: a result for another one is dropped.
    pub generation: u64,
    pub control: Arc<crate::engine::SearchControl>,
}

/// One board.
#[derive(Debug)]
pub struct Board {
    game: Game,
    mode: Mode,
    stage: Stage,
    ending: Option<Ending>,
    message: Option<Message>,
    review: Option<Review>,
    thinking: Option<Thinking>,
    /// Changes whenever the game does (a move, a take-back, a new position).
    generation: u64,
    /// The referee's report on the current position, for `generation` (it costs searches).
    report: Option<(u64, PositionReport)>,
}

impl Board {
    /// A two-player board from `game`.
    pub fn new(game: Game) -> Board {
        Board {
            game,
            mode: Mode::TwoPlayers,
            stage: Stage::Idle,
            ending: None,
            message: None,
            review: None,
            thinking: None,
            generation: 0,
            report: None,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }
    pub fn mode(&self) -> Mode {
        self.mode
    }
    pub fn stage(&self) -> Stage {
        self.stage
    }
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }
    pub fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }
    pub fn thinking(&self) -> Option<&Thinking> {
        self.thinking.as_ref()
    }
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The game's result by the Laws, if it is over: on the board, or by an act or a claim.
    pub fn result(&self) -> Option<&'static str> {
        match &self.ending {
            Some(Ending::Ruling(r)) => Some(r.result()),
            Some(Ending::Claim(_)) => Some("1/2-1/2"),
            None => self.game.outcome().map(Outcome::result),
        }
    }

    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// The referee's report on the current position (computed once per position).
    pub fn report(&mut self) -> &PositionReport {
        if self.report.as_ref().is_none_or(|(g, _)| *g != self.generation) {
            let r = self.game.report().for_reader(self.game.current());
            self.report = Some((self.generation, r));
        }
        &self.report.as_ref().expect("just filled").1
    }

    /// Is it Arbiter's turn to move (in a game against Arbiter that is not over)?
    pub fn engine_to_move(&self) -> bool {
        match self.mode {
            Mode::Engine { human, .. } => {
                self.review.is_none() && !self.is_over() && self.game.current().side_to_move() != human
            }
            _ => false,
        }
    }

    /// Refuses what the learner may not do now: play on a recorded game, or move for Arbiter.
    fn learner_may_move(&self) -> Result<(), BoardError> {
        if self.review.is_some() {
            Err(BoardError::InReview)
        } else if self.engine_to_move() || self.thinking.is_some() {
            Err(BoardError::EngineToMove)
        } else {
            Ok(())
        }
    }

    /// A click on `square`: selects a piece of the player to move (a second click on it
    /// deselects), picks a target of the selected piece, or says why not.
    pub fn click(&mut self, square: Square) -> Result<(), BoardError> {
        self.learner_may_move()?;
        match self.stage {
            Stage::Selected(from) if from == square => {
                self.stage = Stage::Idle;
                self.message = None;
                Ok(())
            }
            Stage::Selected(from) => {
                let own = self.game.current().piece_at(square).is_some_and(|p| p.color == self.side_to_move());
                if own && !self.is_legal_target(from, square) {
                    self.select(square);
                    Ok(())
                } else {
                    self.choose_target(from, square);
                    Ok(())
                }
            }
            Stage::Promotion { .. } => Err(BoardError::PromotionPending),
            Stage::Idle | Stage::Preview(_) => {
                self.select(square);
                Ok(())
            }
        }
    }

    fn side_to_move(&self) -> Color {
        self.game.current().side_to_move()
    }

    /// `to` is the destination of a legal move of the piece on `from` (castling in Chess960
    /// is the king onto its own rook, as the targets are marked).
    fn is_legal_target(&self, from: Square, to: Square) -> bool {
        movegen::legal_moves(self.game.current()).iter().any(|m| m.from() == from && m.to() == to)
    }

    fn select(&mut self, square: Square) {
        let ex = explain_selection(&self.game, square);
        if ex.reasons.is_empty() {
            self.stage = Stage::Selected(square);
            self.message = None;
        } else {
            self.stage = Stage::Idle;
            self.message = Some(Message::Refused(Box::new(ex)));
        }
    }

    /// The selected piece goes to `to`: a preview, the promotion question, or why not.
    fn choose_target(&mut self, from: Square, to: Square) {
        let moves: Vec<Move> = movegen::legal_moves(self.game.current())
            .iter()
            .copied()
            .filter(|m| m.from() == from && m.to() == to)
            .collect();
        match moves.as_slice() {
            [] => {
                let ex = explain(&self.game, &format!("{from}{to}")).for_reader(&self.game);
                self.stage = Stage::Selected(from);
                self.message = Some(Message::Refused(Box::new(ex)));
            }
            [m] => self.preview(*m),
            _ => {
                // Four promotions to the same square: the learner chooses the piece.
                self.stage = Stage::Promotion { from, to };
                self.message = None;
            }
        }
    }

    fn preview(&mut self, m: Move) {
        self.stage = Stage::Preview(m);
        self.message = None;
    }

    /// The piece a pawn promotes to, after [`Stage::Promotion`].
    pub fn promote(&mut self, piece: PieceType) -> Result<(), BoardError> {
        self.learner_may_move()?;
        let Stage::Promotion { from, to } = self.stage else {
            return Err(BoardError::NothingToConfirm);
        };
        let m = movegen::find_move(self.game.current(), from, to, Some(piece))
            .ok_or_else(|| BoardError::Input(format!("a pawn cannot promote to a {}", piece.name())))?;
        self.preview(m);
        Ok(())
    }

    /// A move typed as text (SAN or UCI): a preview when legal, else the explain mode's reasons.
    pub fn type_move(&mut self, text: &str) -> Result<(), BoardError> {
        self.learner_may_move()?;
        let text = text.trim();
        if text.is_empty() {
            return Err(BoardError::EmptyMove);
        }
        let ex = explain(&self.game, text).for_reader(&self.game);
        match ex.legal_move() {
            Some(m) => self.preview(m),
            None => {
                self.stage = Stage::Idle;
                self.message = Some(Message::Refused(Box::new(ex)));
            }
        }
        Ok(())
    }

    /// Returns to no selection and no preview.
    pub fn cancel(&mut self) {
        self.stage = Stage::Idle;
        self.message = None;
    }

    /// Plays the move in preview.
    pub fn confirm(&mut self) -> Result<(), BoardError> {
        self.learner_may_move()?;
        let Stage::Preview(m) = self.stage else {
            return Err(BoardError::NothingToConfirm);
        };
        self.play(m);
        Ok(())
    }

    /// Plays a legal move (the learner's confirmed one, or Arbiter's).
    fn play(&mut self, m: Move) {
        if self.game.play(m).is_ok() {
            self.changed();
        }
    }

    /// The game changed: nothing selected, no stale report or search.
    fn changed(&mut self) {
        self.stage = Stage::Idle;
        self.message = None;
        self.generation += 1;
        if let Some(t) = self.thinking.take() {
            t.control.stop();
        }
    }

    /// The player to move claims `draw` (9.2, 9.3); with a move in preview, by declaring that
    /// move (9.2.1.1, 9.3.1). A correct claim draws the game (the declared move is written in
    /// the record); an incorrect one lets the game go on, and its declared move is played
    /// (9.5.3). Either way the verdict is shown.
    pub fn claim(&mut self, draw: DrawClaim) -> Result<(), BoardError> {
        self.learner_may_move()?;
        if let Stage::Promotion { .. } = self.stage {
            return Err(BoardError::PromotionPending);
        }
        let intended = match self.stage {
            Stage::Preview(m) => Some(m),
            _ => None,
        };
        if let Some(Ending::Ruling(_) | Ending::Claim(_)) = &self.ending {
            return Err(BoardError::Input("the game is already over".into()));
        }
        let verdict = match self.game.claim(draw, intended) {
            Ok(v) => v,
            Err(ClaimError::GameOver(o)) => {
                return Err(BoardError::Input(format!("the game is already over ({})", o.result())))
            }
            Err(e @ ClaimError::IllegalMove(_)) => return Err(BoardError::Input(e.to_string())),
        };
        if let Some(m) = intended {
            self.play(m);
        } else {
            self.cancel();
        }
        if verdict.correct {
            self.ending = Some(Ending::Claim(verdict.clone()));
        }
        self.message = Some(Message::Claim(verdict));
        Ok(())
    }

    /// `side` resigns or its flag falls now (`None`: the player to move; against Arbiter, the
    /// learner). The referee rules it (5.1.2, 6.9): a loss, or a draw when the opponent could
    /// never checkmate.
    pub fn act(&mut self, act: Act, side: Option<Color>) -> Result<(), BoardError> {
        if self.review.is_some() {
            return Err(BoardError::InReview);
        }
        if self.ending.is_some() {
            return Err(BoardError::GameOver);
        }
        let side = side.unwrap_or(match self.mode {
            Mode::Engine { human, .. } => human,
            _ => self.side_to_move(),
        });
        let ruling = match act {
            Act::Resignation => self.game.resign(side),
            Act::FlagFall => self.game.flag_fall(side),
        }
        .for_reader(self.game.current());
        self.stop_thinking();
        self.stage = Stage::Idle;
        if ruling.already_over.is_none() {
            self.ending = Some(Ending::Ruling(ruling.clone()));
        }
        self.message = Some(Message::Ruling(ruling));
        Ok(())
    }

    /// Takes back the last move (against Arbiter: the learner's last move and Arbiter's reply,
    /// or the move Arbiter is thinking about). An act or a claim that ended the game is taken
    /// back with it.
    pub fn undo(&mut self) -> Result<(), BoardError> {
        if self.review.is_some() {
            return Err(BoardError::InReview);
        }
        if self.ending.take().is_some() && self.game.moves().is_empty() {
            self.changed();
            return Ok(());
        }
        let mut moves = self.game.moves().to_vec();
        if moves.is_empty() {
            return Err(BoardError::NothingToUndo);
        }
        moves.pop();
        if let Mode::Engine { human, .. } = self.mode {
            // Back to a position where the learner is to move, if there is one.
            let start_side = self.game.start().side_to_move();
            let side_after = |n: usize| if n.is_multiple_of(2) { start_side } else { start_side.flip() };
            while !moves.is_empty() && side_after(moves.len()) != human {
                moves.pop();
            }
        }
        self.game = replay(&self.game, &moves);
        self.changed();
        Ok(())
    }

    /// Sets the drill up again; in other modes, back to the game's start position.
    pub fn reset(&mut self) -> Result<(), BoardError> {
        self.review = None;
        let game = match self.mode {
            Mode::Drill(i) => drills::DRILLS[i].game().map_err(|e| BoardError::Input(e.to_string()))?,
            _ => replay(&self.game, &[]),
        };
        self.restart(game, self.mode);
        Ok(())
    }

    /// A new game in `mode` from `game`.
    pub fn restart(&mut self, game: Game, mode: Mode) {
        self.stop_thinking();
        self.game = game;
        self.mode = mode;
        self.ending = None;
        self.review = None;
        self.changed();
    }

    /// The drill `id`, set up (two players' rules: nothing moves by itself).
    pub fn drill(&mut self, id: &str) -> Result<(), BoardError> {
        let (index, drill) = drills::find(id).ok_or_else(|| BoardError::Input(format!("no drill named '{id}'")))?;
        let game = drill.game().map_err(|e| BoardError::Input(e.to_string()))?;
        self.restart(game, Mode::Drill(index));
        Ok(())
    }

    /// A strategy's branch `which` (0 or 1) in the current drill: its move in preview, or its act.
    pub fn branch(&mut self, which: usize) -> Result<(), BoardError> {
        let branches = match self.mode {
            Mode::Drill(i) => drills::DRILLS[i].branches,
            _ => None,
        };
        let act = branches
            .and_then(|b| b.get(which).copied())
            .ok_or_else(|| BoardError::Input("this drill has no such branch".into()))?;
        match act {
            BranchAct::Move(text) => {
                self.learner_may_move()?;
                let m =
                    notation::parse_move(self.game.current(), text).map_err(|e| BoardError::Input(e.to_string()))?;
                self.preview(m);
                Ok(())
            }
            BranchAct::Ruling(act, side) => self.act(act, Some(side)),
        }
    }

    /// Shows a recorded game for review (the board itself is kept underneath: leaving the
    /// review with "play on" replaces it).
    pub fn start_review(&mut self, review: Review) {
        self.stop_thinking();
        self.stage = Stage::Idle;
        self.message = None;
        self.review = Some(review);
    }

    pub fn review_mut(&mut self) -> Option<&mut Review> {
        self.review.as_mut()
    }

    /// Leaves the review: a two-player game from the position shown, with the moves before it.
    pub fn play_from_review(&mut self) -> Result<(), BoardError> {
        let game = self.review.as_ref().map(Review::game_at_cursor).ok_or(BoardError::NothingToConfirm)?;
        self.restart(game, Mode::TwoPlayers);
        Ok(())
    }

    /// Marks a search as started for the current generation.
    pub fn start_thinking(&mut self, control: Arc<crate::engine::SearchControl>) {
        self.thinking = Some(Thinking { generation: self.generation, control });
    }

    /// Arbiter's move from a search started at `generation`: played if the board has not
    /// changed since (and it is still Arbiter's turn); dropped otherwise.
    pub fn engine_move(&mut self, generation: u64, m: Option<Move>) {
        if self.thinking.as_ref().is_none_or(|t| t.generation != generation) || generation != self.generation {
            return;
        }
        self.thinking = None;
        if let Some(m) = m.filter(|&m| self.engine_to_move() && movegen::is_legal(self.game.current(), m)) {
            self.play(m);
        }
    }

    fn stop_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.control.stop();
        }
    }
}

/// `game`'s start position with `moves` played (all legal: they came from the game).
fn replay(game: &Game, moves: &[Move]) -> Game {
    let mut g = Game::new(*game.start());
    for &m in moves {
        let _ = g.play(m);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        crate::chess::attacks::init();
        Board::new(Game::from_fen_and_moves::<&str>(Some(fen), &[]).expect("fen"))
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("square")
    }

    #[test]
    fn select_preview_cancel_confirm() {
        let mut b = board(crate::chess::STARTPOS_FEN);
        b.click(sq("e2")).unwrap();
        assert_eq!(b.stage(), Stage::Selected(sq("e2")));
        b.click(sq("e4")).unwrap();
        assert!(matches!(b.stage(), Stage::Preview(m) if m.to_uci() == "e2e4"));
        assert!(b.game().moves().is_empty(), "a preview plays nothing");
        b.cancel();
        assert_eq!(b.stage(), Stage::Idle);
        b.type_move("Nf3").unwrap();
        b.confirm().unwrap();
        assert_eq!(b.game().moves().len(), 1);
        assert!(b.confirm().is_err(), "nothing left to confirm");
    }

    #[test]
    fn an_illegal_target_says_why_and_keeps_the_selection() {
        let mut b = board("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1");
        b.click(sq("e2")).unwrap();
        b.click(sq("f2")).unwrap();
        assert_eq!(b.stage(), Stage::Selected(sq("e2")));
        match b.message() {
            Some(Message::Refused(ex)) => assert_eq!(ex.codes(), vec!["exposes_king"]),
            other => panic!("{other:?}"),
        }
        // The opponent's piece: not yours (1.2).
        b.cancel();
        b.click(sq("e8")).unwrap();
        assert!(matches!(b.message(), Some(Message::Refused(ex)) if ex.codes() == vec!["not_your_piece"]));
    }

    #[test]
    fn a_promotion_asks_for_the_piece() {
        let mut b = board("8/k1P5/2p5/2K5/8/8/8/8 w - - 0 1");
        b.click(sq("c7")).unwrap();
        b.click(sq("c8")).unwrap();
        assert_eq!(b.stage(), Stage::Promotion { from: sq("c7"), to: sq("c8") });
        assert_eq!(b.claim(DrawClaim::FiftyMoves), Err(BoardError::PromotionPending));
        b.promote(PieceType::Knight).unwrap();
        b.confirm().unwrap();
        assert_eq!(b.game().moves()[0].to_uci(), "c7c8n");
    }

    #[test]
    fn claims_with_the_intended_move_and_without() {
        // Black's Ng8 brings the start position back a third time.
        let mut b = Board::new(
            Game::from_fen_and_moves(None, &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]).unwrap(),
        );
        // Without the move: only two occurrences so far, the claim is refused; the game goes on.
        b.claim(DrawClaim::ThreefoldRepetition).unwrap();
        assert!(matches!(b.message(), Some(Message::Claim(v)) if !v.correct && v.count == 2));
        assert!(!b.is_over());
        b.type_move("Ng8").unwrap();
        b.claim(DrawClaim::ThreefoldRepetition).unwrap();
        assert!(matches!(b.message(), Some(Message::Claim(v)) if v.correct && v.count == 3));
        assert_eq!(b.result(), Some("1/2-1/2"));
        assert_eq!(b.game().moves().len(), 8, "the declared move is in the record");
    }

    #[test]
    fn a_wrong_claim_with_a_move_plays_the_move() {
        let mut b = board("4k3/8/8/8/8/8/8/R3K3 w - - 98 80");
        b.type_move("Ra2").unwrap();
        b.claim(DrawClaim::FiftyMoves).unwrap();
        assert!(matches!(b.message(), Some(Message::Claim(v)) if !v.correct && v.count == 99 && v.rule() == "9.5.3"));
        assert_eq!(b.game().moves().len(), 1, "9.5.3: the declared move is made");
        assert!(!b.is_over());
    }

    #[test]
    fn resigning_against_a_bare_king_is_a_draw() {
        let mut b = board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        b.act(Act::Resignation, None).unwrap();
        assert_eq!(b.result(), Some("1/2-1/2"));
        b.undo().unwrap();
        assert_eq!(b.result(), None, "the resignation is taken back");
        b.act(Act::Resignation, Some(Color::Black)).unwrap();
        assert_eq!(b.result(), Some("1-0"));
    }

    #[test]
    fn against_arbiter_the_learner_cannot_move_for_it_and_undo_goes_back_to_the_learner() {
        let mut b = Board::new(Game::startpos());
        b.restart(Game::startpos(), Mode::Engine { human: Color::White, strength: Strength::Elo(1500) });
        b.type_move("e4").unwrap();
        b.confirm().unwrap();
        assert!(b.engine_to_move());
        assert_eq!(b.type_move("e5"), Err(BoardError::EngineToMove));
        let generation = b.generation();
        b.start_thinking(Arc::new(crate::engine::SearchControl::new()));
        let reply = notation::parse_move(b.game().current(), "e5").unwrap();
        b.engine_move(generation, Some(reply));
        assert_eq!(b.game().moves().len(), 2);
        b.undo().unwrap();
        assert!(b.game().moves().is_empty(), "both the reply and the learner's move are taken back");
        // A stale result (the board changed meanwhile) is dropped.
        b.type_move("d4").unwrap();
        b.confirm().unwrap();
        let stale = b.generation();
        b.start_thinking(Arc::new(crate::engine::SearchControl::new()));
        b.undo().unwrap();
        b.engine_move(stale, Some(reply));
        assert!(b.game().moves().is_empty());
    }
}
