//! Differential testing of the move generator against an independent implementation
//! (the cozy-chess crate, a dev-dependency): on positions from biased random games the
//! legal move sets, check status, FEN output, and FIDE 9.2.3 identity of repeated
//! positions (our Zobrist key vs cozy-chess's `same_position`) must agree exactly.
//!
//! Chess960 likewise (cozy-chess's `chess960` boards; castling as king takes own rook on
//! both sides): games from random start numbers, different arrays for White and Black, and
//! the lines of tests/data/perft960.epd; legal moves, checkers, FEN placement and Shredder-FEN
//! castling field, and key identity.
//!
//! CI runs 200,000 positions (and 100,000 Chess960 ones); the long run (`cargo test --release --test it differential:: --
//! --ignored`, count from ARBITER_DIFF_POSITIONS, default 1,000,000) is reported in the README.

use arbiter::chess::movegen::{legal_moves, MoveList};
use arbiter::chess::{Move, MoveKind, Position};
use std::collections::HashMap;

use crate::common::rng::Rng;

fn to_cozy(m: Move) -> cozy_chess::Move {
    // cozy-chess writes castling as "king takes own rook".
    let text = match m.kind() {
        MoveKind::CastleKing => format!("{}{}{}", m.from(), 'h', m.from().rank().char()),
        MoveKind::CastleQueen => format!("{}{}{}", m.from(), 'a', m.from().rank().char()),
        _ => m.to_string(),
    };
    text.parse().expect("cozy parses a UCI move")
}

fn cozy_moves(board: &cozy_chess::Board) -> Vec<String> {
    let mut out = Vec::new();
    board.generate_moves(|pm| {
        for mv in pm {
            let mut s = mv.to_string();
            if pm.piece == cozy_chess::Piece::King && board.colors(board.side_to_move()).has(mv.to) {
                let rank = mv.from.rank();
                let file = if mv.to.file() > mv.from.file() { cozy_chess::File::G } else { cozy_chess::File::C };
                s = format!("{}{}", mv.from, cozy_chess::Square::new(file, rank));
            }
            out.push(s);
        }
        false
    });
    out.sort();
    out
}

/// The e.p. file only when an e.p. capture is legal (FIDE 9.2.3), computed on cozy's side.
/// (cozy-chess 0.3.4's own `same_position` counts any legal move *of any piece* to the e.p.
/// square, e.g. a bishop's, so it is not used: it calls r4rk1/bpp1qpp1/p1np1n2/4p1Bp/2B1P1b1/
/// PPNP1N2/2P1QPPP/2R2RK1 w - h6 different from the same placement without h6.)
fn cozy_identity(board: &cozy_chess::Board) -> (u64, Option<cozy_chess::File>) {
    let ep = board.en_passant().filter(|&f| {
        let mut legal = false;
        board.generate_moves(|pm| {
            legal |= pm.piece == cozy_chess::Piece::Pawn
                && pm.into_iter().any(|mv| mv.to.file() == f && board.piece_on(mv.to).is_none() && mv.from.file() != f);
            legal
        });
        legal
    });
    (board.hash_without_ep(), ep)
}

fn weight(pos: &Position, m: Move, last: Option<Move>) -> u64 {
    if let Some(l) = last {
        // Undoing our previous move makes repetitions (and e.p. identity cases) common.
        if m.from() == l.to() && m.to() == l.from() && !m.is_capture() {
            return 8;
        }
    }
    match m.kind() {
        MoveKind::EnPassant | MoveKind::CastleKing | MoveKind::CastleQueen => 40,
        MoveKind::DoublePush => {
            // A double push past an enemy pawn offers an e.p. capture: favour it.
            let us = pos.side_to_move();
            let passed = arbiter::chess::Square::new(((m.from().index() + m.to().index()) / 2) as u8);
            let their_pawns = pos.pieces_of(us.flip(), arbiter::chess::PieceType::Pawn);
            if (arbiter::chess::attacks::pawn_attacks(us, passed) & their_pawns).nonempty() {
                200
            } else {
                12
            }
        }
        k if m.is_promotion() => 8 + (k as u64 & 1),
        _ if m.is_capture() => 4 + pos.halfmove_clock() as u64 % 2,
        _ => 3,
    }
}

/// A random move, weighted by `weight`.
fn pick(rng: &mut Rng, pos: &Position, moves: &MoveList, last: Option<Move>) -> Move {
    let total: u64 = moves.iter().map(|&m| weight(pos, m, last)).sum();
    let mut pick = rng.below_u64(total);
    for &m in moves.iter() {
        let w = weight(pos, m, last);
        if pick < w {
            return m;
        }
        pick -= w;
    }
    moves.get(0)
}

fn run(positions_wanted: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut starts: Vec<String> = vec![arbiter::chess::STARTPOS_FEN.to_string()];
    starts.extend(
        include_str!("../data/perft.epd").lines().filter_map(|l| l.split(';').next()).map(|s| s.trim().to_string()),
    );
    let mut checked = 0;
    let mut repetitions = 0;
    let mut ep_positions = 0;
    let mut castling_positions = 0;
    let mut promotion_positions = 0;
    while checked < positions_wanted {
        let fen = &starts[rng.below(starts.len())];
        let mut pos = Position::from_fen(fen).expect("suite FEN");
        let mut board: cozy_chess::Board = fen.parse().expect("cozy parses suite FEN");
        let mut by_key: HashMap<u64, cozy_chess::Board> = HashMap::new();
        let mut by_identity: HashMap<(u64, Option<cozy_chess::File>), u64> = HashMap::new();
        let mut last: [Option<Move>; 2] = [None, None];
        for ply in 0..400 {
            checked += 1;
            let ours = legal_moves(&pos);
            let mut ours_text: Vec<String> = ours.iter().map(|m| m.to_string()).collect();
            ours_text.sort();
            let fen_now = pos.to_fen();
            assert_eq!(ours_text, cozy_moves(&board), "legal moves differ at {fen_now}");
            assert_eq!(pos.checkers().count(), board.checkers().len(), "checkers differ at {fen_now}");
            // cozy-chess refuses halfmove clocks over 100; identity ignores the clocks anyway.
            let fields: Vec<&str> = fen_now.split(' ').collect();
            let clockless = format!("{} 0 {}", fields[..4].join(" "), fields[5]);
            let reparsed: cozy_chess::Board = clockless.parse().expect("cozy parses our FEN");
            assert_eq!(cozy_identity(&reparsed), cozy_identity(&board), "our FEN {fen_now} is not cozy's {board}");
            if pos.legal_ep_square().is_some() {
                ep_positions += 1;
            }
            castling_positions += ours.iter().any(|m| m.is_castling()) as usize;
            promotion_positions += ours.iter().any(|m| m.is_promotion()) as usize;
            // Identity both ways: equal keys <=> the same position by FIDE 9.2.3.
            if let Some(prev) = by_key.get(&pos.key()) {
                assert_eq!(
                    cozy_identity(prev),
                    cozy_identity(&board),
                    "equal keys, different positions: {prev} vs {board}"
                );
                repetitions += 1;
            } else {
                by_key.insert(pos.key(), board.clone());
            }
            let id = cozy_identity(&board);
            if let Some(&k) = by_identity.get(&id) {
                assert_eq!(k, pos.key(), "same FIDE position, different keys at {fen_now}");
            } else {
                by_identity.insert(id, pos.key());
            }
            if ours.is_empty()
                || pos.halfmove_clock() >= 150
                || pos.insufficient_material()
                || checked >= positions_wanted
            {
                break;
            }
            let side = ply % 2;
            let chosen = pick(&mut rng, &pos, &ours, last[side]);
            last[side] = Some(chosen);
            board.play(to_cozy(chosen));
            pos = pos.make_move(chosen);
        }
    }
    assert!(repetitions > positions_wanted / 50, "too few repetitions exercised: {repetitions}");
    assert!(ep_positions > positions_wanted / 1000, "too few e.p. positions exercised: {ep_positions}");
    assert!(castling_positions > positions_wanted / 400, "too few castling positions: {castling_positions}");
    assert!(promotion_positions > positions_wanted / 400, "too few promotion positions: {promotion_positions}");
    eprintln!(
        "differential: {checked} positions, {repetitions} repetitions, {ep_positions} with a legal e.p. capture, \
         {castling_positions} with castling, {promotion_positions} with a promotion"
    );
    checked
}

/// A Chess960 start for game `i`: a random array for both sides, different arrays for
/// White and Black, or a line of the 960 perft suite (positions a few moves in).
fn start960(rng: &mut Rng, i: usize) -> cozy_chess::Board {
    match i % 3 {
        0 => cozy_chess::Board::chess960_startpos(rng.below(960) as u32),
        1 => cozy_chess::Board::double_chess960_startpos(rng.below(960) as u32, rng.below(960) as u32),
        _ => {
            let lines: Vec<&str> = include_str!("../data/perft960.epd").lines().collect();
            let fen = lines[rng.below(lines.len())].split(';').next().unwrap_or_default().trim();
            cozy_chess::Board::from_fen(fen, true).expect("cozy parses a 960 suite FEN")
        }
    }
}

fn run960(positions_wanted: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let (mut checked, mut castling_positions, mut games) = (0, 0, 0);
    while checked < positions_wanted {
        let mut board = start960(&mut rng, games);
        games += 1;
        let start = format!("{board:#}");
        let mut pos = Position::from_fen(&start).unwrap_or_else(|e| panic!("{start}: {e}"));
        pos.set_chess960(true);
        let mut last: [Option<Move>; 2] = [None, None];
        let mut by_key: HashMap<u64, (u64, Option<cozy_chess::File>)> = HashMap::new();
        for ply in 0..300 {
            checked += 1;
            let ours = legal_moves(&pos);
            let mut ours_text: Vec<String> = ours.iter().map(|m| m.to_string()).collect();
            ours_text.sort();
            let mut theirs = Vec::new();
            board.generate_moves(|pm| {
                theirs.extend(pm.into_iter().map(|m| m.to_string()));
                false
            });
            theirs.sort();
            let fen_now = pos.to_fen();
            assert_eq!(ours_text, theirs, "legal moves differ at {fen_now} (cozy {board:#}) from {start}");
            assert_eq!(pos.checkers().count(), board.checkers().len(), "checkers differ at {fen_now}");
            let cozy_fen = format!("{board:#}");
            let fields = |f: &str| f.split(' ').take(3).map(str::to_string).collect::<Vec<_>>();
            assert_eq!(fields(&fen_now), fields(&cozy_fen), "FEN differs from {start}");
            let reparsed = Position::from_fen(&fen_now).expect("our FEN parses");
            assert_eq!(reparsed.key(), pos.key(), "FEN round trip changes the key at {fen_now}");
            let id = cozy_identity(&board);
            assert_eq!(*by_key.entry(pos.key()).or_insert(id), id, "equal keys, different positions at {fen_now}");
            castling_positions += ours.iter().any(|m| m.is_castling()) as usize;
            if ours.is_empty() || pos.halfmove_clock() >= 150 || checked >= positions_wanted {
                break;
            }
            let chosen = pick(&mut rng, &pos, &ours, last[ply % 2]);
            last[ply % 2] = Some(chosen);
            board.play(chosen.to_string().parse().expect("cozy parses a UCI move"));
            pos = pos.make_move(chosen);
        }
    }
    assert!(castling_positions > positions_wanted / 100, "too few castling positions: {castling_positions}");
    eprintln!("differential 960: {checked} positions in {games} games, {castling_positions} with castling");
    checked
}

#[test]
fn agrees_with_cozy_chess_on_100k_chess960_positions() {
    assert!(run960(100_000, 0x5EED_0960) >= 100_000);
}

#[test]
fn agrees_with_cozy_chess_on_200k_positions() {
    assert!(run(200_000, 0x5EED_0001) >= 200_000);
}

#[test]
#[ignore = "long run: 1,000,000 positions by default (a few seconds); run by hand and report"]
fn agrees_with_cozy_chess_long_run() {
    let n = std::env::var("ARBITER_DIFF_POSITIONS").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    assert!(run(n, 0x5EED_0002) >= n);
    assert!(run960(n, 0x5EED_0961) >= n);
}
