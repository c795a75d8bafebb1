//! The move generator against the verified perft suites (tests/data/perft.epd and
//! tests/data/perft960.epd, copies of ../shared/data/), plus key, copy-make, FEN and
//! gives-check invariants at every node.

use arbiter::chess::movegen::{
    has_legal_move, is_legal, king_danger, king_step_is_safe, legal_moves, moves_with_untested_king_steps, MoveList,
};
use arbiter::chess::perft::{divide, parse_perft_epd, perft, EpdEntry};
use arbiter::chess::{Move, Position};

fn suite() -> Vec<EpdEntry> {
    let text = include_str!("../data/perft.epd");
    let entries = parse_perft_epd(text).expect("suite parses");
    assert_eq!(entries.len(), 137);
    entries
}

fn run_suite(limit: u64) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (i, e) in suite().iter().enumerate() {
        let pos = Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("line {}: {err}", i + 1));
        for &(d, expected) in &e.depths {
            if expected > limit {
                continue;
            }
            // Split over two threads: the whole suite (809 counts, ~13e9 nodes with bulk
            // counting) takes about a minute of CPU.
            let got =
                if expected > 1_000_000 { divide(&pos, d, 2).iter().map(|(_, n)| n).sum() } else { perft(&pos, d) };
            checked += 1;
            if got != expected {
                failures.push(format!("line {} D{d}: expected {expected}, got {got} ({})", i + 1, e.fen));
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    checked
}

#[test]
fn perft_suite_every_line_every_depth() {
    assert_eq!(run_suite(u64::MAX), 809);
}

#[test]
fn divide_sums_to_perft_and_threads_agree() {
    let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let one = divide(&pos, 4, 1);
    let two = divide(&pos, 4, 2);
    assert_eq!(one, two);
    assert_eq!(one.iter().map(|(_, n)| n).sum::<u64>(), 4_085_603);
    assert_eq!(one.len(), 48);
}

/// Walks the tree checking at every node: the incremental key equals the key computed
/// from scratch, the parent is untouched by make_move (copy-make "unmake"), FEN
/// round-trips, is_legal agrees with the generator on every 16-bit move value, and the
/// generator leaving king steps untested gives the same moves once they are tested.
fn walk(pos: &Position, depth: u32, raw_check: bool) {
    assert_eq!(pos.key(), pos.compute_key(), "key at {}", pos.to_fen());
    let fen = pos.to_fen();
    let reparsed = Position::from_fen(&fen).expect("to_fen output parses");
    assert_eq!(reparsed.key(), pos.key(), "FEN round trip key at {fen}");
    assert_eq!(reparsed.to_fen(), fen);
    let moves = legal_moves(pos);
    let mut untested = MoveList::new();
    let steps = moves_with_untested_king_steps(pos, &mut untested);
    let king = pos.king_square(pos.side_to_move());
    let danger = king_danger(pos);
    for (i, &m) in untested.iter().enumerate() {
        let is_step = m.from() == king && !m.is_castling();
        assert_eq!(is_step, i < steps, "king steps first ({m:?} at {fen})");
        assert_eq!(moves.contains(m), !is_step || king_step_is_safe(pos, m), "{m:?} at {fen}");
        assert!(!is_step || king_step_is_safe(pos, m) != danger.contains(m.to()), "king_danger: {m:?} at {fen}");
    }
    assert!(moves.iter().all(|&m| untested.contains(m)), "at {fen}");
    assert_eq!(has_legal_move(pos), !moves.is_empty(), "has_legal_move at {fen}");
    if raw_check {
        let mut n = 0;
        for raw in 1..=u16::MAX {
            if let Some(m) = Move::from_raw(raw) {
                let legal = is_legal(pos, m);
                assert_eq!(legal, moves.contains(m), "is_legal({m:?}) at {fen}");
                n += legal as usize;
            }
        }
        assert_eq!(n, moves.len());
    }
    if depth == 0 {
        return;
    }
    let before = *pos;
    for &m in moves.iter() {
        let child = pos.make_move(m);
        assert_eq!(pos.gives_check(m), child.in_check(), "gives_check({m:?}) at {fen}");
        walk(&child, depth - 1, raw_check);
        assert!(before == *pos, "make_move changed its parent");
    }
}

#[test]
fn keys_fen_and_legality_invariants_on_every_suite_line() {
    for e in suite() {
        let pos = Position::from_fen(&e.fen).unwrap();
        walk(&pos, 2, false);
        walk(&pos, 1, true);
    }
}

fn suite960() -> Vec<EpdEntry> {
    let entries = parse_perft_epd(include_str!("../data/perft960.epd")).expect("960 suite parses");
    assert_eq!(entries.len(), 640);
    entries
}

/// The shallow part of the Chess960 suite (CI time): every count up to 100,000 nodes (D1-D3
/// of all 640 lines), and up to 1,000,000 on every fourth line. The whole file (D1-D6) is a
/// benchmark: `arbiter perft --epd tests/data/perft960.epd --threads 2`.
#[test]
fn perft960_suite_shallow_depths() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (i, e) in suite960().iter().enumerate() {
        let pos = Position::from_fen(&e.fen).unwrap_or_else(|err| panic!("960 line {}: {err}", i + 1));
        let rights = e.fen.split_whitespace().nth(2) != Some("-");
        assert_eq!(pos.is_chess960(), rights, "line {}: Shredder-FEN castling rights mean Chess960", i + 1);
        for &(d, expected) in &e.depths {
            if expected > 100_000 && (i % 4 != 0 || expected > 1_000_000) {
                continue;
            }
            checked += 1;
            let got = perft(&pos, d);
            if got != expected {
                failures.push(format!("960 line {} D{d}: expected {expected}, got {got} ({})", i + 1, e.fen));
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(checked > 2000, "{checked}");
}

#[test]
fn keys_fen_and_legality_invariants_on_960_lines() {
    for (i, e) in suite960().iter().enumerate() {
        let pos = Position::from_fen(&e.fen).unwrap();
        if i % 8 == 0 {
            walk(&pos, 2, false);
        }
        if i % 40 == 0 {
            walk(&pos, 1, true);
        }
    }
}

#[test]
fn transposed_positions_have_equal_keys_and_ep_only_counts_when_legal() {
    let start = Position::startpos();
    let play = |pos: &Position, moves: &[&str]| {
        moves.iter().fold(*pos, |p, t| {
            let m = arbiter::chess::notation::parse_uci_move(&p, t).unwrap();
            p.make_move(m)
        })
    };
    let a = play(&start, &["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&start, &["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    // 1.e4: the FEN records e3, but no black pawn can capture: same key as without it.
    let e4 = play(&start, &["e2e4"]);
    assert_eq!(e4.ep_square().map(|s| s.to_string()), Some("e3".to_string()));
    let no_ep = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(e4.key(), no_ep.key());
    // A legal e.p. capture makes the position different.
    let with = Position::from_fen("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1").unwrap();
    let without = Position::from_fen("4k3/8/8/8/3Pp3/8/8/4K3 b - - 0 1").unwrap();
    assert_ne!(with.key(), without.key());
    // ...but an e.p. capture that would expose the king (pinned on the diagonal) does not.
    let pinned = Position::from_fen("8/1k6/8/8/3Pp3/8/8/4K2B b - d3 0 1").unwrap();
    let pinned_no = Position::from_fen("8/1k6/8/8/3Pp3/8/8/4K2B b - - 0 1").unwrap();
    assert_eq!(pinned.key(), pinned_no.key());
}

/// Mates, stalemates and positions where only the king or only a pawn can move (checked with
/// python-chess): `has_legal_move` tests the king's steps only when nothing else can move.
#[test]
fn has_legal_move_on_mates_and_stalemates() {
    for (fen, expected) in [
        ("7k/5KQ1/8/8/8/8/8/8 b - - 0 1", false),  // mate, the queen guarded
        ("7k/8/6Q1/8/8/8/8/K6R b - - 0 1", false), // mate by the rook
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false), // stalemate
        ("k7/P7/1Q6/8/8/8/8/7K b - - 0 1", false), // stalemate, the capture a7 guarded
        ("k7/8/2Q5/8/8/8/8/7K b - - 0 1", true),   // in check, two safe steps
        ("k7/p7/1Q6/8/8/8/8/7K b - - 0 1", true),  // the king cannot move, the pawn can
        ("kb6/8/1Q6/8/8/8/8/7K b - - 0 1", true),  // the king cannot move, the bishop can
    ] {
        let pos = Position::from_fen(fen).expect("test FEN");
        assert_eq!(has_legal_move(&pos), expected, "{fen}");
        assert_eq!(!legal_moves(&pos).is_empty(), expected, "{fen}");
    }
}
