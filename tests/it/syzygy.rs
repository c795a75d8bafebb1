//! Syzygy tablebases: our prober against python-chess's `chess.syzygy` on random legal
//! positions (WDL and DTZ equal), and damaged tables.
//!
//! The tables: all 3-4-piece ones from `../shared/data/syzygy` when that directory is
//! there (it is beside every clone the project tests), else the subset kept in
//! `tests/data/syzygy` (10 tables closed under captures and promotions, 1 MiB), so the
//! test never skips for want of tables.

use crate::common::helpmate::placement;
use crate::common::oracle::python_chess_output;
use crate::common::rng::Rng;
use crate::common::Engine;
use arbiter::chess::{legal_moves, Position};
use arbiter::syzygy::material::Material;
use arbiter::syzygy::{ProbeError, Tablebases, Wdl};
use std::path::{Path, PathBuf};
use std::time::Duration;

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
fn materials(dir: &Path) -> Vec<Material> {
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
    let mut fen = placement(&board.map(|c| c.filter(|&c| c != 'x')));
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
    let mats = materials(&dir);
    assert!(mats.len() >= 10, "tables in {}", dir.display());
    compare_with_python_chess("3-4", &dir, &mats, 10_000);
}

/// The same on more tables, by hand (not in CI): `ARBITER_SYZYGY_DIR` names a directory
/// with 5-piece tables (and the smaller ones they depend on), `ARBITER_SYZYGY_CASES`
/// how many positions (default 10,000), spread over its 5-piece tables.
#[test]
#[ignore]
fn probes_agree_with_python_chess_on_5_piece_tables() {
    let dir = PathBuf::from(std::env::var("ARBITER_SYZYGY_DIR").expect("ARBITER_SYZYGY_DIR"));
    let count = std::env::var("ARBITER_SYZYGY_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let mats: Vec<Material> = materials(&dir).into_iter().filter(|m| m.pieces() == 5).collect();
    assert!(!mats.is_empty(), "no 5-piece tables in {}", dir.display());
    compare_with_python_chess("5", &dir, &mats, count);
}

fn compare_with_python_chess(tag: &str, dir: &Path, mats: &[Material], count: usize) {
    let (tb, report) = Tablebases::load(dir.to_str().expect("utf-8 path"));
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let mut rng = Rng::new(0x5EED_5EED_0034);
    let mut cases = String::new();
    let mut n = 0;
    let mut ep = 0;
    while n < count {
        let m = mats[n % mats.len()];
        let Some(pos) = random_position(&mut rng, m) else { continue };
        ep += legal_moves(&pos).iter().any(|m| m.is_en_passant()) as usize;
        let wdl = tb.probe_wdl(&pos).map(|w| w as i32);
        let dtz = tb.probe_dtz(&pos);
        cases.push_str(&format!("{};{};{}\n", pos.to_fen(), show(wdl), show(dtz)));
        n += 1;
    }
    if mats.iter().any(|m| m.white.pawns() > 0 && m.black.pawns() > 0) {
        assert!(ep >= 20, "only {ep} positions with en passant");
    }
    let file = std::env::temp_dir().join(format!("arbiter-syzygy-{tag}-{}.txt", std::process::id()));
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
    assert!(out.contains(&format!("checked {count}")), "{out}");
    assert!(!cases.contains("ERR"), "a probe failed");
    // The sample covers every kind of value, not just draws.
    let dtz: Vec<i32> = cases.lines().filter_map(|l| l.rsplit(';').next()?.parse().ok()).collect();
    for (what, k) in [
        ("wins", dtz.iter().filter(|&&d| d > 0).count()),
        ("losses", dtz.iter().filter(|&&d| d < 0).count()),
        ("draws", dtz.iter().filter(|&&d| d == 0).count()),
    ] {
        assert!(k >= count / 20, "only {k} {what} of {count}");
    }
    eprintln!(
        "{count} positions of {} tables in {}: WDL and DTZ equal to python-chess ({ep} with en passant)",
        mats.len(),
        dir.display()
    );
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-syzygy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn kept_table(name: &str) -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy").join(name)).expect("table")
}

/// The `info string` lines up to the one that says what was found.
fn load_lines(e: &mut Engine, path: &str) -> Vec<String> {
    let before = e.seen.len();
    e.send(&format!("setoption name SyzygyPath value {path}"));
    e.wait_for("the load report", WAIT, |l| l.starts_with("info string Syzygy: found"));
    e.seen[before..].iter().filter(|l| l.starts_with("info string")).cloned().collect()
}

/// The bestmove of `go` in `fen`, with every `info` line before it.
fn search(e: &mut Engine, fen: &str, go: &str) -> (String, Vec<String>) {
    e.send(&format!("position fen {fen}"));
    let before = e.seen.len();
    e.send(go);
    let best = e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
    let infos = e.seen[before..].iter().filter(|l| l.starts_with("info")).cloned().collect();
    let pos = Position::from_fen(fen).expect("fen");
    let mv = best.split_whitespace().nth(1).expect("a move");
    assert!(legal_moves(&pos).iter().any(|m| m.to_uci() == mv), "{best} is not legal in {fen}");
    (mv.to_string(), infos)
}

const WAIT: Duration = Duration::from_secs(60);

/// A table cut short, a file of another table under a table's name, a WDL file under a
/// DTZ name, a directory that is not there: each named in an `info string`, skipped,
/// the good tables used, and the engine plays on.
#[test]
fn damaged_tables_are_reported_and_skipped() {
    let dir = scratch("damaged");
    let krk = kept_table("KRvK.rtbw");
    std::fs::write(dir.join("KRvK.rtbw"), &krk[..krk.len() - 64]).expect("write");
    std::fs::write(dir.join("KRvK.rtbz"), &kept_table("KRvK.rtbz")[..1000]).expect("write");
    std::fs::write(dir.join("KBvK.rtbw"), kept_table("KQvK.rtbw")).expect("write");
    std::fs::write(dir.join("KQvK.rtbz"), kept_table("KQvK.rtbw")).expect("write");
    std::fs::write(dir.join("KQvK.rtbw"), kept_table("KQvK.rtbw")).expect("write");
    std::fs::write(dir.join("KPvK.rtbw"), b"").expect("write");
    let missing = dir.join("no-such-directory");
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    let lines = load_lines(&mut e, &format!("{}:{}", dir.display(), missing.display()));
    let text = lines.join("\n");
    for (file, why) in [
        ("KRvK.rtbw", "cut short"),
        ("KRvK.rtbz", "is not the size of a table"),
        ("KBvK.rtbw", "do not match the table's name"),
        ("KQvK.rtbz", "wrong magic number"),
        ("KPvK.rtbw", "is not the size of a table"),
    ] {
        assert!(
            lines.iter().any(|l| l.contains(&format!("skipped '{}'", dir.join(file).display())) && l.contains(why)),
            "no line skipping {file} ({why}):\n{text}"
        );
    }
    assert!(text.contains(&format!("cannot read directory '{}'", missing.display())), "{text}");
    assert!(text.contains("found 1 WDL and 0 DTZ tables (3-piece: 1)"), "{text}");
    // The good table is used (tbhits), the skipped ones are not (no tbhits in KRvK).
    let (_, infos) = search(&mut e, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "go depth 6");
    assert!(infos.iter().any(|l| l.contains(" tbhits ")), "{infos:?}");
    let (_, infos) = search(&mut e, "8/8/8/4k3/8/8/8/KR6 w - - 0 1", "go depth 6");
    assert!(infos.iter().all(|l| !l.contains(" tbhits ") || l.contains(" tbhits 0 ")), "{infos:?}");
    e.send("isready");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table that changes under the engine after it was checked is found damaged by the
/// search's first probe: said once in an `info string`, not used again, and the search
/// still answers with a legal move.
#[test]
fn a_table_damaged_after_loading_is_reported_by_the_search() {
    let dir = scratch("changed");
    for f in ["KQvK.rtbw", "KQvK.rtbz"] {
        std::fs::write(dir.join(f), kept_table(f)).expect("write");
    }
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    let lines = load_lines(&mut e, &dir.display().to_string());
    assert!(lines.iter().any(|l| l.contains("found 1 WDL and 1 DTZ tables")), "{lines:?}");
    let wdl = kept_table("KQvK.rtbw");
    std::fs::write(dir.join("KQvK.rtbw"), &wdl[..wdl.len() - 64]).expect("cut the table short");
    let (_, infos) = search(&mut e, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "go depth 8");
    let damaged = format!("info string Syzygy: {} is damaged", dir.join("KQvK.rtbw").display());
    assert_eq!(infos.iter().filter(|l| l.starts_with(&damaged)).count(), 1, "{infos:#?}");
    let (_, infos) = search(&mut e, "8/8/8/4k3/8/8/8/KQ6 b - - 0 1", "go depth 8");
    assert!(infos.iter().all(|l| !l.contains("damaged")), "reported twice: {infos:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// With the fifty-move counter at 41 a won KBN-K keeps its win only by the moves that
/// zero within 58 plies (Kb2, Ne2, Nd3+; Ka2 and the bishop moves take 60 or more):
/// the engine plays one of them, with one thread or two, and MultiPV lists them first.
#[test]
fn dtz_ranking_converts_within_the_fifty_move_rule() {
    let fen = "8/8/8/4k3/8/8/8/KBN5 w - - 41 80";
    let keep = ["a1b2", "c1e2", "c1d3"];
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    load_lines(&mut e, &table_dir().display().to_string());
    for threads in [1, 2] {
        e.send(&format!("setoption name Threads value {threads}"));
        let (mv, infos) = search(&mut e, fen, "go depth 12");
        assert!(keep.contains(&mv.as_str()), "{mv} with {threads} thread(s)");
        assert!(infos.iter().any(|l| l.contains("score cp 20000") && l.contains(" tbhits ")), "{infos:#?}");
    }
    e.send("setoption name Threads value 1");
    e.send("setoption name MultiPV value 4");
    let (_, infos) = search(&mut e, fen, "go depth 8");
    let last =
        |k: usize| infos.iter().rev().find(|l| l.contains(&format!(" multipv {k} "))).cloned().unwrap_or_default();
    for k in 1..=3 {
        let line = last(k);
        let first = line.split(" pv ").nth(1).and_then(|p| p.split_whitespace().next()).unwrap_or("");
        assert!(keep.contains(&first) && line.contains("score cp 20000"), "line {k}: {line}");
    }
    // The fourth line is a win too slow for the fifty-move rule: a draw by it, shown as 1 cp.
    assert!(last(4).contains("score cp 1 "), "{}", last(4));
}

/// Repetitions, which the tables know nothing of: in a won KQ-K, after Ka2 Ke6 Ka1 Ke5
/// (back where it started), Ka2 goes back into a position of the game and ranks after
/// the wins that do not; once more round, Ka2 would make it occur a third time: a draw.
#[test]
fn root_ranking_avoids_repetitions() {
    arbiter::chess::attacks::init();
    let (tb, _) = Tablebases::load(table_dir().to_str().expect("utf-8"));
    let mut pos = Position::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1").expect("fen");
    let mut history = Vec::new();
    let play = |pos: &mut Position, history: &mut Vec<u64>, uci: &str| {
        let mv = *legal_moves(pos).iter().find(|m| m.to_uci() == uci).expect("legal");
        history.push(pos.key());
        *pos = pos.make_move(mv);
    };
    let rank_of = |ranked: &[arbiter::syzygy::RankedMove], uci: &str| {
        *ranked.iter().find(|r| r.mv.to_uci() == uci).expect("ranked")
    };
    for round in 0..2 {
        for m in ["a1a2", "e5e6", "a2a1", "e6e5"] {
            play(&mut pos, &mut history, m);
        }
        let ranked = arbiter::syzygy::rank_moves(&tb, &pos, &history, true).expect("in the tables");
        let ka2 = rank_of(&ranked, "a1a2");
        let best = ranked[0];
        assert_eq!(best.wdl, Wdl::Win);
        assert_ne!(best.mv.to_uci(), "a1a2");
        if round == 0 {
            assert_eq!(ka2.wdl, Wdl::Win, "a second occurrence is still a win");
            assert!(ka2.rank < best.rank, "but it ranks after the wins that repeat nothing");
        } else {
            assert_eq!((ka2.dtz, ka2.wdl), (0, Wdl::Draw), "a third occurrence is a draw");
        }
    }
}

/// A header damaged so that its table loads and probes without error but gives wrong
/// values (byte 52 of KQvKR.rtbw inverted: in the code table of its first value store;
/// the header ends at byte 2,234): the root check finds it at a root the tables misjudge,
/// says so once before the best move, and the KQvKR tables are not used again (`d` says
/// so); the engine plays on.
#[test]
fn a_table_that_contradicts_itself_is_reported_and_not_used() {
    let dir = scratch("contradicts");
    let kept = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    for f in std::fs::read_dir(&kept).expect("tables").filter_map(|e| e.ok()) {
        std::fs::copy(f.path(), dir.join(f.file_name())).expect("copy");
    }
    let mut wdl = kept_table("KQvKR.rtbw");
    assert_eq!(wdl[52], 0x70, "KQvKR.rtbw is not the file this test knows");
    wdl[52] ^= 0xFF;
    std::fs::write(dir.join("KQvKR.rtbw"), &wdl).expect("write");
    let fen = "1Q6/7k/2r5/8/2K5/8/8/8 w - - 0 1";
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    let lines = load_lines(&mut e, &dir.display().to_string());
    assert!(lines.iter().any(|l| l.contains("found 10 WDL and 10 DTZ tables")), "loads: {lines:#?}");

    let (_, infos) = search(&mut e, fen, "go depth 6");
    let said: Vec<&String> = infos.iter().filter(|l| l.contains("contradict")).collect();
    assert_eq!(said.len(), 1, "{infos:#?}");
    assert!(
        said[0].starts_with("info string Syzygy: the KQvKR tables contradict themselves")
            && said[0].contains(&dir.join("KQvKR.rtbw").display().to_string())
            && said[0].ends_with("are damaged and no longer used"),
        "{}",
        said[0]
    );
    e.send("d");
    let value = e.wait_for("the tables' value", WAIT, |l| l.starts_with("Tablebase (Syzygy"));
    assert!(value.contains("unknown") && value.contains("KQvKR.rtbw is damaged"), "{value}");
    let (_, infos) = search(&mut e, "8/8/8/4k3/8/8/1r6/KQ6 w - - 0 1", "go depth 6");
    assert!(infos.iter().all(|l| !l.contains("contradict") && !l.contains("damaged")), "said twice: {infos:#?}");
    e.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `SyzygyPath` messages: directory entries are trimmed; a directory listed twice is read
/// once and said once (not once per file); a DTZ file without its WDL file is named as
/// unusable and not counted; setting the path empty says the tables were dropped.
#[test]
fn load_messages_say_what_happened_once() {
    let dir = scratch("messages");
    for f in ["KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbz"] {
        std::fs::write(dir.join(f), kept_table(f)).expect("write");
    }
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    let d = dir.display();
    let lines = load_lines(&mut e, &format!("  {d} :{d}  : {d}/"));
    let text = lines.join("\n");
    assert_eq!(lines.iter().filter(|l| l.contains("listed more than once")).count(), 2, "{text}");
    assert!(lines.iter().all(|l| !l.contains("found first")), "{text}");
    let krk = dir.join("KRvK.rtbz");
    assert!(
        lines.iter().any(|l| l.contains(&format!("'{}' is unusable without its WDL file", krk.display()))),
        "{text}"
    );
    assert!(text.contains("found 1 WDL and 1 DTZ tables (3-piece: 1)"), "{text}");
    assert_eq!(lines.len(), 4, "{text}");
    for empty in ["<empty>", ""] {
        e.send(&format!("setoption name SyzygyPath value {empty}"));
        let said = e.wait_for("the drop", WAIT, |l| l.starts_with("info string Syzygy: SyzygyPath is empty"));
        if empty == "<empty>" {
            assert!(said.contains("dropped"), "{said}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file whose size is not the one its header lays out is refused when it is found, by
/// name: here a KQvK.rtbw padded with zeros to 1 GiB (sparse: no disk space).
#[test]
fn a_padded_table_is_refused() {
    let dir = scratch("padded");
    let path = dir.join("KQvK.rtbw");
    std::fs::write(&path, kept_table("KQvK.rtbw")).expect("write");
    std::fs::OpenOptions::new().write(true).open(&path).and_then(|f| f.set_len((1 << 30) + 16)).expect("pad");
    let (tb, report) = Tablebases::load(dir.to_str().expect("utf-8"));
    assert!(tb.is_empty());
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    let line = &report.problems[0];
    assert!(
        line.contains(&format!("skipped '{}'", path.display()))
            && line.contains("the header describes 272 bytes, the file has 1073741840"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// While a table of GBs is read for the first time, the command thread answers at once:
/// `isready` and `stop` are honoured, and resident memory stays far below the table's
/// size (it is read by page, not whole). The table: KQvK whose Black-to-move store is
/// told to have 2^24 blocks of 64 bytes (1 GiB; sparse, so no disk space), its file
/// made the size the header then lays out (as the engine's refusal of the short file says).
#[test]
fn a_huge_table_keeps_the_engine_responsive() {
    let dir = scratch("huge");
    let path = dir.join("KQvK.rtbw");
    let mut wdl = kept_table("KQvK.rtbw");
    // The second value store's header starts at byte 12 (after the single-valued first
    // one): flags, block size, index bits, padding, then the number of blocks.
    assert_eq!((wdl[10], wdl[12], wdl[13]), (0x80, 0x00, 6), "KQvK.rtbw is not the file this test knows");
    wdl[16..20].copy_from_slice(&(1u32 << 24).to_le_bytes());
    std::fs::write(&path, &wdl).expect("write");
    std::fs::write(dir.join("KQvK.rtbz"), kept_table("KQvK.rtbz")).expect("write");
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    let lines = load_lines(&mut e, &dir.display().to_string());
    let described = lines
        .iter()
        .find_map(|l| l.split("the header describes ").nth(1)?.split(' ').next()?.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no size in {lines:?}"));
    assert!(described > 1 << 30, "{described}");
    std::fs::OpenOptions::new().write(true).open(&path).and_then(|f| f.set_len(described)).expect("grow");
    let lines = load_lines(&mut e, &dir.display().to_string());
    assert!(lines.iter().any(|l| l.contains("found 1 WDL and 1 DTZ tables")), "{lines:?}");
    e.send("isready");
    e.wait_for("readyok", WAIT, |l| l == "readyok");

    // Black to move: the root ranking and the search probe the huge store.
    e.send("position fen 8/8/8/4k3/8/8/8/KQ6 b - - 0 1");
    e.send("go infinite");
    let asked = std::time::Instant::now();
    e.send("isready");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    let ready = asked.elapsed();
    let asked = std::time::Instant::now();
    e.send("stop");
    e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
    let stopped = asked.elapsed();
    // Generous margins for a loaded 2-core machine: reading the file whole took seconds.
    assert!(ready < Duration::from_millis(1500), "isready answered after {ready:?}");
    assert!(stopped < Duration::from_millis(3000), "stop honoured after {stopped:?}");
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id())).expect("status");
        let peak_kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .expect("VmHWM");
        assert!(peak_kb < 512 * 1024, "peak resident memory {peak_kb} kB with a 1 GiB table");
    }
    e.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reading the directories `SyzygyPath` names is not done on the command thread (here
/// 3,200 table files in 400 directories, every header read): `isready` sent with it is
/// answered before the load says what it found; `go` sent with it searches with the new
/// tables (the search waits for them; what the load found comes before its first `info`);
/// `stop` sent with it ends a search that waits for a load at once.
#[test]
fn loading_tables_keeps_the_command_thread_free() {
    let root = scratch("many");
    let small = ["KQvK", "KRvK", "KBvK", "KNvK"];
    let dirs: Vec<String> = (0..400)
        .map(|i| {
            let d = root.join(format!("d{i}"));
            std::fs::create_dir_all(&d).expect("directory");
            for t in small {
                for ext in ["rtbw", "rtbz"] {
                    let f = format!("{t}.{ext}");
                    std::fs::write(d.join(&f), kept_table(&f)).expect("write");
                }
            }
            d.display().to_string()
        })
        .collect();
    let path = dirs.join(if cfg!(windows) { ";" } else { ":" });
    let setoption = format!("setoption name SyzygyPath value {path}");
    let is_found = |l: &str| l.starts_with("info string Syzygy: found");
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");

    let before = e.seen.len();
    let asked = std::time::Instant::now();
    e.send(&format!("{setoption}\nisready"));
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    let ready = asked.elapsed();
    assert!(!e.seen[before..].iter().any(|l| is_found(l)), "readyok only after the load, {ready:?}");
    assert!(ready < Duration::from_millis(1000), "isready answered after {ready:?}");
    let found = e.wait_for("the load report", WAIT, is_found);
    assert!(found.contains("found 4 WDL and 4 DTZ tables (3-piece: 4)"), "{found}");

    let before = e.seen.len();
    e.send(&format!("{setoption}\nposition fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1\ngo depth 3"));
    e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
    let seen = &e.seen[before..];
    let first_info = seen.iter().position(|l| l.starts_with("info depth"));
    assert!(seen.iter().position(|l| is_found(l)) < first_info, "{seen:#?}");
    assert!(seen.iter().any(|l| l.starts_with("info depth") && l.contains(" tbhits ")), "{seen:#?}");

    e.send(&format!("{setoption}\nposition fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1\ngo infinite\nstop"));
    let asked = std::time::Instant::now();
    e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
    let stopped = asked.elapsed();
    assert!(stopped < Duration::from_millis(1000), "stop honoured after {stopped:?}");
    e.wait_for("the load report", WAIT, is_found);
    e.send("quit");
    let _ = std::fs::remove_dir_all(&root);
}

/// What damage to a header goes undetected without checksums (by hand:
/// `ARBITER_SYZYGY_DIR=DIR cargo test --release --test it syzygy::header_damage_census --
/// --ignored --nocapture`, DIR a directory with all 3-4-piece tables; default: the tables
/// the other tests use): each of the first 1,024 bytes of KQvK.rtbw, KQvKR.rtbw and
/// KPvKP.rtbw inverted in turn, the table loaded among the intact others and probed on
/// 2,000 random positions. Counted: offsets refused when loaded, found damaged by a probe,
/// harmless (every value right), and silently wrong; of the last, those the root check
/// (`rank_moves` at a position whose value is wrong) catches, and where the bytes left
/// are: in the header or in the compressed values (sparse index, block lengths, blocks).
#[test]
#[ignore]
fn header_damage_census() {
    arbiter::chess::attacks::init();
    let source = std::env::var("ARBITER_SYZYGY_DIR").map(PathBuf::from).unwrap_or_else(|_| table_dir());
    let dir = scratch("census");
    for f in std::fs::read_dir(&source).expect("tables").filter_map(|e| e.ok()) {
        std::fs::copy(f.path(), dir.join(f.file_name())).expect("copy");
    }
    let path = dir.to_str().expect("utf-8").to_string();
    for name in ["KQvK", "KQvKR", "KPvKP"] {
        let file = dir.join(format!("{name}.rtbw"));
        let Ok(good) = std::fs::read(&file) else {
            eprintln!("{name}.rtbw: not in {}", source.display());
            continue;
        };
        let material = Material::parse_name(name).expect("name");
        let mut rng = Rng::new(0xC3_5005);
        let positions: Vec<Position> =
            std::iter::repeat_with(|| random_position(&mut rng, material)).flatten().take(2000).collect();
        let (tb, _) = Tablebases::load(&path);
        let truth: Vec<Option<Wdl>> = positions.iter().map(|p| tb.probe_wdl(p).ok()).collect();
        let parts = tb.file_parts(material, false).expect("the intact table loads");
        let part_of = |at: u64| match parts.iter().filter(|&&p| p <= at).count() {
            0 => "header",
            1 => "sparse index",
            2 => "block lengths",
            _ => "blocks",
        };
        let (mut refused, mut probe_errors, mut harmless, mut wrong, mut caught) = (0, 0, 0, 0, 0);
        let mut wrong_in_header = 0;
        let mut silent = Vec::new();
        let tried = good.len().saturating_sub(16).min(1024);
        for at in 0..tried {
            let mut bytes = good.clone();
            bytes[at] ^= 0xFF;
            std::fs::write(&file, &bytes).expect("write");
            let (tb, report) = Tablebases::load(&path);
            if !report.problems.is_empty() {
                refused += 1;
                continue;
            }
            let got: Vec<Result<Wdl, ProbeError>> = positions.iter().map(|p| tb.probe_wdl(p)).collect();
            if got.iter().any(|g| matches!(g, Err(ProbeError::Damaged { .. }))) {
                probe_errors += 1;
                continue;
            }
            let bad: Vec<&Position> = positions
                .iter()
                .zip(&got)
                .zip(&truth)
                .filter(|((_, g), t)| g.as_ref().ok() != t.as_ref())
                .map(|((p, _), _)| p)
                .collect();
            if bad.is_empty() {
                harmless += 1;
                continue;
            }
            wrong += 1;
            wrong_in_header += (part_of(at as u64) == "header") as usize;
            let history = Vec::new();
            if bad.iter().any(|p| {
                matches!(arbiter::syzygy::rank_moves(&tb, p, &history, true), Err(ProbeError::Inconsistent { .. }))
            }) {
                caught += 1;
            } else {
                silent.push(format!("{at} ({})", part_of(at as u64)));
            }
        }
        std::fs::write(&file, &good).expect("restore");
        eprintln!(
            "{name}.rtbw ({} bytes; sparse index, block lengths, blocks from {parts:?}): {tried} offsets: {refused} \
             refused at load, {probe_errors} found by a probe, {harmless} harmless, {wrong} silently wrong \
             ({wrong_in_header} of them in the header; {caught} caught by the root check; left: {})",
            good.len(),
            silent.join(", ")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `explain --syzygy DIRS --json` without a move prints one JSON object (python's
/// `json.loads` reads the whole output) whose `tablebase` field has the value, the DTZ,
/// the fifty-move-aware result and every root move; `--lang zh` words the lines in Chinese.
#[test]
fn explain_json_is_one_object_with_the_tables_value() {
    let dir = table_dir().display().to_string();
    let fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";
    let (code, out, err) = crate::common::explain_cli(&["--fen", fen, "--syzygy", &dir, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().lines().count(), 1, "{out}");
    if crate::common::have_python() {
        let script = "import json,sys; o=json.loads(sys.stdin.read()); t=o['tablebase']; \
                      assert t['status']=='known' and t['value']=='win' and t['dtz']>0 and t['result']=='win', t; \
                      assert all(set(m)>={'move','san','value','dtz','best'} for m in t['moves']), t; \
                      assert any(m['best'] for m in t['moves']) and len(t['moves'])>10, t; print('ok')";
        let o = crate::common::python_with_input(&["-c", script], &out).expect("python3");
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "ok", "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert!(out.contains("\"cursed_win\"") || out.contains("\"value\":\"win\""), "{out}");
    let (code, out, err) = crate::common::explain_cli(&["--fen", fen, "--syzygy", &dir, "--lang", "zh"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("残局库（Syzygy") && out.contains("白方走棋：胜"), "{out}");
    assert!(!out.contains("Tablebase (Syzygy"), "{out}");
}
