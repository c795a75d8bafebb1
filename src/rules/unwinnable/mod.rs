//! Can a player still checkmate "by any possible series of legal moves"? The one question
//! behind FIDE 5.2.2 (dead position: neither can), 6.9 (a flag fall is a draw when the
//! opponent cannot) and 5.1.2 (so is a resignation).
//!
//! Every answer carries its evidence:
//! - [`Verdict::Winnable`] with a helpmate — a legal line, both sides cooperating, ending in
//!   that player's checkmate (replayable by any move generator);
//! - [`Verdict::Unwinnable`] with the [`Reason`] that proves it: the game is already over,
//!   material that can never mate, a static argument over the squares every piece can ever
//!   reach (frozen pawns, kings that can never get at anything capturable, bishops that can
//!   never cover a square that matters), or an exhaustive search of the reachable positions;
//! - [`Verdict::Undetermined`] only when the node budget runs out first.
//!
//! The order is: the board (mate, stalemate), material, a short helpmate search, the static
//! argument, then helpmate and exhaustive searches taking turns with doubling budgets.
//!
//! The question is about the position and its half-move clock: earlier positions and the move
//! number do not take part, but the seventy-five-move rule (9.6.2) ends the game, after which
//! no move is legal. So a helpmate never runs past it, and a position from which no mate fits
//! before it (e.g. K+B v K+N two quiet half-moves before it) is proved unwinnable by the
//! exhaustive search, which knows the clock.

pub mod cover;
mod exhaustive;
mod helpmate;
mod material;
mod pattern;
pub mod reach;
mod reply;
mod shorten;
pub mod statics;
mod table;

use crate::chess::movegen::legal_moves;
use crate::chess::{Color, Move, PieceType, Position};
pub(crate) use helpmate::value as piece_value;
pub use shorten::{shorten, EXAMPLE_NODES, SHORTEN_NODES};
use std::cell::RefCell;
use table::Table;

/// Why a side can never checkmate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side is checkmated already: the game is over.
    Checkmated,
    /// Stalemate on the board: the game is over.
    Stalemate,
    /// Seventy-five moves without a capture or a pawn move: the game is over (9.6.2).
    SeventyFiveMoves,
    /// The side has only its king.
    BareKing,
    /// A lone knight, or bishops of one colour, with nothing on the other side that could
    /// ever block the king's flight squares.
    InsufficientMaterial,
    /// No piece of the side can ever attack a square the opponent's king can reach (pawns
    /// frozen for good, pieces walled off).
    NoCheck,
    /// Checks are possible, but on every square the opponent's king can reach a flight square
    /// can never be covered (e.g. bishops of one colour that cannot attack it).
    NoMatingSquare,
    /// Every position that can arise was examined: none is a checkmate by the side.
    Exhaustive,
    /// Every position that can arise before the seventy-five-move rule ends the game (9.6.2)
    /// was examined: none is a checkmate by the side (the clock decides: no mate fits in time).
    Exhaustive75,
}

impl Reason {
    /// Every reason, for the text tables and tests.
    pub const ALL: [Reason; 9] = [
        Reason::Checkmated,
        Reason::Stalemate,
        Reason::SeventyFiveMoves,
        Reason::BareKing,
        Reason::InsufficientMaterial,
        Reason::NoCheck,
        Reason::NoMatingSquare,
        Reason::Exhaustive,
        Reason::Exhaustive75,
    ];

    /// The game has already ended on the board (5.1.1, 5.2.1, 9.6.2).
    pub fn game_over(self) -> bool {
        matches!(self, Reason::Checkmated | Reason::Stalemate | Reason::SeventyFiveMoves)
    }

    /// The machine name (JSON, EPD output).
    pub fn code(self) -> &'static str {
        match self {
            Reason::Checkmated => "checkmated",
            Reason::Stalemate => "stalemate",
            Reason::SeventyFiveMoves => "seventy_five_moves",
            Reason::BareKing => "bare_king",
            Reason::InsufficientMaterial => "insufficient_material",
            Reason::NoCheck => "no_check_possible",
            Reason::NoMatingSquare => "no_mating_square",
            Reason::Exhaustive => "exhaustive_search",
            Reason::Exhaustive75 => "exhaustive_search_75_moves",
        }
    }

    /// The proof rests on the seventy-five-move rule (9.6.2), which ends the game.
    pub fn by_clock(self) -> bool {
        matches!(self, Reason::SeventyFiveMoves | Reason::Exhaustive75)
    }
}

/// The answer for one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side can checkmate; `helpmate` is a line to it (empty: the opponent is mated now).
    Winnable { helpmate: Vec<Move> },
    /// The side can never checkmate.
    Unwinnable { reason: Reason },
    /// The budget ran out before either was shown.
    Undetermined,
}

impl Verdict {
    pub fn code(&self) -> &'static str {
        match self {
            Verdict::Winnable { .. } => "winnable",
            Verdict::Unwinnable { .. } => "unwinnable",
            Verdict::Undetermined => "undetermined",
        }
    }

    pub fn is_unwinnable(&self) -> bool {
        matches!(self, Verdict::Unwinnable { .. })
    }
}

/// A verdict and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    /// Positions visited by the searches.
    pub nodes: u64,
}

/// The search budget, in nodes (positions visited) per side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget(pub u64);

impl Default for Budget {
    fn default() -> Budget {
        Budget(Budget::DEFAULT_NODES)
    }
}

impl Budget {
    /// Enough for every real game position measured, and for nearly all composed ones.
    pub const DEFAULT_NODES: u64 = 2_000_000;
}

/// Half-moves left before the seventy-five-move rule at which the clocked exhaustive search
/// goes first, with the whole budget.
const SHORT_HORIZON: u64 = 10;

/// Nodes the first, short helpmate search may use.
const QUICK_NODES: u64 = 2_000;

/// Nodes the search of a lone minor piece's mating pictures may use ([`pattern::search`]):
/// with it the record finals' 5 and `light-against-heavy.epd`'s 8 sides left undetermined after
/// 2,000,000 nodes get a helpmate, and the decisions' mean time falls from 501 to 130 µs and
/// from 1,137 to 180 µs (docs/unwinnable.md, Measured, 2026-12-07).
const PATTERN_NODES: u64 = 60_000;

/// The search tables, kept per thread so a decision allocates nothing after the first.
struct Tables {
    helpmate: Table,
    /// The search for a short example ([`shorten`]).
    short: Table,
    visited: exhaustive::Visited,
    tree: exhaustive::Tree,
}

impl Tables {
    /// Entries of capacity the exhaustive searches' tables keep between decisions: all a
    /// common decision needs, while one hard position's hundreds of megabytes go back at once
    /// instead of staying with every thread (a self-play worker, the referee) until its next
    /// exhaustive search.
    const KEEP_ENTRIES: usize = 1 << 16;

    fn trim(&mut self) {
        exhaustive::trim(&mut self.visited, Self::KEEP_ENTRIES);
        exhaustive::trim(&mut self.tree, Self::KEEP_ENTRIES);
    }
}

thread_local! {
    static TABLES: RefCell<Tables> = RefCell::new(Tables { helpmate: Table::new(16), short: Table::new(shorten::TABLE_BITS), visited: exhaustive::Visited::default(), tree: exhaustive::Tree::default() });
}

/// Recent decisions (the referee asks about the same position for its report, its outcome
/// and a resignation), per thread: (key, half-move clock, side, budget or `None` for a
/// decision as shown to a reader) → decision.
const CACHE_SLOTS: usize = 256;

type CacheId = (u64, u16, Color, Option<u64>);

thread_local! {
    static CACHE: RefCell<Vec<Option<(CacheId, Decision)>>> = RefCell::new(vec![None; CACHE_SLOTS]);
}

/// The cached decision for `id`, or `compute`'s (then cached).
fn cached(id: CacheId, compute: impl FnOnce() -> Decision) -> Decision {
    let slot = (id.0 as usize ^ id.2.index() ^ usize::from(id.3.is_none()) << 1) % CACHE_SLOTS;
    let hit = CACHE.with(|c| match &c.borrow()[slot] {
        Some((k, d)) if *k == id => Some(d.clone()),
        _ => None,
    });
    if let Some(d) = hit {
        return d;
    }
    let d = compute();
    CACHE.with(|c| c.borrow_mut()[slot] = Some((id, d.clone())));
    d
}

/// Can `side` checkmate from `pos` by some series of legal moves?
pub fn decide(pos: &Position, side: Color, budget: Budget) -> Decision {
    cached((pos.key(), pos.halfmove_clock(), side, Some(budget.0)), || decide_uncached(pos, side, budget))
}

fn decide_uncached(pos: &Position, side: Color, budget: Budget) -> Decision {
    if let Some(d) = settled(pos, side) {
        return d;
    }
    TABLES.with(|t| {
        let mut t = t.borrow_mut();
        let d = decide_with(pos, side, budget, &mut t);
        t.trim();
        d
    })
}

/// The decision where no search is needed: the game over on the board, material that cannot
/// mate, the seventy-five-move rule.
fn settled(pos: &Position, side: Color) -> Option<Decision> {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        let verdict = if !pos.in_check() {
            Verdict::Unwinnable { reason: Reason::Stalemate }
        } else if pos.side_to_move() == side {
            Verdict::Unwinnable { reason: Reason::Checkmated }
        } else {
            Verdict::Winnable { helpmate: Vec::new() }
        };
        return Some(Decision { verdict, nodes: 0 });
    }
    if let Some(p) = material::prove(pos, side) {
        let reason = match p {
            material::MaterialProof::BareKing => Reason::BareKing,
            material::MaterialProof::Insufficient => Reason::InsufficientMaterial,
        };
        return Some(Decision { verdict: Verdict::Unwinnable { reason }, nodes: 0 });
    }
    if pos.halfmove_clock() >= 150 {
        return Some(Decision { verdict: Verdict::Unwinnable { reason: Reason::SeventyFiveMoves }, nodes: 0 });
    }
    None
}

/// The searches of [`decide`] past the cheap proofs, on this thread's tables.
fn decide_with(pos: &Position, side: Color, budget: Budget, t: &mut Tables) -> Decision {
    let mut nodes = 0;
    // A few quiet half-moves before the seventy-five-move rule and no pawn to reset the clock:
    // the clocked exhaustive search sees every position that can still arise (a capture leaves
    // less material, soon none that mates), and decides most such positions, with up to half
    // the budget (K+N v K+N eight half-moves before the rule: some 100,000 to 1,100,000
    // positions; the rounds below, which share their budget among four searches, ran out).
    if 150 - u64::from(pos.halfmove_clock()) <= SHORT_HORIZON && pos.pieces(PieceType::Pawn).is_empty() {
        let share = budget.0 / 2;
        let found = exhaustive::search(pos, side, exhaustive::Clock::Ends, &mut t.visited, share);
        nodes += found.nodes.min(share);
        match found.found {
            exhaustive::Found::Mate(line) if is_helpmate(pos, side, &line) => {
                return Decision { verdict: Verdict::Winnable { helpmate: line }, nodes };
            }
            exhaustive::Found::NoMate => {
                return Decision { verdict: Verdict::Unwinnable { reason: Reason::Exhaustive75 }, nodes };
            }
            _ => {}
        }
    }
    let quick = helpmate::search(
        pos,
        side,
        &mut t.helpmate,
        None,
        QUICK_NODES.min(budget.0),
        &mut helpmate::Progress::default(),
    );
    nodes += quick.nodes;
    if let Some(line) = quick.line {
        return Decision { verdict: Verdict::Winnable { helpmate: line }, nodes };
    }
    if quick.exhausted {
        return Decision { verdict: Verdict::Unwinnable { reason: Reason::Exhaustive }, nodes };
    }
    let reach = reach::Reach::new(pos);
    if let Some(p) = statics::prove_with(&reach, side) {
        let reason = match p {
            statics::StaticProof::NoCheck => Reason::NoCheck,
            statics::StaticProof::NoMatingSquare => Reason::NoMatingSquare,
        };
        return Decision { verdict: Verdict::Unwinnable { reason }, nodes };
    }
    // A lone knight or bishop mates with the loser's men as blockers: the pictures of such
    // mates, searched one at a time, find most of them within a few thousand nodes, where
    // the plans below took up to millions (docs/unwinnable.md).
    let (line, spent) = pattern::search(pos, side, &mut t.helpmate, PATTERN_NODES.min(budget.0.saturating_sub(nodes)));
    nodes += spent;
    if let Some(line) = line.filter(|line| is_helpmate(pos, side, line)) {
        return Decision { verdict: Verdict::Winnable { helpmate: line }, nodes };
    }
    let light_against_heavy = light_against_heavy(pos, side);
    let mut step = QUICK_NODES;
    // Once the clock-free depth-first search has cut lines at its length limit, the
    // breadth-first one takes its place, first in the round and with twice the nodes.
    let mut wide = false;
    // The helpmate search goes on where the last round's stopped.
    let mut progress = helpmate::Progress::default();
    while nodes < budget.0 {
        let round: &[Stage] = if wide {
            &[Stage::Wide, Stage::Clocked, Stage::Deep, Stage::Helpmate]
        } else {
            &[Stage::Clocked, Stage::Deep, Stage::Wide, Stage::Helpmate]
        };
        // When the budget left is less than the round, the stages run in order until it
        // is spent, leaving the helpmate search, which comes last, little or nothing;
        // with a light winner against heavy pieces every share shrinks alike instead.
        let round_nodes: u64 = round.iter().map(|s| s.share(step, wide, light_against_heavy)).sum();
        let left_at_start = budget.0 - nodes;
        let scaled = |n: u64| {
            if left_at_start >= round_nodes || !light_against_heavy {
                n
            } else {
                (n as u128 * left_at_start as u128 / round_nodes as u128).max(1) as u64
            }
        };
        for stage in round {
            if nodes >= budget.0 {
                break;
            }
            // (Deep may have just turned `wide` on: the breadth-first search then runs
            // in this round already.)
            let stage_nodes = scaled(stage.share(step, wide, light_against_heavy));
            let left = budget.0 - nodes;
            let found = match stage {
                Stage::Clocked => {
                    exhaustive::search(pos, side, exhaustive::Clock::Ends, &mut t.visited, stage_nodes.min(left))
                }
                Stage::Deep => {
                    let o = exhaustive::search(
                        pos,
                        side,
                        exhaustive::Clock::Ignored,
                        &mut t.visited,
                        stage_nodes.min(left),
                    );
                    wide |= matches!(o.found, exhaustive::Found::Cut);
                    o
                }
                Stage::Wide if wide => exhaustive::search_all(pos, side, &mut t.tree, stage_nodes.min(left)),
                Stage::Wide => continue,
                Stage::Helpmate => {
                    let help = helpmate::search(
                        pos,
                        side,
                        &mut t.helpmate,
                        Some(&reach),
                        stage_nodes.min(left),
                        &mut progress,
                    );
                    nodes += help.nodes;
                    if let Some(line) = help.line {
                        return Decision { verdict: Verdict::Winnable { helpmate: line }, nodes };
                    }
                    if help.exhausted {
                        return Decision { verdict: Verdict::Unwinnable { reason: Reason::Exhaustive }, nodes };
                    }
                    continue;
                }
            };
            nodes += found.nodes;
            match found.found {
                // A line that breaks the seventy-five-move rule is no helpmate (the clock-free
                // searches leave the rule out); another search may still find one.
                exhaustive::Found::Mate(line) if is_helpmate(pos, side, &line) => {
                    return Decision { verdict: Verdict::Winnable { helpmate: line }, nodes };
                }
                exhaustive::Found::NoMate => {
                    let reason =
                        if matches!(stage, Stage::Clocked) { Reason::Exhaustive75 } else { Reason::Exhaustive };
                    return Decision { verdict: Verdict::Unwinnable { reason }, nodes };
                }
                exhaustive::Found::Mate(_) | exhaustive::Found::Unknown | exhaustive::Found::Cut => {}
            }
        }
        step = step.saturating_mul(4);
    }
    // (A search stops on the node past its limit: the budget is what was spent.)
    Decision { verdict: Verdict::Undetermined, nodes: nodes.min(budget.0) }
}

/// The winner has no rook or queen, the loser has one. Such heavy pieces roam the board, so
/// an exhaustive search has little hope of closing, while a mate (the loser giving them up or
/// blocking with them) is nearly always there: the helpmate search should get its share.
fn light_against_heavy(pos: &Position, winner: Color) -> bool {
    let heavy = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    (pos.color(winner) & heavy).is_empty() && (pos.color(winner.flip()) & heavy).nonempty()
}

/// The searches that take turns, with growing budgets, after the static proofs.
enum Stage {
    /// Exhaustive, the seventy-five-move rule ending the game.
    Clocked,
    /// Exhaustive without the clock, depth first.
    Deep,
    /// Exhaustive without the clock, breadth first (once [`Stage::Deep`] cut lines).
    Wide,
    /// The helpmate search.
    Helpmate,
}

impl Stage {
    /// The stage's nodes in a round of `step` (the breadth-first search only once `wide`).
    /// With a light winner against heavy pieces the exhaustive searches get an eighth: the
    /// heavy pieces roam, so they seldom close, while a helpmate is nearly always there (CHA's
    /// vectors and the position files of docs/unwinnable.md decide as many sides as before).
    fn share(&self, step: u64, wide: bool, light_against_heavy: bool) -> u64 {
        let exhaustive = if light_against_heavy { step / 8 } else { step };
        match self {
            Stage::Clocked | Stage::Deep => exhaustive,
            Stage::Wide if wide => exhaustive.saturating_mul(2),
            Stage::Wide => 0,
            Stage::Helpmate => step.saturating_mul(2),
        }
    }
}

/// The decision with an example a person can follow, for the batch: a shortest helpmate of at
/// most [`shorten::SHORT_PLIES`] half-moves is looked for first, within [`SHORT_NODES`] as for a
/// reader ([`shorten::short`]; two in three of the self-play finals' winnable sides have one, and
/// a side with one needs no decision); else the decision, its line made an example within `nodes`
/// ([`shorten::example`]: the search's own line follows plans and runs to dozens of moves),
/// from the lengths the first search has not ruled out.
pub fn decide_with_example(pos: &Position, side: Color, budget: Budget, nodes: u64) -> Decision {
    if let Some(d) = settled(pos, side) {
        return d;
    }
    let short =
        TABLES.with(|t| shorten::short(pos, side, shorten::SHORT_PLIES, SHORT_NODES, &mut t.borrow_mut().short));
    if let Some(helpmate) = short.line {
        return Decision { verdict: Verdict::Winnable { helpmate }, nodes: short.nodes };
    }
    let d = decide(pos, side, budget);
    let mut d = as_example(pos, side, &d, short.none_within + 1, nodes);
    d.nodes += short.nodes;
    d
}

/// The decision with its own helpmate as the example, its cycles and the moves past a mate on
/// the way cut out, without a search: the batch's default, at the decision's cost. A line
/// shown this way is valid, not always a shortest ([`decide_with_example`] for that).
pub fn decide_with_any_example(pos: &Position, side: Color, budget: Budget) -> Decision {
    as_example(pos, side, &decide(pos, side, budget), 1, 0)
}

/// `d` with its helpmate made an example ([`shorten::example`]) within `nodes` (added to the
/// decision's), from `from_plies` half-moves (the shorter lengths known to hold no helpmate).
fn as_example(pos: &Position, side: Color, d: &Decision, from_plies: usize, nodes: u64) -> Decision {
    let Verdict::Winnable { helpmate } = &d.verdict else { return d.clone() };
    if helpmate.len() <= 2 {
        return d.clone(); // the winner moves last: nothing shorter has the right parity
    }
    let (helpmate, spent) =
        TABLES.with(|t| shorten::example(pos, side, helpmate, from_plies, nodes, &mut t.borrow_mut().short));
    Decision { verdict: Verdict::Winnable { helpmate }, nodes: d.nodes + spent }
}

/// The decision as shown in a position report or a ruling (cached: a report is often
/// rendered twice, as text and as a diagram): the search for a shortest helpmate of at most
/// [`shorten::SHORT_PLIES`] half-moves first, then the decision's helpmate made an example
/// ([`as_example`]) with what is left of [`SHORT_NODES`] (at most [`READER_SHORTEN_NODES`]).
pub fn for_reader(pos: &Position, side: Color, d: &Decision) -> Decision {
    let Verdict::Winnable { helpmate } = &d.verdict else { return d.clone() };
    if helpmate.len() <= 2 {
        return d.clone();
    }
    cached((pos.key(), pos.halfmove_clock(), side, None), || {
        let short =
            READER_TABLE.with(|t| shorten::short(pos, side, helpmate.len() - 2, SHORT_NODES, &mut t.borrow_mut()));
        match short.line {
            Some(line) if line.len() <= helpmate.len() => {
                Decision { verdict: Verdict::Winnable { helpmate: line }, nodes: d.nodes + short.nodes }
            }
            _ => {
                let left = READER_SHORTEN_NODES.min(SHORT_NODES.saturating_sub(short.nodes));
                let mut e = as_example(pos, side, d, short.none_within + 1, left);
                e.nodes += short.nodes;
                e
            }
        }
    })
}

thread_local! {
    /// The exact search's table for a reader's example ([`for_reader`]): larger than the
    /// batch's ([`shorten::TABLE_BITS`]), as its searches run to hundreds of thousands of nodes.
    static READER_TABLE: RefCell<Table> = RefCell::new(Table::new(shorten::READER_TABLE_BITS));
}

/// The nodes an example may take per side where a shortest one is wanted (a reader's, and the
/// batch's with `--shortest`): the exact search over the lengths of at most
/// [`shorten::SHORT_PLIES`] half-moves first (a reader's then shortens the decision's line with
/// what is left). It bounds the time, so that a position report (both sides) answers within
/// 100 ms; where a helpmate of at most six half-moves exists, a reader is shown one of the
/// shortest on all but 8 of the 5,788 such sides of the record and self-play finals, `--shortest`
/// on all but 10 (docs/unwinnable.md). Until issue #64 it was 4,000,000 (all of them, up to
/// 0.5 s a position).
const SHORT_NODES: u64 = 100_000;

/// The most a reader's example spends on shortening the decision's line (where no helpmate of
/// at most [`shorten::SHORT_PLIES`] half-moves was found): [`SHORTEN_NODES`] until issue #64,
/// when a report of two sides each shortening their line (K+N v K+N fifty half-moves before
/// the seventy-five-move rule) took 200,000 nodes, some 100 ms.
const READER_SHORTEN_NODES: u64 = 40_000;

/// Both sides' decisions, White first.
pub fn decide_both(pos: &Position, budget: Budget) -> [Decision; 2] {
    [decide(pos, Color::White, budget), decide(pos, Color::Black, budget)]
}

/// Does `line` replay legally from `pos` and end with `side` checkmating, the game not having
/// ended before by the seventy-five-move rule (9.6.2; a mate on the 150th half-move stands)?
pub fn is_helpmate(pos: &Position, side: Color, line: &[Move]) -> bool {
    let mut p = *pos;
    for &m in line {
        if p.halfmove_clock() >= 150 || !legal_moves(&p).contains(m) {
            return false;
        }
        p = p.make_move(m);
    }
    p.side_to_move() != side && p.in_check() && legal_moves(&p).is_empty()
}

/// The positions of `tests/data/selfplay-finals.epd` (the final positions of self-play games)
/// in file order: the real positions the unwinnable tests sample.
#[cfg(test)]
fn selfplay_finals() -> impl Iterator<Item = Position> {
    include_str!("../../../tests/data/selfplay-finals.epd")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|fen| Position::from_fen(fen).expect("test FEN"))
}

/// The perft positions and every `step`-th self-play final, each with the positions after its
/// first `children` legal moves: the positions the tests of move generation by a search's own
/// means (keys, mating moves) compare on.
#[cfg(test)]
fn perft_and_finals_with_children(step: usize, children: usize) -> Vec<Position> {
    let perft = include_str!("../../../tests/data/perft.epd").lines().filter_map(|l| l.split(';').next());
    let finals = include_str!("../../../tests/data/selfplay-finals.epd").lines().step_by(step);
    let mut positions = Vec::new();
    for fen in perft.chain(finals).filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let pos = Position::from_fen(fen.trim()).expect("test FEN");
        positions.extend(legal_moves(&pos).iter().take(children).map(|&m| pos.make_move(m)));
        positions.push(pos);
    }
    positions
}

/// The moves of `line` (UCI) from `pos`, each parsed in the position it is played in.
#[cfg(test)]
fn uci_line(pos: &Position, line: &[&str]) -> Vec<Move> {
    let mut p = *pos;
    line.iter()
        .map(|uci| {
            let m = crate::chess::notation::parse_uci_move(&p, uci).expect("move");
            p = p.make_move(m);
            m
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;

    #[test]
    fn a_large_decision_gives_its_table_memory_back() {
        attacks::init();
        // A CHA vector whose exhaustive searches visit hundreds of thousands of positions to
        // prove Black cannot mate. (Until issue #64 a self-play final, `8/8/3Pb3/1P6/4BQ2/8/
        // PP4P1/2K3k1 w - - 1 47`, whose breadth-first search filled some 200,000 entries: the
        // lone bishop's mating pictures find its helpmate in some 40,000 nodes now.)
        let pos = Position::from_fen("rnb1b3/pk1p4/p1pPp1p1/P1P1P1P1/RBP5/P7/8/4B2K b - - 0 1").expect("fen");
        let d = decide_uncached(&pos, Color::Black, Budget::default());
        assert!(d.nodes > 100_000, "{}", d.nodes);
        TABLES.with(|t| {
            let t = t.borrow();
            for (name, len, capacity) in
                [("visited", t.visited.len(), t.visited.capacity()), ("tree", t.tree.len(), t.tree.capacity())]
            {
                assert!(len == 0 && capacity <= 2 * Tables::KEEP_ENTRIES, "{name}: {len} entries, capacity {capacity}");
            }
        });
    }
}
