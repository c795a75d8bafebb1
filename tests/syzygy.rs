//! Syzygy tablebases: our prober against python-chess's `chess.syzygy` on random legal
//! positions (WDL and DTZ equal), and damaged tables.
//!
//! The tables: all 3-4-piece ones from `../shared/data/syzygy` when that directory is
//! there (it is beside every clone the project tests), else the subset kept in
//! `tests/data/syzygy` (10 tables closed under captures and promotions, 1 MiB), so the
//! test never skips for want of tables.

mod common;

use arbiter::chess::{legal_moves, Position};
use arbiter::syzygy::material::Material;
use arbiter::syzygy::{ProbeError, Tablebases};
use common::oracle::python_chess_output;
use common::rng::Rng;
use std::path::PathBuf;

fn table_dir() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data/syzygy");
    if shared.join("KRPvK.rtbw").is_file() {
        shared
    } else {
        root.join("tests/data/syzygy")
    }
}

/// The materials of the `.rtbw` files in `dir`.
fn materials(dir: &PathBuf) -> Vec<Material> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("table directory")
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".rtbw").map(str::to_string))
        .collect();
    names.sort();
    names.iter().filter_map(|n| Material::parse_name(n)).collect()
}

/// A random legal position of `material` (either colouring), or None after a bad draw.
/// When both sides have pawns, one position in three has just seen a double pawn push
/// next to an enemy pawn, so that en passant may be possible.
fn random_position(rng: &mut Rng, material: Material) -> Option<Position> {
    let m = if rng.one_in(2) { material } else { material.flipped() };
    let mut board = [None::<char>; 64];
    let letters = ['p', 'n', 'b', 'r', 'q'];
    let mut pieces = vec!['K', 'k'];
    for (side, upper) in [(m.white, true), (m.black, false)] {
        for (i, &n) in side.0.iter().enumerate() {
            for _ in 0..n {
                let c = letters[i];
                pieces.push(if upper { c.to_ascii_uppercase() } else { c });
            }
        }
    }
    let mut white_to_move = rng.one_in(2);
    let mut ep_field = "-".to_string();
    if m.white.pawns() > 0 && m.black.pawns() > 0 && rng.one_in(3) {
        // White just pushed to the fourth rank (or Black to the fifth) beside an enemy pawn.
        white_to_move = rng.one_in(2);
        let file = rng.below(8);
        let beside = if file == 0 || (file < 7 && rng.one_in(2)) { file + 1 } else { file - 1 };
        let (rank, behind, start, pushed, capturer) =
            if white_to_move { (4, 5, 6, 'p', 'P') } else { (3, 2, 1, 'P', 'p') };
        board[rank * 8 + file] = Some(pushed);
        board[rank * 8 + beside] = Some(capturer);
        // The squares the pawn crossed stay empty (marked, cleared below).
        board[behind * 8 + file] = Some('x');
        board[start * 8 + file] = Some('x');
        for p in [pushed, capturer] {
            let i = pieces.iter().position(|&q| q == p)?;
            pieces.remove(i);
        }
        ep_field = format!("{}{}", (b'a' + file as u8) as char, behind + 1);
    }
    for p in pieces {
        let sq = loop {
            let sq = rng.below(64);
            let pawn_rank = p.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq);
            if board[sq].is_none() && !pawn_rank {
                break sq;
            }
        };
        board[sq] = Some(p);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file].filter(|&c| c != 'x') {
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
    fen.push_str(&format!(" {} - {ep_field} 0 1", if white_to_move { 'w' } else { 'b' }));
    Position::from_fen(&fen).ok()
}

fn show(r: Result<impl std::fmt::Display, ProbeError>) -> String {
    r.map(|v| v.to_string()).unwrap_or_else(|_| "ERR".to_string())
}

/// ≥ 10,000 random legal positions spread over every table: WDL and DTZ as python-chess.
#[test]
fn probes_agree_with_python_chess() {
    let dir = table_dir();
    let (tb, report) = Tablebases::load(dir.to_str().expect("utf-8 path"));
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let mats = materials(&dir);
    assert!(mats.len() >= 10, "tables in {}", dir.display());
    let mut rng = Rng(0x5EED_5EED_0034);
    let mut cases = String::new();
    let mut count = 0;
    let mut ep = 0;
    while count < 10_000 {
        let m = mats[count % mats.len()];
        let Some(pos) = random_position(&mut rng, m) else { continue };
        ep += legal_moves(&pos).iter().any(|m| m.is_en_passant()) as usize;
        let wdl = tb.probe_wdl(&pos).map(|w| w as i32);
        let dtz = tb.probe_dtz(&pos);
        cases.push_str(&format!("{};{};{}\n", pos.to_fen(), show(wdl), show(dtz)));
        count += 1;
    }
    if mats.iter().any(|m| m.white.pawns() > 0 && m.black.pawns() > 0) {
        assert!(ep >= 20, "only {ep} positions with en passant");
    }
    let file = std::env::temp_dir().join(format!("arbiter-syzygy-{}.txt", std::process::id()));
    std::fs::write(&file, &cases).expect("write cases");
    let out = python_chess_output(
        "tablebase probes",
        "syzygy_probe.py",
        &[dir.to_str().expect("utf-8"), file.to_str().expect("utf-8")],
    );
    let _ = std::fs::remove_file(&file);
    let Some(out) = out else { return };
    let mismatches: Vec<&str> = out.lines().filter(|l| l.starts_with("MISMATCH")).collect();
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first: {:#?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(10)]
    );
    assert!(out.contains("checked 10000"), "{out}");
    assert!(!cases.contains("ERR"), "a probe failed");
    // The sample covers every kind of value, not just draws.
    let dtz: Vec<i32> = cases.lines().filter_map(|l| l.rsplit(';').next()?.parse().ok()).collect();
    for (what, n) in [
        ("wins", dtz.iter().filter(|&&d| d > 0).count()),
        ("losses", dtz.iter().filter(|&&d| d < 0).count()),
        ("draws", dtz.iter().filter(|&&d| d == 0).count()),
    ] {
        assert!(n >= 500, "only {n} {what}");
    }
}
