//! The helpmate search: both sides cooperate so that the winner checkmates. A found line is
//! the evidence of a "winnable" verdict.
//!
//! Iterative deepening on a move *cost*: moves that make progress toward a mating pattern
//! are free, ordinary moves cost one, moves that work against a mate cost three. Progress is:
//! for the winner, captures, pawn advances and promotions, and the king or a knight closing in
//! on the mating corner; for the loser, the king walking to that corner (the corner of the
//! winner's bishops' colour when bishops of one colour are all the winner has). A reply to a
//! progress move is free too, so each iteration follows plans far along while the cost bound
//! limits aimless wandering. For a winner without rooks or queens one more plan lets the loser
//! give its pieces up (moving them where the winner can take them is free, and so is taking
//! them): rooks and queens that would stop a pawn or cover a flight square go. A search that
//! runs out of nodes says where it stopped ([`Progress`]), and the next one goes on from
//! there. A table of positions already searched with at least the same
//! remaining cost prunes transpositions and cycles. Nothing here proves anything negative:
//! "not found" only means "not found within the budget".

use super::material;
use super::reach::Reach;
use super::table::Table;
use crate::chess::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::chess::movegen::{has_legal_move, king_danger, moves_with_untested_king_steps_into, Sink};
use crate::chess::{Bitboard, Color, Move, MoveKind, PieceType, Position, Square};
use once_cell::sync::Lazy;

/// The cost of one move in the iterative deepening.
const FREE: i32 = 0;
const NORMAL: i32 = 1;
const AGAINST: i32 = 3;

/// The deepest cost bound tried.
const MAX_BOUND: i32 = 120;
/// Nodes per unit of cost bound an iteration may use before it gives up (deeper iterations
/// get more).
const NODES_PER_BOUND: u64 = 4000;

/// The result of one search.
pub struct Outcome {
    /// The mating line, first move first.
    pub line: Option<Vec<Move>>,
    /// No mate, and nothing was cut: every position reachable was searched (a proof).
    pub exhausted: bool,
    pub nodes: u64,
}

/// Where a search stopped for want of nodes: the next search of the same position, side and
/// fixpoint goes on from there (the iterations before it found nothing, and would find
/// nothing again: each starts with an empty table and has its own node limit).
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    bound: i32,
    plan: usize,
}

impl Default for Progress {
    fn default() -> Progress {
        Progress { bound: 1, plan: 0 }
    }
}

/// Searches for a helpmate by `winner` using at most about `limit` nodes, from `progress`
/// on (updated when the nodes run out). With the reachability fixpoint (`reach`) the plans
/// leave out what can never take part: pawns that can never move, corners the loser's king
/// can never reach.
pub fn search(
    pos: &Position,
    winner: Color,
    table: &mut Table,
    reach: Option<&Reach>,
    limit: u64,
    progress: &mut Progress,
) -> Outcome {
    let plans = Plan::candidates(pos, winner, reach);
    let Some(&first) = plans.first() else { return Outcome { line: None, exhausted: false, nodes: 0 } };
    let mut s = Search {
        winner,
        table,
        nodes: 0,
        limit,
        iteration_limit: 0,
        // Room for the lines of the common case, so that they are not grown move by move.
        line: Vec::with_capacity(256),
        plan: first,
        memo: Memo::new(),
        order: Vec::with_capacity(4096),
    };
    let start = *progress;
    for bound in start.bound..=MAX_BOUND {
        let skip = if bound == start.bound { start.plan } else { 0 };
        for (i, &plan) in plans.iter().enumerate().skip(skip) {
            s.plan = plan;
            s.memo = Memo::new();

            s.table.clear();
            s.iteration_limit = s.nodes + NODES_PER_BOUND * bound as u64;
            let mut stopped = false;
            if s.dfs(pos, bound, false, true, &mut stopped) {
                return Outcome { line: Some(s.line), exhausted: false, nodes: s.nodes };
            }
            if !stopped {
                // The whole tree was searched and nothing was cut: there is no mate at all.
                return Outcome { line: None, exhausted: true, nodes: s.nodes };
            }
            if s.nodes >= s.limit {
                // This iteration may have been cut by the limit: the next search redoes it.
                *progress = Progress { bound, plan: i };
                return Outcome { line: None, exhausted: false, nodes: s.nodes };
            }
        }
    }
    *progress = Progress { bound: MAX_BOUND + 1, plan: 0 };
    Outcome { line: None, exhausted: false, nodes: s.nodes }
}

struct Search<'t> {
    winner: Color,
    table: &'t mut Table,
    nodes: u64,
    limit: u64,
    iteration_limit: u64,
    line: Vec<Move>,
    plan: Plan,
    /// The plan's distances asked for so far.
    memo: Memo,
    /// Move order keys of the nodes on the current line.
    order: Vec<u32>,
}

impl Search<'_> {
    /// True when a mate is found (the line is then in `self.line`). `stopped` is set when any
    /// branch was cut by the bound or a node limit. `material_changed`: the last move took
    /// or promoted (else the material proof of the node before still fails here: it depends
    /// only on the pieces and the colour of the bishops' squares).
    fn dfs(&mut self, pos: &Position, bound: i32, progress: bool, material_changed: bool, stopped: &mut bool) -> bool {
        let loser_to_move = pos.side_to_move() != self.winner;
        if bound <= 0 && !(loser_to_move && pos.in_check()) {
            *stopped = true;
            return false;
        }
        let key = pos.key();
        if self.table.get(key).is_some_and(|b| b >= bound) {
            *stopped = true; // searched before (it may be on the current path): not proof of anything
            return false;
        }
        // A node that stops here only has to tell whether the game is over: mate (or stalemate).
        let spent = bound <= 0 || pos.halfmove_clock() >= 150; // 9.6.2: the game is over
        let proved = !spent && material_changed && material::prove(pos, self.winner).is_some();
        if spent || proved || self.nodes >= self.iteration_limit || self.nodes >= self.limit {
            if !has_legal_move(pos) {
                return loser_to_move && pos.in_check();
            }
            *stopped |= !proved;
            return false;
        }
        // Each move's order key (cheapest first, then the higher score; the move in the low
        // bits), made as the generator emits the move, on a scratch stack shared by all nodes.
        // King steps are tested only when played, or when no other move could show that the
        // side has a legal move.
        let base = self.order.len();
        let mut keys = Keys::new(&self.plan, &mut self.memo, pos, loser_to_move, &mut self.order);
        moves_with_untested_king_steps_into(pos, &mut keys);
        let (best, others, king) = (keys.best, keys.others, keys.king);
        let end = self.order.len();
        // The king's steps are tested against one map of the squares it may not go to, made
        // the first time one is asked about.
        let mut danger = None;
        let mut playable = |m: Move| {
            m.from() != king || m.is_castling() || !danger.get_or_insert_with(|| king_danger(pos)).contains(m.to())
        };
        if others == 0 && !self.order[base..end].iter().filter_map(|&k| Move::from_raw(k as u16)).any(&mut playable) {
            self.order.truncate(base);
            return loser_to_move && pos.in_check();
        }
        self.table.put(key, bound);
        // The first is picked alone (the largest key, found while making them), as it is
        // often all a node needs; when it fails, most often all do: the rest is sorted once.
        self.order.swap(base, best);
        let mut sorted = false;
        let mut check_squares = None;
        for picked in base..end {
            if !sorted && picked > base {
                self.order[picked..end].sort_unstable_by(|a, b| b.cmp(a));
                sorted = true;
            }
            let key = self.order[picked];
            let Some(m) = Move::from_raw(key as u16) else { continue };
            if !playable(m) {
                continue;
            }
            let cost = AGAINST - (key >> 27) as i32;
            // The child stops at once when this move spends the bound (and is not a free reply
            // to progress), unless the loser is then in check and may be mated. The moves after
            // it cost as much or more: the same holds for them.
            if bound <= cost && !(progress && cost == NORMAL) {
                if loser_to_move {
                    // Each child is a node, cut by the bound: count them without playing them.
                    let rest = self.order[picked..end].iter().filter_map(|&k| Move::from_raw(k as u16));
                    let count = rest.filter(|&m| playable(m)).count() as u64;
                    self.nodes = (self.nodes + count).min(self.limit); // (below the limit before)
                    *stopped = true;
                    self.order.truncate(base);
                    return false;
                }
                // The winner's moves: each one that does not check is a node cut by the bound,
                // counted without playing it; a check is played (it may mate). All the rest
                // are tried, in order.
                if !sorted {
                    self.order[picked + 1..end].sort_unstable_by(|a, b| b.cmp(a));
                    sorted = true;
                }
                let checks = check_squares.get_or_insert_with(|| pos.check_squares());
                if !pos.gives_check_by(m, checks) {
                    self.nodes += 1;
                    *stopped = true;
                    if self.nodes >= self.limit {
                        self.order.truncate(base);
                        return false;
                    }
                    continue;
                }
            }
            let child = pos.make_move(m);
            // A reply to progress is free, unless it is a check (which disturbs the plan).
            let paid = if cost == NORMAL && progress && !child.in_check() { FREE } else { cost };
            self.nodes += 1;
            self.line.push(m);
            if self.dfs(&child, bound - paid, cost == FREE, m.is_capture() || m.is_promotion(), stopped) {
                self.order.truncate(base);
                return true;
            }
            self.line.pop();
            if self.nodes >= self.limit {
                *stopped = true;
                self.order.truncate(base);
                return false;
            }
        }
        self.order.truncate(base);
        false
    }
}

/// Where the mate is aimed: a corner for the loser's king, the winner's king near it, and,
/// when the winner has only minor pieces, the loser's other pieces on the corner's flight
/// squares as blockers. A template plan names the winner king's square and the one flight
/// square a blocker must fill; a corner plan leaves both open.
#[derive(Clone, Copy)]
struct Plan {
    corner: Square,
    /// The winner king's square (template plans); else any square two from the corner.
    king_target: Option<Square>,
    /// Where the loser's pieces should stand to block flights.
    blocker_targets: Bitboard,
    /// Moves a knight, bishop, rook or queen needs to reach `blocker_targets`, around the
    /// squares that always hold a piece (with the fixpoint only: `walls_known`).
    blocker_moves: [[u8; 64]; 4],
    walls_known: bool,
    /// The squares from which a knight checks a king in the corner.
    knight_checks: Bitboard,
    /// The winner has pawns, a rook or a queen: it can take the loser's pieces freely.
    strong: bool,
    /// The winner's material cannot mate without the loser promoting (to get blockers).
    loser_must_promote: bool,
    /// The loser gives its pieces up: a loser's move onto a square the winner attacks is
    /// free, and so is the winner taking anything. For a winner without rooks or queens
    /// against pieces that would stop its pawns or cover the flight squares.
    offers: bool,
}

impl Plan {
    /// The plans worth trying, best first. Corners nearest the loser's king (of the colour of
    /// the winner's bishops when those are all it has); with a single minor piece, first the
    /// templates of the corner mates it can give (the winner's king two squares from the
    /// corner covering all flight squares but one, which a blocker fills).
    fn candidates(pos: &Position, winner: Color, reach: Option<&Reach>) -> Vec<Plan> {
        let loser = winner.flip();
        let kings = pos.pieces(PieceType::King);
        // Pawns that can never move take no part in any plan.
        let frozen = reach.map_or(Bitboard::EMPTY, |r| {
            r.units()
                .iter()
                .filter(|u| u.kind == PieceType::Pawn && u.immobile())
                .fold(Bitboard::EMPTY, |b, u| b.with(u.square))
        });
        let ours = pos.color(winner) & !kings & !frozen;
        let bishops = pos.pieces_of(winner, PieceType::Bishop);
        let colour = if (bishops & Bitboard::DARK_SQUARES).nonempty() {
            Bitboard::DARK_SQUARES
        } else {
            Bitboard::LIGHT_SQUARES
        };
        let one_colour = ours == bishops && ours.nonempty() && (bishops & !colour).is_empty();
        let strong = (ours
            & (pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen)))
        .nonempty();
        let single_minor = !strong && !ours.more_than_one();
        let theirs = pos.color(loser) & !kings;
        let their_blockers = theirs & !pos.pieces(PieceType::Pawn) & !pos.pieces(PieceType::Queen);
        let ksq = pos.king_square(loser);
        let wk = pos.king_square(winner);
        let mut corners: Vec<Square> = [Square::A1, Square::H1, Square::A8, Square::H8]
            .into_iter()
            .filter(|&c| !one_colour || colour.contains(c))
            .collect();
        if let Some(k) = reach.and_then(|r| r.king(loser)) {
            if corners.iter().any(|&c| k.reach.contains(c)) {
                corners.retain(|&c| k.reach.contains(c));
            }
        }
        corners.sort_by_key(|&c| (c.distance(ksq), c.distance(wk)));
        corners.truncate(2);
        let base = |corner: Square| Plan {
            corner,
            king_target: None,
            blocker_targets: king_attacks(corner),
            blocker_moves: [[0; 64]; 4],
            walls_known: false,
            knight_checks: knight_attacks(corner),
            strong,
            loser_must_promote: single_minor && their_blockers.is_empty(),
            offers: false,
        };
        let mut plans = Vec::new();
        if single_minor && theirs.nonempty() {
            let bishop = ours == bishops;
            for &corner in &corners {
                let flights = king_attacks(corner);
                // A bishop checking from afar covers the diagonal flight on its line.
                let diagonal = if bishop { flights & bishop_attacks(corner, Bitboard::EMPTY) } else { Bitboard::EMPTY };
                let mut templates: Vec<Plan> = Square::all()
                    .filter(|&k| k.distance(corner) == 2)
                    .filter_map(|k| {
                        let open = flights & !king_attacks(k) & !diagonal;
                        (open.count() == 1).then_some(Plan {
                            king_target: Some(k),
                            blocker_targets: open,
                            ..base(corner)
                        })
                    })
                    .collect();
                templates.sort_by_key(|p| p.king_target.map_or(0, |k| k.distance(wk)));
                plans.extend(templates);
            }
        }
        // The loser giving up its pieces: only after the static proofs (with the fixpoint), so
        // the first, short search, which settles most positions, stays as it was.
        let heavy = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
        let offers = reach.is_some() && (ours & heavy).is_empty() && (theirs & !pos.pieces(PieceType::Pawn)).nonempty();
        let offer_plan = corners.first().filter(|_| offers).map(|&c| Plan { offers: true, ..base(c) });
        plans.extend(corners.into_iter().map(base));
        plans.extend(offer_plan);
        if let (false, Some(r)) = (strong, reach) {
            for i in 0..plans.len() {
                // Plans on the same blocking squares share the distances (the offer plan its
                // corner plan's).
                let same = plans[..i].iter().position(|q| q.blocker_targets == plans[i].blocker_targets);
                plans[i].blocker_moves = match same {
                    Some(j) => plans[j].blocker_moves,
                    None => blocker_moves(plans[i].blocker_targets, r.never_empty()),
                };
                plans[i].walls_known = true;
            }
        }
        plans
    }

    /// Does a loser's piece of `kind` moving `from` → `to` come closer to a blocking square?
    fn blocker_closer(&self, memo: &mut Memo, kind: PieceType, from: Square, to: Square) -> bool {
        match slot(kind) {
            Some(i) if self.walls_known => {
                let moves = &self.blocker_moves[i];
                moves[to.index()] < moves[from.index()]
            }
            Some(i) => {
                let row = &mut memo.blockers[i];
                Memo::get(row, kind, to, self.blocker_targets) < Memo::get(row, kind, from, self.blocker_targets)
            }
            None => set_distance(kind, to, self.blocker_targets) < set_distance(kind, from, self.blocker_targets),
        }
    }

    /// Does [`Self::classify`] give every quiet move (no capture, no promotion) of a piece of
    /// `kind` the same (NORMAL, 0)? Then [`Keys`] makes their keys without asking.
    #[inline(always)]
    fn quiet_moves_plain(&self, kind: PieceType, loser_to_move: bool) -> bool {
        match kind {
            PieceType::King | PieceType::Pawn => false,
            PieceType::Knight if !loser_to_move => self.king_target.is_some(),
            PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen => {
                !loser_to_move || (self.strong && !self.offers)
            }
        }
    }

    /// (cost, ordering score) of `m` in `pos`, a move of a piece of `kind` taking `victim`
    /// (known to the caller: [`Keys`]).
    #[inline(always)]
    fn classify(
        &self,
        memo: &mut Memo,
        pos: &Position,
        kind: PieceType,
        m: Move,
        victim: Option<PieceType>,
        loser_to_move: bool,
    ) -> (i32, i32) {
        let (from, to) = (m.from(), m.to());
        if !loser_to_move {
            if let Some(p) = m.promotion() {
                return (FREE, 1000 + value(p));
            }
            if let Some(v) = victim {
                if self.strong || self.offers || v == PieceType::Queen {
                    return (FREE, 500 + value(v));
                }
            }
            match kind {
                PieceType::Pawn => return (FREE, 300),
                PieceType::King => {
                    let closer = match self.king_target {
                        Some(k) => to.distance(k) < from.distance(k),
                        None => {
                            let (d0, d1) = (from.distance(self.corner), to.distance(self.corner));
                            d1 < d0 && d1 >= 2
                        }
                    };
                    if closer {
                        return (FREE, 200);
                    }
                }
                PieceType::Knight
                    if self.king_target.is_none()
                        && Memo::get(&mut memo.knight_checks, PieceType::Knight, to, self.knight_checks)
                            < Memo::get(&mut memo.knight_checks, PieceType::Knight, from, self.knight_checks) =>
                {
                    return (FREE, 150);
                }
                _ => {}
            }
            (NORMAL, 0)
        } else {
            if kind == PieceType::King {
                return if to.distance(self.corner) < from.distance(self.corner) { (FREE, 200) } else { (NORMAL, 0) };
            }
            if victim.is_some() {
                return (AGAINST, 0);
            }
            if self.offers && kind != PieceType::Pawn && pos.is_square_attacked(to, pos.side_to_move().flip()) {
                return (FREE, 120); // given up
            }
            if self.loser_must_promote && kind == PieceType::Pawn {
                let heavy = matches!(m.promotion(), Some(PieceType::Queen | PieceType::Rook));
                return if heavy { (AGAINST, 0) } else { (FREE, 100) };
            }
            if !self.strong && kind != PieceType::Pawn && self.blocker_closer(memo, kind, from, to) {
                return (FREE, 100); // a blocker on its way
            }
            (NORMAL, 0)
        }
    }
}

/// The order keys of a node's moves, made as the generator emits them: it knows each move's
/// square of departure, kind and whether it captures, so the moving piece is looked up once
/// per piece and the victim only for captures, and no move list is kept besides the keys.
struct Keys<'a> {
    plan: &'a Plan,
    memo: &'a mut Memo,
    pos: &'a Position,
    loser_to_move: bool,
    /// The side to move's king.
    king: Square,
    keys: &'a mut Vec<u32>,
    /// Where the largest key so far is in `keys`, and that key (0 before the first).
    best: usize,
    best_key: u32,
    /// How many moves are not the king's steps.
    others: usize,
}

/// A move's order key: cheapest first, then the higher score; the move in the low bits (so
/// keys are unique).
#[inline(always)]
fn order_key(cost: i32, score: i32, m: Move) -> u32 {
    ((AGAINST - cost) as u32) << 27 | (score as u32) << 16 | m.raw() as u32
}

impl<'a> Keys<'a> {
    /// Keys for the moves of `pos`, appended to `keys`.
    fn new(plan: &'a Plan, memo: &'a mut Memo, pos: &'a Position, loser_to_move: bool, keys: &'a mut Vec<u32>) -> Self {
        let king = pos.king_square(pos.side_to_move());
        let best = keys.len();
        Keys { plan, memo, pos, loser_to_move, king, keys, best, best_key: 0, others: 0 }
    }

    #[inline(always)]
    fn push(&mut self, kind: PieceType, m: Move, victim: Option<PieceType>) {
        let (cost, score) = self.plan.classify(self.memo, self.pos, kind, m, victim, self.loser_to_move);
        self.push_key(cost, score, m);
    }

    #[inline(always)]
    fn push_key(&mut self, cost: i32, score: i32, m: Move) {
        let key = order_key(cost, score, m);
        if key > self.best_key {
            self.best_key = key;
            self.best = self.keys.len();
        }
        self.keys.push(key);
    }

    #[inline(always)]
    fn victim(&self, to: Square) -> Option<PieceType> {
        self.pos.piece_at(to).map(|p| p.kind)
    }
}

impl Sink for Keys<'_> {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, enemies: Bitboard) {
        let Some(piece) = self.pos.piece_at(from) else { return };
        if from != self.king {
            self.others += targets.count() as usize;
        }
        for to in targets & enemies {
            self.push(piece.kind, Move::new(from, to, MoveKind::Capture), self.victim(to));
        }
        if self.plan.quiet_moves_plain(piece.kind, self.loser_to_move) {
            for to in targets - enemies {
                self.push_key(NORMAL, 0, Move::new(from, to, MoveKind::Quiet));
            }
        } else {
            for to in targets - enemies {
                self.push(piece.kind, Move::new(from, to, MoveKind::Quiet), None);
            }
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i8, kind: MoveKind) {
        self.others += targets.count() as usize;
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            let victim = if kind == MoveKind::Capture { self.victim(to) } else { None };
            self.push(PieceType::Pawn, Move::new(from, to, kind), victim);
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i8, capture: bool, under: bool) {
        for to in targets {
            let from = Square::new((to.index() as i8 - delta) as u8);
            let victim = if capture { self.victim(to) } else { None };
            let pieces: &[PieceType] = if under { &PieceType::PROMOTIONS } else { &[PieceType::Queen] };
            for &p in pieces {
                self.others += 1;
                self.push(PieceType::Pawn, Move::new(from, to, MoveKind::promotion(p, capture)), victim);
            }
        }
    }

    #[inline(always)]
    fn single(&mut self, m: Move) {
        let Some(piece) = self.pos.piece_at(m.from()) else { return };
        self.others += 1;
        self.push(piece.kind, m, self.pos.captured_piece(m));
    }
}

/// The [`set_distance`]s of one plan, each worked out the first time it is asked for (a
/// search classifies the same few squares' moves over and over; most need few squares).
struct Memo {
    /// From each square to the knight's checking squares ([`Plan::knight_checks`]).
    knight_checks: [u8; 64],
    /// From each square to the blocking squares, by [`slot`].
    blockers: [[u8; 64]; 4],
}

impl Memo {
    const UNKNOWN: u8 = u8::MAX;

    fn new() -> Memo {
        Memo { knight_checks: [Memo::UNKNOWN; 64], blockers: [[Memo::UNKNOWN; 64]; 4] }
    }

    /// `set_distance(kind, sq, set)`, `row` keeping the distances of that kind and set.
    #[inline]
    fn get(row: &mut [u8; 64], kind: PieceType, sq: Square, set: Bitboard) -> i32 {
        if row[sq.index()] == Memo::UNKNOWN {
            row[sq.index()] = set_distance(kind, sq, set) as u8; // at most 8
        }
        row[sq.index()] as i32
    }
}

/// The index of a knight, bishop, rook or queen in [`Plan::blocker_moves`].
fn slot(kind: PieceType) -> Option<usize> {
    match kind {
        PieceType::Knight => Some(0),
        PieceType::Bishop => Some(1),
        PieceType::Rook => Some(2),
        PieceType::Queen => Some(3),
        PieceType::King | PieceType::Pawn => None,
    }
}

/// For each of knight, bishop, rook and queen: the moves it needs from every square to the
/// nearest square of `targets`, never passing nor stopping on `walls` (u8::MAX: never).
fn blocker_moves(targets: Bitboard, walls: Bitboard) -> [[u8; 64]; 4] {
    let mut out = [[u8::MAX; 64]; 4];
    for (i, row) in out.iter_mut().enumerate() {
        let step = |s: Square| match i {
            0 => knight_attacks(s),
            1 => bishop_attacks(s, walls),
            2 => rook_attacks(s, walls),
            _ => bishop_attacks(s, walls) | rook_attacks(s, walls),
        } & !walls;
        let mut frontier = targets & !walls;
        for s in frontier {
            row[s.index()] = 0;
        }
        let mut d = 0;
        while frontier.nonempty() {
            d += 1;
            let mut next = Bitboard::EMPTY;
            for s in frontier {
                for t in step(s) {
                    if row[t.index()] == u8::MAX {
                        row[t.index()] = d;
                        next = next.with(t);
                    }
                }
            }
            frontier = next;
        }
    }
    out
}

/// Moves a piece of `kind` needs from `sq` to the nearest square of `set` on an empty board
/// (8 when it never gets there).
fn set_distance(kind: PieceType, sq: Square, set: Bitboard) -> i32 {
    set.squares().map(|t| piece_distance(kind, sq, t)).min().unwrap_or(8)
}

fn piece_distance(kind: PieceType, a: Square, b: Square) -> i32 {
    if a == b {
        return 0;
    }
    let aligned_diag = bishop_attacks(a, Bitboard::EMPTY).contains(b);
    let aligned_line = rook_attacks(a, Bitboard::EMPTY).contains(b);
    match kind {
        PieceType::Knight => knight_distance(a, b),
        PieceType::Bishop if a.is_light() != b.is_light() => 8,
        PieceType::Bishop => 2 - aligned_diag as i32,
        PieceType::Rook => 2 - aligned_line as i32,
        PieceType::Queen => 2 - (aligned_diag || aligned_line) as i32,
        PieceType::King | PieceType::Pawn => a.distance(b),
    }
}

/// The usual material values (pawn 1, minor piece 3, rook 5, queen 9).
pub(crate) fn value(p: PieceType) -> i32 {
    match p {
        PieceType::Pawn => 1,
        PieceType::Knight | PieceType::Bishop => 3,
        PieceType::Rook => 5,
        PieceType::Queen => 9,
        PieceType::King => 0,
    }
}

/// Knight moves from `a` to `b` on an empty board.
pub(super) fn knight_distance(a: Square, b: Square) -> i32 {
    KNIGHT_DISTANCE[a.index()][b.index()] as i32
}

static KNIGHT_DISTANCE: Lazy<[[u8; 64]; 64]> = Lazy::new(|| {
    let mut t = [[u8::MAX; 64]; 64];
    for (a, row) in t.iter_mut().enumerate() {
        row[a] = 0;
        let mut frontier = vec![a];
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &s in &frontier {
                for n in crate::chess::attacks::knight_attacks(Square::new(s as u8)) {
                    if row[n.index()] == u8::MAX {
                        row[n.index()] = d;
                        next.push(n.index());
                    }
                }
            }
            frontier = next;
        }
    }
    t
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::attacks;
    use crate::chess::movegen::legal_moves;

    fn mate_line(fen: &str, winner: Color) -> Option<Vec<Move>> {
        attacks::init();
        let pos = Position::from_fen(fen).expect("test FEN");
        let mut table = Table::new(16);
        search(&pos, winner, &mut table, None, 1_000_000, &mut Progress::default()).line
    }

    fn replays_to_mate(fen: &str, line: &[Move], winner: Color) -> bool {
        let mut pos = Position::from_fen(fen).expect("test FEN");
        for &m in line {
            if !legal_moves(&pos).contains(m) {
                return false;
            }
            pos = pos.make_move(m);
        }
        pos.side_to_move() != winner && pos.in_check() && legal_moves(&pos).is_empty()
    }

    #[test]
    fn finds_mates_with_little_material() {
        for (fen, winner) in [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Color::White),
            ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", Color::White),
            ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", Color::White),
            ("4k3/7p/8/8/8/8/8/3BK3 w - - 0 1", Color::White),
            (crate::chess::STARTPOS_FEN, Color::Black),
        ] {
            let line = mate_line(fen, winner).unwrap_or_else(|| panic!("no helpmate found in {fen}"));
            assert!(replays_to_mate(fen, &line, winner), "{fen}: {line:?}");
        }
    }

    /// The keys made as the generator emits the moves are the keys of the move list, each
    /// move classified after a look at the board, for every plan (and its flags flipped), both
    /// winners, on the perft positions, self-play finals and the positions one move after them.
    #[test]
    fn keys_made_while_generating_are_the_move_lists_keys() {
        attacks::init();
        let positions = super::super::perft_and_finals_with_children(10, 6);
        let mut checked = 0;
        for pos in &positions {
            for winner in Color::ALL {
                for plan in Plan::candidates(pos, winner, None) {
                    for plan in [
                        plan,
                        Plan { offers: !plan.offers, ..plan },
                        Plan { strong: !plan.strong, ..plan },
                        Plan { loser_must_promote: !plan.loser_must_promote, ..plan },
                    ] {
                        let loser_to_move = pos.side_to_move() != winner;
                        let mut made = Vec::new();
                        let mut memo = Memo::new();
                        let mut keys = Keys::new(&plan, &mut memo, pos, loser_to_move, &mut made);
                        moves_with_untested_king_steps_into(pos, &mut keys);
                        let (best, others) = (keys.best, keys.others);
                        let mut list = crate::chess::MoveList::new();
                        let steps = crate::chess::movegen::moves_with_untested_king_steps(pos, &mut list);
                        let mut memo = Memo::new();
                        let mut expected: Vec<u32> = list
                            .iter()
                            .map(|&m| {
                                let kind = pos.piece_at(m.from()).expect("a piece moves").kind;
                                let (cost, score) =
                                    plan.classify(&mut memo, pos, kind, m, pos.captured_piece(m), loser_to_move);
                                order_key(cost, score, m)
                            })
                            .collect();
                        assert_eq!(others, list.len() - steps, "{pos:?}");
                        if !made.is_empty() {
                            assert_eq!(Some(&made[best]), expected.iter().max(), "{pos:?}");
                        }
                        made.sort_unstable();
                        expected.sort_unstable();
                        assert_eq!(made, expected, "{pos:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn knight_distances() {
        attacks::init();
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(knight_distance(sq("a1"), sq("b3")), 1);
        assert_eq!(knight_distance(sq("a1"), sq("b2")), 4);
        assert_eq!(knight_distance(sq("a1"), sq("h8")), 6);
    }
}
