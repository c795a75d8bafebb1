//! The drills of the teaching site's rules page (`shared/seeds`): seventeen rule questions,
//! each with the page's example position, and four strategies with two branches each. A drill
//! is a position to set up and a task; the answer is always the Laws' (the explain mode's
//! verdict on whatever the learner plays), never a stored one. Their words, in every
//! language, are in [`super::words`].

use crate::rules::{Act, Game, GameError};

/// What a branch of a strategy does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchAct {
    /// Preview this move (UCI): the learner confirms it.
    Move(&'static str),
    /// The player of this colour resigns (5.1.2) or loses on time (6.9).
    Ruling(Act, crate::chess::Color),
}

/// One drill: a position (FEN, `None` = the standard start) reached by `moves` (UCI), so that
/// the game's history (repetitions, a double step just made) is real.
#[derive(Clone, Copy, Debug)]
pub struct Drill {
    /// Stable name (the API's `drill` and the page's hook).
    pub id: &'static str,
    pub fen: Option<&'static str>,
    pub moves: &'static [&'static str],
    /// The FIDE articles the question is about.
    pub rules: &'static str,
    /// A strategy's two branches (`None` for a rule question).
    pub branches: Option<[BranchAct; 2]>,
}

impl Drill {
    /// The drill's game, as set up.
    pub fn game(&self) -> Result<Game, GameError> {
        Game::from_fen_and_moves(self.fen, self.moves)
    }

    pub fn is_strategy(&self) -> bool {
        self.branches.is_some()
    }
}

const fn rule(
    id: &'static str,
    fen: Option<&'static str>,
    moves: &'static [&'static str],
    rules: &'static str,
) -> Drill {
    Drill { id, fen, moves, rules, branches: None }
}

const fn strategy(id: &'static str, fen: &'static str, rules: &'static str, branches: [BranchAct; 2]) -> Drill {
    Drill { id, fen: Some(fen), moves: &[], rules, branches: Some(branches) }
}

/// How many drills there are (the word tables hold one text each).
pub const COUNT: usize = 21;

/// The drills, rule questions first, in the page's order.
pub const DRILLS: [Drill; COUNT] = [
    rule("checkmate", Some("7k/8/5KQ1/8/8/8/8/8 w - - 0 1"), &[], "1.4, 3.9.1, 5.1.1"),
    rule("one-move-a-turn", None, &["e2e4"], "1.2, 3.7"),
    rule("rook", Some("4k3/8/8/8/P7/8/8/R3K3 w Q - 0 1"), &[], "3.3, 3.5"),
    rule("bishop", Some("4k3/7p/8/8/8/8/8/2B1K3 w - - 0 1"), &[], "3.2, 3.5"),
    rule("queen", Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), &[], "3.4, 3.5"),
    rule("knight", None, &[], "3.6, 3.9"),
    rule("king-protected", Some("7k/r5Q1/5K2/8/8/8/8/8 b - - 0 1"), &[], "3.1.3, 3.8, 3.9"),
    rule("pawn", Some("4k3/8/8/3pp3/4P3/8/8/4K3 w - - 0 1"), &[], "3.7.1-3.7.3"),
    rule("answer-check", Some("4r1k1/8/8/8/8/8/8/R3KB2 w Q - 0 1"), &[], "3.9, 5.1.1"),
    rule("pin", Some("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1"), &[], "3.9.2, 3.10"),
    rule("castling", Some("1r2k3/8/b7/8/8/8/8/R3K2R w KQ - 0 1"), &[], "3.8.2"),
    rule("en-passant", Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"), &["d7d5"], "3.7.3.1, 3.7.3.2"),
    rule("stalemate", Some("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"), &[], "5.2.1"),
    rule("dead-position", Some("4k3/8/8/8/8/8/3r4/2B1K3 w - - 0 1"), &[], "5.2.2"),
    rule("threefold", None, &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"], "9.2"),
    rule("fifty-moves", Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), &[], "9.3"),
    rule("seventy-five", Some("4k3/8/4K3/8/8/8/8/R7 w - - 149 120"), &[], "9.6"),
    strategy(
        "promotion",
        "8/k1P5/2p5/2K5/8/8/8/8 w - - 0 1",
        "3.7.3.3, 5.2.1",
        [BranchAct::Move("c7c8q"), BranchAct::Move("c7c8n")],
    ),
    strategy(
        "fork",
        "r3k3/pp6/8/1N6/8/8/8/4K3 w - - 0 1",
        "3.1.3, 3.9",
        [BranchAct::Move("b5c7"), BranchAct::Move("b5d6")],
    ),
    strategy(
        "mate-or-stalemate",
        "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1",
        "5.1.1, 5.2.1",
        [BranchAct::Move("g5g6"), BranchAct::Move("g5h6")],
    ),
    strategy(
        "resignation",
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "5.1.2, 6.9",
        [
            BranchAct::Ruling(Act::Resignation, crate::chess::Color::White),
            BranchAct::Ruling(Act::Resignation, crate::chess::Color::Black),
        ],
    ),
];

/// The drill named `id`, with its index.
pub fn find(id: &str) -> Option<(usize, &'static Drill)> {
    DRILLS.iter().enumerate().find(|(_, d)| d.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{movegen, notation};

    /// Every drill sets up; no position is over before the learner moves except the stalemate
    /// question, whose answer is the board itself; a strategy's branch moves are legal.
    #[test]
    fn every_drill_sets_up_and_its_branches_are_legal() {
        crate::chess::attacks::init();
        assert_eq!(DRILLS.iter().filter(|d| !d.is_strategy()).count(), 17);
        assert_eq!(DRILLS.iter().filter(|d| d.is_strategy()).count(), 4);
        for d in &DRILLS {
            let game = d.game().unwrap_or_else(|e| panic!("{}: {e}", d.id));
            assert_eq!(game.outcome().is_some(), d.id == "stalemate", "{}", d.id);
            for b in d.branches.iter().flatten() {
                if let BranchAct::Move(m) = b {
                    let mv = notation::parse_move(game.current(), m).unwrap_or_else(|e| panic!("{}: {m}: {e}", d.id));
                    assert!(movegen::is_legal(game.current(), mv));
                }
            }
        }
        let ids: std::collections::HashSet<_> = DRILLS.iter().map(|d| d.id).collect();
        assert_eq!(ids.len(), COUNT, "drill ids are unique");
    }
}
