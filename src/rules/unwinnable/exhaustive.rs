//! The last resort: visit every position reachable from the given one (all moves of both
//! sides), each once, depth first. A position is closed — nothing after it needs visiting —
//! when the game has ended there, or material proves the winner can never mate from it, or
//! (after a capture or a pawn move, when the structure changed) the static argument of
//! [`statics`] does. If every reachable position is visited or closed and none is a mate by the
//! winner, no mate exists: a proof. A mate met on the way is a helpmate (the line is the path
//! of the depth-first search, with detours cut out by [`shortcut`]).
//!
//! The seventy-five-move rule (9.6.2) comes in two ways ([`Clock`]):
//! - [`Clock::Ends`]: a position whose half-move clock reached 150 is a game over. Positions
//!   are compared with their clocks: a position met again is skipped only when it was met
//!   before with a clock no higher (from there every continuation of the later one is possible
//!   too); met with a lower clock it is searched again. So every reachable (position, clock)
//!   is covered by a visited one, and "no mate" is a proof. It proves quickly what the clock
//!   decides (a few quiet moves left) and its paths stay short, which finds long helpmates.
//! - [`Clock::Ignored`]: the rule is left out and positions are compared without clocks. That
//!   only adds series of moves, so "no mate among them" still proves "no mate", and each
//!   position is searched once (behind a closed pawn wall the kings wander far longer than
//!   seventy-five moves before every position is seen). A mate it finds is checked against the
//!   rule by the caller. Depth first, its paths may grow as long as the set of positions;
//!   they are cut at [`MAX_LINE`] (a long path seldom makes a helpmate within the rule), and
//!   when only such cuts kept it from finishing ([`Found::Cut`]) the caller goes on breadth
//!   first ([`search_all`]: no path kept, and a mate comes with a shortest line, from a tree of
//!   first visits).

use super::cover::may_mate_within;
use super::material;
use super::statics;
use crate::chess::movegen::legal_moves;
use crate::chess::{Bitboard, Color, Move, PieceType, Position};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// Position keys are Zobrist hashes already: hashing them again is wasted work.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// Position keys visited, each with the lowest half-move clock it was searched with.
pub type Visited = HashMap<u64, u16, BuildHasherDefault<KeyHasher>>;

/// Position keys visited by [`search_all`], each with the key it was first reached from and
/// the move (raw) that reached it: a tree back to the start.
pub type Tree = HashMap<u64, (u64, u16), BuildHasherDefault<KeyHasher>>;

/// What the search found.
pub enum Found {
    /// A helpmate, first move first.
    Mate(Vec<Move>),
    /// Every reachable position was visited: none is a mate by the winner.
    NoMate,
    /// The node limit ran out first.
    Unknown,
    /// Lines were cut at [`MAX_LINE`] (the node limit may have run out too): no proof, and a
    /// breadth-first search ([`search_all`]) suits the position better.
    Cut,
}

/// Whether the search stops where the seventy-five-move rule ends the game.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    Ends,
    Ignored,
}

pub struct Outcome {
    pub found: Found,
    pub nodes: u64,
}

/// Longest line followed (a bound on the memory of the path).
const MAX_LINE: usize = 20_000;

struct Frame {
    pos: Position,
    /// The move that led here (none at the start).
    mv: Option<Move>,
    /// This position's moves are `arena[start..end]`; `next..end` are still to try.
    start: usize,
    next: usize,
    end: usize,
}

/// Visits the reachable positions, at most about `limit` of them. `visited` is the caller's
/// scratch set (cleared here).
pub fn search(pos: &Position, winner: Color, clock: Clock, visited: &mut Visited, limit: u64) -> Outcome {
    reset(visited, limit);
    let mut nodes = 0u64;
    let mut arena: Vec<Move> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut complete = true;
    // Where every helpmate is made of quiet moves, one that does not fit before the rule
    // does not exist: the bound on the half-moves a mate needs closes a position.
    let quiet = clock == Clock::Ends && quiet_mates_only(pos, winner);
    let no_mate_in_time = |p: &Position| {
        clock == Clock::Ends
            && (too_late_to_mate(p, winner)
                || quiet && !may_mate_within(p, winner, 150 - usize::from(p.halfmove_clock())))
    };
    if no_mate_in_time(pos) {
        return Outcome { found: Found::NoMate, nodes: 0 };
    }
    let clock_of = |p: &Position| if clock == Clock::Ends { p.halfmove_clock() } else { 0 };
    visited.insert(pos.key(), clock_of(pos));
    let root_moves = legal_moves(pos);
    arena.extend(root_moves.iter().copied().filter(|&m| clock == Clock::Ignored || may_lead_to_mate(pos, m, winner)));
    stack.push(Frame { pos: *pos, mv: None, start: 0, next: 0, end: arena.len() });
    while let Some(top) = stack.last_mut() {
        if top.next == top.end {
            arena.truncate(top.start);
            stack.pop();
            continue;
        }
        let m = arena[top.next];
        top.next += 1;
        let parent = top.pos;
        let child = parent.make_move(m);
        nodes += 1;
        if nodes > limit {
            return Outcome { found: if complete { Found::Unknown } else { Found::Cut }, nodes };
        }
        let child_clock = clock_of(&child);
        match visited.insert(child.key(), child_clock) {
            Some(before) if before <= child_clock => {
                visited.insert(child.key(), before);
                continue;
            }
            _ => {}
        }
        let moves = legal_moves(&child);
        if moves.is_empty() {
            if child.side_to_move() != winner && child.in_check() {
                let mut line: Vec<Move> = stack.iter().filter_map(|f| f.mv).collect();
                line.push(m);
                return Outcome { found: Found::Mate(shortcut(pos, &line)), nodes };
            }
            continue;
        }
        if clock == Clock::Ends && (child.halfmove_clock() >= 150 || no_mate_in_time(&child)) {
            continue; // the game is over (9.6.2), or will be before any mate
        }
        if closed(&parent, m, &child, winner) {
            continue;
        }
        if stack.len() >= MAX_LINE {
            complete = false;
            continue;
        }
        let start = arena.len();
        arena.extend(moves.iter().copied().filter(|&m| clock == Clock::Ignored || may_lead_to_mate(&child, m, winner)));
        stack.push(Frame { pos: child, mv: Some(m), start, next: start, end: arena.len() });
    }
    let found = if complete { Found::NoMate } else { Found::Cut };
    Outcome { found, nodes }
}

/// Clears a scratch table. Clearing costs the capacity, not the contents: after a large search,
/// a small one must not pay for the large table every time (a fresh table instead).
fn reset<V>(table: &mut HashMap<u64, V, BuildHasherDefault<KeyHasher>>, limit: u64) {
    let wanted = usize::try_from(limit).unwrap_or(usize::MAX).saturating_add(1);
    if table.capacity() > wanted.saturating_mul(4).max(4096) {
        *table = HashMap::default();
    } else {
        table.clear();
    }
}

/// Empties a scratch table and gives back its memory beyond `keep` entries.
pub fn trim<V>(table: &mut HashMap<u64, V, BuildHasherDefault<KeyHasher>>, keep: usize) {
    table.clear();
    if table.capacity() > keep {
        table.shrink_to(keep);
    }
}

/// Whether nothing after `child` (reached from `parent` by `m`, not a mate or stalemate)
/// needs visiting: material proves `winner` can never mate, or the structure
/// changed and the static argument proves it.
fn closed(parent: &Position, m: Move, child: &Position, winner: Color) -> bool {
    if material::prove(child, winner).is_some() {
        return true;
    }
    let structure_changed =
        m.is_capture() || m.is_promotion() || parent.piece_at(m.from()).is_some_and(|p| p.kind == PieceType::Pawn);
    structure_changed && statics::prove(child, winner).is_some()
}

/// [`Clock::Ignored`], breadth first: every position reachable from `pos` by moves of both
/// sides (the seventy-five-move rule left out), each once. [`Found::Mate`] carries a shortest
/// line to the first mate by `winner` met; [`Found::NoMate`] is a proof. `tree` is the
/// caller's scratch table (cleared here).
pub fn search_all(pos: &Position, winner: Color, tree: &mut Tree, limit: u64) -> Outcome {
    reset(tree, limit);
    let mut nodes = 0u64;
    let mut queue: VecDeque<Position> = VecDeque::new();
    tree.insert(pos.key(), (pos.key(), 0));
    queue.push_back(*pos);
    while let Some(parent) = queue.pop_front() {
        for &m in legal_moves(&parent).iter() {
            let child = parent.make_move(m);
            nodes += 1;
            if nodes > limit {
                return Outcome { found: Found::Unknown, nodes };
            }
            match tree.entry(child.key()) {
                Entry::Occupied(_) => continue,
                Entry::Vacant(v) => {
                    v.insert((parent.key(), m.raw()));
                }
            }
            let moves = legal_moves(&child);
            if moves.is_empty() {
                if child.side_to_move() != winner && child.in_check() {
                    return Outcome { found: Found::Mate(line_to(pos, child.key(), tree)), nodes };
                }
                continue;
            }
            if !closed(&parent, m, &child, winner) {
                queue.push_back(child);
            }
        }
    }
    Outcome { found: Found::NoMate, nodes }
}

/// The moves from `pos` to the position `key` along `tree`.
fn line_to(pos: &Position, mut key: u64, tree: &Tree) -> Vec<Move> {
    let mut line = Vec::new();
    while key != pos.key() {
        let Some(&(parent, raw)) = tree.get(&key) else { break };
        let Some(m) = Move::from_raw(raw) else { break };
        line.push(m);
        key = parent;
    }
    line.reverse();
    line
}

/// The squares of the a- and h-files and the first and eighth ranks.
const EDGES: Bitboard = Bitboard(0xFF81_8181_8181_81FF);

/// A lone knight or bishop (and the king) against at most one other piece mates only a king on
/// the edge, with the winner's king two squares from it. Every flight square of the mated king
/// must be attacked, or taken by the one blocker: the checking knight or bishop covers at most
/// two of them (its own square, the square behind the king on its line, or one it attacks),
/// at most one in a corner; the winner's king (never adjacent) covers up to three, and only
/// from two squares away. Off the edge there are eight flights (at most 2 + 3 + 1 covered), on
/// an edge five and in a corner three, so the king must help (it covers at least two, or one).
/// So at least `L` loser moves (its king walking to an edge square X) and `W` winner moves
/// (its king walking to two squares from X, at least the mating move) must be played, the
/// mate last: `2·max(W, L+1) − 1` half-moves with the winner to move, `2·max(W, L, 1)` with the
/// loser to move. True when even the nearest X does not fit before the seventy-five-move rule
/// ends the game (a mate on the 150th half-move stands).
///
/// The bound counts quiet moves only, so it holds only where nothing can reset the clock
/// before the mate. With the material it covers (the winner's one minor piece, the loser's at
/// most one piece), a capture ends every chance (the winner is left with a bare king, or a
/// lone minor against a bare king), and the winner has no pawn. A pawn of the loser's is
/// different: its move resets the clock and its promotion gives the loser a blocker
/// (`8/8/8/p3N3/4k3/8/3K4/8 b - - 149 100`: 1...a4 resets the clock, and White mates after
/// 11...a1=B), so with a pawn on the loser's side there is no claim. The search judges each
/// position by its own clock, so the positions after such a move get their own bound.
fn too_late_to_mate(pos: &Position, winner: Color) -> bool {
    let kings = pos.pieces(PieceType::King);
    let ours = pos.color(winner) & !kings;
    let minors = pos.pieces(PieceType::Knight) | pos.pieces(PieceType::Bishop);
    let theirs = pos.color(winner.flip()) & !kings;
    if ours.count() != 1
        || (ours & minors).is_empty()
        || theirs.more_than_one()
        || (theirs & pos.pieces(PieceType::Pawn)).nonempty()
    {
        return false;
    }
    let left = 150 - i32::from(pos.halfmove_clock());
    let (lk, wk) = (pos.king_square(winner.flip()), pos.king_square(winner));
    let winner_to_move = pos.side_to_move() == winner;
    !EDGES.squares().any(|x| {
        let l = lk.distance(x);
        let w = (wk.distance(x) - 2).max(1);
        let plies = if winner_to_move { 2 * w.max(l + 1) - 1 } else { 2 * w.max(l).max(1) };
        plies <= left
    })
}

/// Whether `m`, a legal move in `pos`, may lead to a mate by `winner` before the
/// seventy-five-move rule ends the game: false only where one half-move is left (the clock
/// at 149) and `m` neither resets the clock (a capture or a pawn move) nor is a check by the
/// winner. The game is over after it (9.6.2), and not by a mate: a move of the loser's never
/// mates the loser, and a move that gives no check never mates.
fn may_lead_to_mate(pos: &Position, m: Move, winner: Color) -> bool {
    pos.halfmove_clock() < 149
        || m.is_capture()
        || pos.piece_at(m.from()).is_some_and(|p| p.kind == PieceType::Pawn)
        || pos.side_to_move() == winner && pos.gives_check(m)
}

/// Whether every helpmate by `winner` from `pos`, or from any position reached from it by
/// moves that take nothing and move no pawn, is made of such moves only (so the half-move
/// clock only grows along it, and a mate must come within the half-moves left before the
/// seventy-five-move rule): no pawns are on the board, and after the capture of any man
/// material proves that `winner` can never mate (a capture is the only other move that
/// resets the clock, and such moves leave the material as it is until one is made).
fn quiet_mates_only(pos: &Position, winner: Color) -> bool {
    pos.pieces(PieceType::Pawn).is_empty()
        && (pos.occupied() & !pos.pieces(PieceType::King))
            .into_iter()
            .all(|man| material::prove_without(pos, winner, Bitboard::from_square(man)).is_some())
}

/// `line` with detours removed: from each position on it, jump to the latest later position
/// one legal move away. The result still ends in the same position (the mate); it is a
/// shorter series of legal moves, so a line the depth-first search made long enough to break
/// the seventy-five-move rule usually fits afterwards.
pub fn shortcut(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut positions = Vec::with_capacity(line.len() + 1);
    positions.push(*pos);
    for &m in line {
        let next = positions[positions.len() - 1].make_move(m);
        positions.push(next);
    }
    let mut index: HashMap<u64, usize, BuildHasherDefault<KeyHasher>> = Default::default();
    for (i, p) in positions.iter().enumerate() {
        index.insert(p.key(), i); // the latest occurrence
    }
    let mut out = Vec::with_capacity(line.len());
    let mut i = 0;
    while i + 1 < positions.len() {
        let here = &positions[i];
        let mut best = (i + 1, line[i]);
        for &m in legal_moves(here).iter() {
            if let Some(&j) = index.get(&here.make_move(m).key()) {
                if j > best.0 {
                    best = (j, m);
                }
            }
        }
        out.push(best.1);
        i = best.0;
    }
    out
}

/// The tests' independent helpmate search (cozy-chess's move generator, brute force); the
/// integration tests use the rest of it.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../../tests/it/common/helpmate.rs"]
mod independent;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;

    /// Issue #37: the clocked search's bound must never hide a mate. Random sparse positions
    /// near the seventy-five-move rule (half of them a lone minor piece against a king and a
    /// pawn); every "no mate" of the clocked search is checked against the independent
    /// breadth-first helpmate search (every move of both sides, the rule kept, any length).
    #[test]
    fn the_clock_bound_never_hides_a_mate() {
        attacks::init();
        let mut rng = crate::rng::Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut below = |n: usize| rng.below(n as u64) as usize;
        let mut visited = Visited::default();
        let (mut positions, mut proofs, mut wrong) = (0, 0, Vec::new());
        while positions < 400 {
            let Some(fen) = super::independent::sparse_position_near_the_clock_limit(&mut below) else { continue };
            positions += 1;
            let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for winner in Color::ALL {
                if !matches!(search(&pos, winner, Clock::Ends, &mut visited, 20_000).found, Found::NoMate) {
                    continue;
                }
                proofs += 1;
                let white = winner == Color::White;
                if let super::independent::Found::Mate(line) =
                    super::independent::shortest_at_any_length(&fen, white, 100_000)
                {
                    wrong.push(format!("{fen} for {winner:?}: {}", line.join(" ")));
                }
            }
        }
        assert!(wrong.is_empty(), "{} mates hidden:\n{}", wrong.len(), wrong.join("\n"));
        assert!(proofs > 100, "{proofs} proofs");
    }

    /// Issue #64: the bound on the half-moves a mate needs ([`may_mate_within`]) closes
    /// positions of the clocked search where every mate is made of quiet moves. Random positions
    /// of material where that holds and a mate exists (K+R, K+Q, K+N+N, K+B+N against a bare
    /// king; a minor piece against a minor piece), half of them with the men within three king
    /// steps of one king on an edge, the clock at 132–149 (where the bound can answer: at most
    /// eight of the winner's moves); every "no mate" of the clocked search is checked against
    /// the independent helpmate search (every move of both sides) to the half-moves left,
    /// within `nodes` positions. (A longer mate would need a capture on the way, which leaves
    /// material that never mates: `material.rs`'s proofs, tested on their own.) Returns
    /// (positions, proofs, proofs checked to the end, mates hidden).
    fn hunt_mates_hidden_by_the_bound(
        seed: u64,
        count: usize,
        clocks: std::ops::Range<usize>,
        nodes: u64,
    ) -> (usize, usize, usize, Vec<String>) {
        attacks::init();
        let mut rng = crate::rng::Rng::new(seed);
        let mut below = |n: usize| rng.below(n as u64) as usize;
        let mut visited = Visited::default();
        let (mut positions, mut proofs, mut checked, mut wrong) = (0, 0, 0, Vec::new());
        while positions < count {
            let men = ["R", "Q", "NN", "BN", "Nn", "Nb", "Bn", "Bb", "Nr", "Bq"][below(10)];
            let white_wins = below(2) == 0;
            let mut board = [None::<char>; 64];
            let edge = below(2) == 0;
            let mut centre = None;
            let kings = if white_wins { "kK" } else { "Kk" };
            for piece in kings.chars().chain(men.chars().map(|c| match white_wins {
                true => c,
                false if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
                false => c.to_ascii_uppercase(),
            })) {
                loop {
                    let sq = below(64);
                    let (rank, file) = (sq / 8, sq % 8);
                    let placed_well = match centre {
                        None => !edge || rank == 0 || rank == 7 || file == 0 || file == 7,
                        Some(c) => !edge || rank.abs_diff(c / 8).max(file.abs_diff(c % 8)) <= 3,
                    };
                    if board[sq].is_none() && placed_well {
                        board[sq] = Some(piece);
                        centre = centre.or(Some(sq));
                        break;
                    }
                }
            }
            let side = if below(2) == 0 { "w" } else { "b" };
            let clock = clocks.start + below(clocks.len());
            let fen = format!("{} {side} - - {clock} 100", super::independent::placement(&board));
            let Ok(pos) = Position::from_fen(&fen) else { continue };
            let (us, them) = (pos.side_to_move(), pos.side_to_move().flip());
            if pos.king_square(us).distance(pos.king_square(them)) < 2
                || pos.is_square_attacked(pos.king_square(them), us)
                || legal_moves(&pos).is_empty()
            {
                continue;
            }
            positions += 1;
            let winner = if white_wins { Color::White } else { Color::Black };
            assert!(quiet_mates_only(&pos, winner), "{fen}");
            if !matches!(search(&pos, winner, Clock::Ends, &mut visited, 50_000).found, Found::NoMate) {
                continue;
            }
            proofs += 1;
            let left = 150 - clock as u32;
            match super::independent::shortest(&fen, white_wins, left, nodes) {
                super::independent::Found::Mate(line) => {
                    wrong.push(format!("{fen} for {winner:?}: {}", line.join(" ")))
                }
                super::independent::Found::NoneWithin => checked += 1,
                super::independent::Found::OutOfNodes => {}
            }
        }
        (positions, proofs, checked, wrong)
    }

    #[test]
    fn the_mate_length_bound_never_hides_a_mate() {
        let (positions, proofs, checked, wrong) = hunt_mates_hidden_by_the_bound(64, 300, 140..150, 200_000);
        assert!(wrong.is_empty(), "{} mates hidden:\n{}", wrong.len(), wrong.join("\n"));
        assert!(proofs > 100 && checked > 80, "{positions} positions: {proofs} proofs, {checked} checked to the end");
    }

    /// The hunt at length (the clock from 132: up to eighteen half-moves left):
    /// `cargo test --release --lib hunt_the_mate_length_bound -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn hunt_the_mate_length_bound_at_length() {
        let (positions, proofs, checked, wrong) = hunt_mates_hidden_by_the_bound(2026, 2000, 132..150, 2_000_000);
        eprintln!("{positions} positions: {proofs} proofs, {checked} checked to the end, {} mates hidden", wrong.len());
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn breadth_first_visits_a_stalemate_wall() {
        // White's king shuttles h3-h4; some 38,000 positions, whose depth-first paths run past
        // the length limit. (The static proof settles it too, with the dead ends.)
        attacks::init();
        let pos = Position::from_fen("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1").expect("test FEN");
        for side in Color::ALL {
            let o = search_all(&pos, side, &mut Tree::default(), 2_000_000);
            assert!(matches!(o.found, Found::NoMate), "{side:?}");
        }
        // A mate comes with a line to it.
        let open = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").expect("test FEN");
        match search_all(&open, Color::White, &mut Tree::default(), 2_000_000).found {
            Found::Mate(line) => assert!(super::super::is_helpmate(&open, Color::White, &line)),
            _ => panic!("K+R v K: no mate found"),
        }
    }

    #[test]
    fn a_minor_piece_mate_needs_time_to_reach_the_edge() {
        attacks::init();
        let at =
            |clock: u16| Position::from_fen(&format!("4k3/8/3n4/8/1B6/8/8/4K3 b - - {clock} 100")).expect("test FEN");
        // Two half-moves left: the kings are too far apart for either mate.
        assert!(too_late_to_mate(&at(148), Color::White));
        assert!(too_late_to_mate(&at(148), Color::Black));
        assert!(!too_late_to_mate(&at(100), Color::White));
        // More material: no claim.
        let rook = Position::from_fen("4k3/8/3n4/8/1B6/8/8/R3K3 b - - 148 100").expect("test FEN");
        assert!(!too_late_to_mate(&rook, Color::White));
        // A pawn of the loser's resets the clock when it moves: no claim (issue #37's cases,
        // all winnable by a helpmate past a pawn move).
        for (fen, winner) in [
            ("8/8/8/p3N3/4k3/8/3K4/8 b - - 149 100", Color::White),
            ("4k3/4p3/8/8/8/8/8/4KN2 w - - 146 100", Color::White),
            ("8/8/1n6/2K5/8/3P4/8/5k2 w - - 146 100", Color::Black),
            ("5K2/6B1/8/6p1/8/8/8/2k5 b - - 149 100", Color::White),
        ] {
            let pos = Position::from_fen(fen).expect("test FEN");
            assert!(!too_late_to_mate(&pos, winner), "{fen}");
        }
    }
}
