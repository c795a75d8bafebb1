//! An independent helpmate search for the tests: cozy-chess's move generator (not Arbiter's),
//! brute force over every move of both sides, the seventy-five-move rule kept (9.6.2: no move
//! once the half-move clock has reached 150; a mate on the 150th half-move stands). It knows
//! nothing of Arbiter's plans, bounds or proofs, so it checks them.

use cozy_chess::{Board, Color, Move, Piece};
use std::collections::HashMap;

/// What a bounded search found.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    /// A shortest helpmate (UCI, castling as king-to-rook as cozy-chess writes it; see
    /// [`uci`]).
    Mate(Vec<String>),
    /// No helpmate of at most the asked number of half-moves.
    NoneWithin,
    /// The node limit ran out first.
    OutOfNodes,
}

/// A shortest helpmate by `winner` (`true`: White) from `fen` (whose half-move clock may run
/// to 150, beyond what cozy-chess keeps) of at most `max_plies` half-moves, by iterative
/// deepening, within `node_limit` positions.
pub fn shortest(fen: &str, winner_is_white: bool, max_plies: u32, node_limit: u64) -> Found {
    let (board, clock) = parse(fen).unwrap_or_else(|e| panic!("{e}"));
    let winner = if winner_is_white { Color::White } else { Color::Black };
    let mut s = Search { winner, failed: HashMap::new(), nodes: 0, node_limit, line: Vec::new() };
    for plies in 0..=max_plies {
        s.failed.clear();
        match s.within(&board, clock, plies) {
            Some(true) => return Found::Mate(s.line.iter().rev().map(|(b, m)| uci(b, *m)).collect()),
            Some(false) => {}
            None => return Found::OutOfNodes,
        }
    }
    Found::NoneWithin
}

/// The board (its clock set to 0: cozy-chess stops counting at 100) and the real clock.
fn parse(fen: &str) -> Result<(Board, u32), String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("not a FEN: {fen}"));
    }
    let clock = fields.get(4).and_then(|c| c.parse().ok()).unwrap_or(0);
    let placement = format!("{} {} {} {} 0 1", fields[0], fields[1], fields[2], fields[3]);
    let board = Board::from_fen(&placement, false)
        .or_else(|_| Board::from_fen(&placement, true))
        .map_err(|e| format!("cozy-chess rejects {fen}: {e:?}"))?;
    Ok((board, clock))
}

/// UCI for `m` played in `board`, castling written king to g/c-file as standard chess does.
pub fn uci(board: &Board, m: Move) -> String {
    let is_castle = board.piece_on(m.from) == Some(Piece::King) && board.colors(board.side_to_move()).has(m.to);
    if is_castle {
        let file = if m.to.file() > m.from.file() { cozy_chess::File::G } else { cozy_chess::File::C };
        format!("{}{}", m.from, cozy_chess::Square::new(file, m.from.rank()))
    } else {
        m.to_string()
    }
}

struct Search {
    winner: Color,
    /// (position, clock) → the most half-moves it was searched to without a mate.
    failed: HashMap<(u64, u32), u32>,
    nodes: u64,
    node_limit: u64,
    /// The mating line, last move first, with the board each was played in.
    line: Vec<(Board, Move)>,
}

impl Search {
    /// Is there a mate by the winner within `plies` half-moves? None: out of nodes.
    fn within(&mut self, board: &Board, clock: u32, plies: u32) -> Option<bool> {
        if !has_moves(board) {
            // Checkmate (the winner's, if the loser is to move) or stalemate.
            return Some(!board.checkers().is_empty() && board.side_to_move() != self.winner);
        }
        if plies == 0 || clock >= 150 {
            return Some(false);
        }
        let last = plies == 1;
        if last && board.side_to_move() != self.winner {
            return Some(false); // the loser's move never mates the loser
        }
        if self.failed.get(&(board.hash(), clock)).is_some_and(|&p| p >= plies) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return None;
        }
        for m in legal_moves(board) {
            let mut child = board.clone();
            child.play_unchecked(m);
            if last && child.checkers().is_empty() {
                continue; // only a check can mate
            }
            let resets = board.piece_on(m.from) == Some(Piece::Pawn)
                || board.occupied().has(m.to) && {
                    // castling is king onto its own rook: no capture
                    board.color_on(m.to) != Some(board.side_to_move())
                };
            let child_clock = if resets { 0 } else { clock + 1 };
            if self.within(&child, child_clock, plies - 1)? {
                self.line.push((board.clone(), m));
                return Some(true);
            }
        }
        self.failed.insert((board.hash(), clock), plies);
        Some(false)
    }
}

fn has_moves(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// A shortest helpmate by `winner` from `fen` at any length, breadth first over (position,
/// half-move clock): a position met again is searched again only with a lower clock (with a
/// higher one everything after it was possible before, with more time). Within `node_limit`
/// positions; [`Found::NoneWithin`] means no mate at all (the positions ran out). Suits
/// sparse positions near the seventy-five-move rule, where a pawn move resets the clock and the
/// mate may come twenty half-moves later.
pub fn shortest_at_any_length(fen: &str, winner_is_white: bool, node_limit: u64) -> Found {
    let (board, clock) = parse(fen).unwrap_or_else(|e| panic!("{e}"));
    let winner = if winner_is_white { Color::White } else { Color::Black };
    // (board, clock, parent index, move from the parent)
    let mut states: Vec<(Board, u32, usize, Option<Move>)> = vec![(board.clone(), clock, 0, None)];
    let mut lowest: HashMap<u64, u32> = HashMap::from([(board.hash(), clock)]);
    let mut next = 0;
    while next < states.len() {
        let (board, clock) = (states[next].0.clone(), states[next].1);
        let here = next;
        next += 1;
        if clock >= 150 {
            continue; // 9.6.2: the game is over
        }
        for m in legal_moves(&board) {
            let mut child = board.clone();
            child.play_unchecked(m);
            let resets = board.piece_on(m.from) == Some(Piece::Pawn)
                || board.occupied().has(m.to) && board.color_on(m.to) != Some(board.side_to_move());
            let child_clock = if resets { 0 } else { clock + 1 };
            if lowest.get(&child.hash()).is_some_and(|&c| c <= child_clock) {
                continue;
            }
            lowest.insert(child.hash(), child_clock);
            let mated = !child.checkers().is_empty() && !has_moves(&child);
            if mated && child.side_to_move() != winner {
                let mut line = vec![uci(&board, m)];
                let mut at = here;
                while let (b, _, parent, Some(mv)) = &states[at] {
                    let _ = b;
                    line.push(uci(&states[*parent].0, *mv));
                    at = *parent;
                }
                line.reverse();
                return Found::Mate(line);
            }
            if !mated {
                states.push((child, child_clock, here, Some(m)));
                if states.len() as u64 > node_limit {
                    return Found::OutOfNodes;
                }
            }
        }
    }
    Found::NoneWithin
}

/// A random sparse position (the kings and one to three more men, pawns of either side
/// often: their moves reset the clock) with the half-move clock at 140–149, or None when the
/// placement is not a legal position. Half of them are a lone minor piece against a king and
/// a pawn, the material of issue #37's unsound verdicts.
pub fn sparse_position_near_the_clock_limit(below: &mut impl FnMut(usize) -> usize) -> Option<String> {
    let mut board = [None::<char>; 64];
    // A man on an empty square within `near` king steps of `centre` (any square: 7).
    let place = |below: &mut dyn FnMut(usize) -> usize,
                 piece: char,
                 centre: usize,
                 near: usize,
                 board: &mut [Option<char>; 64]| loop {
        let sq = below(64);
        let (rank, file) = (sq / 8, sq % 8);
        let distance = rank.abs_diff(centre / 8).max(file.abs_diff(centre % 8));
        let pawn_rank_ok = !piece.eq_ignore_ascii_case(&'p') || (1..7).contains(&rank);
        if board[sq].is_none() && pawn_rank_ok && distance <= near {
            board[sq] = Some(piece);
            return sq;
        }
    };
    if below(2) == 0 {
        // A lone minor piece against a king and a pawn; half of them with the loser's king near
        // a corner, the winner's king and the pawn near it (where short mates are).
        let white_wins = below(2) == 0;
        let case = |c: char| if white_wins { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() };
        let other = |c: char| if white_wins { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let minor = case(if below(2) == 0 { 'n' } else { 'b' });
        let (corner, loser_near, near) = if below(2) == 0 { ([0, 7, 56, 63][below(4)], 2, 3) } else { (0, 7, 7) };
        let loser_king = place(below, other('k'), corner, loser_near, &mut board);
        place(below, case('k'), loser_king, near, &mut board);
        place(below, other('p'), loser_king, near, &mut board);
        place(below, minor, loser_king, 7, &mut board);
    } else {
        place(below, 'K', 0, 7, &mut board);
        place(below, 'k', 0, 7, &mut board);
        for _ in 0..1 + below(3) {
            let kind = b"pppnnbbrq"[below(9)] as char;
            let piece = if below(2) == 0 { kind.to_ascii_uppercase() } else { kind };
            place(below, piece, 0, 7, &mut board);
        }
    }
    let fen = placement(&board);
    let side = if below(2) == 0 { 'w' } else { 'b' };
    legal(format!("{fen} {side} - - {} 100", 140 + below(10)), side)
}

/// `fen` (`side` to move) when it is a legal position: the kings not side by side, the side
/// not to move not in check, and the side to move with a move.
fn legal(fen: String, side: char) -> Option<String> {
    let (board, _) = parse(&fen).ok()?;
    let (wk, bk) = (board.king(Color::White), board.king(Color::Black));
    if (wk.rank() as i32 - bk.rank() as i32).abs() <= 1 && (wk.file() as i32 - bk.file() as i32).abs() <= 1 {
        return None;
    }
    let other = if side == 'w' { " b " } else { " w " };
    let (flipped, _) = parse(&fen.replacen(&format!(" {side} "), other, 1)).ok()?;
    (flipped.checkers().is_empty() && has_moves(&board)).then_some(fen)
}

/// A random position of the two kings and `men` more men of any kind and colour (pawns off
/// the first and last ranks), the side to move at random, no castling, or None when the
/// placement is not a legal position. In half of them one king is on the edge of the board
/// with everything else within three king steps of it, where short mates are.
pub fn random_position(below: &mut impl FnMut(usize) -> usize, men: usize) -> Option<String> {
    let mut board = [None::<char>; 64];
    let near_an_edge = below(2) == 0;
    let mut centre = None;
    let kings = if below(2) == 0 { ['K', 'k'] } else { ['k', 'K'] };
    let pieces: Vec<char> = kings.into_iter().chain((0..men).map(|_| b"PNBRQpnbrq"[below(10)] as char)).collect();
    for piece in pieces {
        loop {
            let sq = below(64);
            let (rank, file) = (sq / 8, sq % 8);
            let placed_well = match centre {
                None => !near_an_edge || rank == 0 || rank == 7 || file == 0 || file == 7,
                Some(c) => !near_an_edge || (rank.abs_diff(c / 8)).max(file.abs_diff(c % 8)) <= 3,
            };
            if board[sq].is_none() && placed_well && may_stand(piece, sq) {
                board[sq] = Some(piece);
                centre = centre.or(Some(sq));
                break;
            }
        }
    }
    let side = if below(2) == 0 { 'w' } else { 'b' };
    legal(format!("{} {side} - - 0 1", placement(&board)), side)
}

/// A random position where pawns may decide a short mate: one king on its side's first rank,
/// one or two enemy pawns two to four ranks in front of it and within two files, the other
/// king anywhere, and `men` more men of any kind within three king steps of the first king;
/// the side to move at random, no castling; None when not a legal position.
pub fn random_pawn_position(below: &mut impl FnMut(usize) -> usize, men: usize) -> Option<String> {
    let mut board = [None::<char>; 64];
    let white_mates = below(2) == 0;
    let (loser_king, winner_king, pawn) = if white_mates { ('k', 'K', 'P') } else { ('K', 'k', 'p') };
    let king_rank = if white_mates { 7 } else { 0 };
    let king_file = below(8);
    board[king_rank * 8 + king_file] = Some(loser_king);
    for _ in 0..1 + below(2) {
        let ahead = 2 + below(3);
        let rank = if white_mates { king_rank - ahead } else { king_rank + ahead };
        let file = (king_file as i32 + below(5) as i32 - 2).clamp(0, 7) as usize;
        board[rank * 8 + file].get_or_insert(pawn);
    }
    let mut placed = 0;
    while placed <= men {
        let sq = below(64);
        let (rank, file) = (sq / 8, sq % 8);
        let piece = if placed == 0 { winner_king } else { b"PNBRQpnbrq"[below(10)] as char };
        let near = rank.abs_diff(king_rank).max(file.abs_diff(king_file)) <= 3;
        if board[sq].is_none() && (placed == 0 || near) && may_stand(piece, sq) {
            board[sq] = Some(piece);
            placed += 1;
        }
    }
    let side = if below(2) == 0 { 'w' } else { 'b' };
    legal(format!("{} {side} - - 0 1", placement(&board)), side)
}

/// Can `piece` (a FEN letter) stand on `sq` (a1 = 0)? Pawns never on the first or last rank.
fn may_stand(piece: char, sq: usize) -> bool {
    !piece.eq_ignore_ascii_case(&'p') || (8..56).contains(&sq)
}

/// The placement field of a FEN from a board of piece letters, a1 first (`None`: empty).
pub fn placement(board: &[Option<char>; 64]) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen
}

/// Every legal move of `board`.
fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.generate_moves(|pm| {
        moves.extend(pm);
        false
    });
    moves
}
