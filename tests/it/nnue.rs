//! The neural evaluation through the binary: a network file set with `EvalFile` is what the
//! search and `eval` use (one thread or two), `bench --evalfile` is deterministic, and a bad
//! file is refused (scripted: uci-scripts/16_evalfile.txt). `make EVALFILE=` builds a network in
//! (the Makefile's command here; the build itself in an ignored test).

use crate::common::rng::Rng;
use crate::common::{arbiter_cli, Engine};
use arbiter::chess::notation::parse_uci_move;
use arbiter::chess::Position;
use arbiter::engine::nnue::{layout, InputLayout, Network};
use std::path::PathBuf;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

/// A seeded random network with a trained one's weight ranges, written to a temporary file.
fn random_network_file(name: &str, seed: u64) -> (PathBuf, Network) {
    random_network_file_with(name, seed, layout::FLAT)
}

/// [`random_network_file`] with this input layout.
fn random_network_file_with(name: &str, seed: u64, layout: InputLayout) -> (PathBuf, Network) {
    let mut r = Rng::new(seed);
    let mut range = |lo: i64, hi: i64| (lo + r.below_u64((hi - lo + 1) as u64) as i64) as i16;
    let mut net = Network::zeroed_with(layout);
    net.ft_weights.iter_mut().for_each(|w| *w = range(-30, 30));
    net.ft_bias.iter_mut().for_each(|w| *w = range(0, 100));
    net.out_weights.iter_mut().for_each(|w| *w = range(-127, 127));
    net.out_bias.iter_mut().for_each(|b| *b = i32::from(range(-10_000, 10_000)));
    let path = std::env::temp_dir().join(format!("arbiter-{name}-{}.nnue", std::process::id()));
    net.write(&path).expect("write the test network");
    (path, net)
}

/// Waits for `bestmove` and checks that it is legal in `pos`.
fn legal_bestmove(e: &mut Engine, pos: &Position) {
    let l = e.wait_for("bestmove", WAIT, |l| l.starts_with("bestmove"));
    let m = l.split_whitespace().nth(1).unwrap_or("");
    assert!(parse_uci_move(pos, m).is_ok(), "illegal bestmove '{l}' in {}", pos.to_fen());
}

#[test]
fn a_network_file_is_what_eval_and_the_search_use() {
    arbiter::chess::attacks::init();
    let (path, net) = random_network_file("uci", 0x5eed_0001);
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("eval");
    let line = e.wait_for("NNUE evaluation", WAIT, |l| l.starts_with("NNUE evaluation: "));
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5", "g1f3"] {
        pos = pos.make_move(parse_uci_move(&pos, m).expect("move"));
    }
    let stm = net.evaluate(&pos);
    assert!(line.contains(&format!("{stm} cp (side to move)")), "{line}, expected {stm}");
    assert!(line.contains(&format!("{} cp (White's view)", -stm)), "{line}");
    e.send("go depth 7");
    legal_bestmove(&mut e, &pos);
    // Two threads share the network.
    e.send("setoption name Threads value 2");
    e.send("go movetime 700");
    legal_bestmove(&mut e, &pos);
    e.send("go depth 8");
    legal_bestmove(&mut e, &pos);
    // Back to the hand-crafted evaluation.
    e.send("setoption name EvalFile value <none>");
    e.send("eval");
    e.wait_for("Final evaluation", WAIT, |l| l.starts_with("Final evaluation"));
    e.send("isready");
    e.wait_for("readyok", WAIT, |l| l == "readyok");
    assert!(!e.seen.iter().rev().take_while(|l| !l.starts_with("bestmove")).any(|l| l.starts_with("NNUE")));
    assert!(!e.seen.iter().any(|l| l.contains("error")), "{:?}", e.seen);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
    let _ = std::fs::remove_file(&path);
}

/// A network with king buckets through UCI: `eval` after king moves across the d/e file and
/// the buckets' ranks is the reference evaluation, and the search plays.
#[test]
fn a_king_bucket_network_file_is_what_eval_uses() {
    arbiter::chess::attacks::init();
    let (path, net) = random_network_file_with("uci-buckets", 0x5eed_0005, layout::MIRROR4);
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for("uciok", WAIT, |l| l == "uciok");
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    let moves = ["e2e4", "e7e5", "e1e2", "e8e7", "e2d3", "e7d6", "d3c3", "d6c6", "c3b3", "c6b6"];
    let mut pos = Position::startpos();
    for (i, m) in moves.iter().enumerate() {
        pos = pos.make_move(parse_uci_move(&pos, m).expect("move"));
        e.send(&format!("position startpos moves {}", moves[..=i].join(" ")));
        e.send("eval");
        let line = e.wait_for("NNUE evaluation", WAIT, |l| l.starts_with("NNUE evaluation: "));
        let stm = net.evaluate(&pos);
        assert!(line.contains(&format!("{stm} cp (side to move)")), "after {m}: {line}, expected {stm}");
    }
    e.send("go nodes 20000");
    legal_bestmove(&mut e, &pos);
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(10)));
    let _ = std::fs::remove_file(&path);
}

/// The built-in network is a version 2 file of the four-bucket mirrored layout, written back
/// byte for byte, with its evaluations pinned (a change to the features, the layout or the file format
/// shows here first). A version 1 file (N7 and before) still reads as the flat layout
/// (`every_layout_round_trips_as_its_version` in the library).
#[test]
fn the_built_in_network_reads_and_evaluates_as_trained() {
    arbiter::chess::attacks::init();
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/default.nnue");
    let bytes = std::fs::read(&file).expect("nets/default.nnue");
    assert_eq!(bytes[8..12], 2u32.to_le_bytes());
    let net = Network::from_bytes(&bytes).expect("nets/default.nnue reads");
    assert_eq!(net.layout, layout::MIRROR4);
    assert_eq!(net.to_bytes(), bytes);
    for (fen, cp) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 14),
        ("8/2k5/1p6/8/4P3/5N2/6K1/8 w - - 0 1", 164),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1", 63),
        // The same position mirrored a<->h (no castling rights): the same value.
        ("8/5k2/6p1/8/3P4/2N5/1K6/8 w - - 0 1", 164),
    ] {
        assert_eq!(net.evaluate(&Position::from_fen(fen).expect("fen")), cp, "{fen}");
    }
}

fn bench_nodes(args: &[&str]) -> u64 {
    let (code, out, err) = arbiter_cli(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out.lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in {out}"))
}

#[test]
fn bench_with_a_network_is_deterministic() {
    let (path, _) = random_network_file("bench", 0x5eed_0002);
    let file = path.to_string_lossy().to_string();
    let a = bench_nodes(&["bench", "6", "--evalfile", &file]);
    let b = bench_nodes(&["bench", "6", "--evalfile", &file]);
    let hand = bench_nodes(&["bench", "6", "--evalfile", "<none>"]);
    assert_eq!(a, b);
    assert_ne!(a, hand, "the network's search is the hand-crafted one's");
    let (code, out, err) = arbiter_cli(&["bench", "6", "--evalfile", "/nonexistent/x.nnue"]);
    assert_ne!(code, 0);
    assert!(out.is_empty() && err.contains("error: EvalFile /nonexistent/x.nnue"), "{out} {err}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_bad_file_keeps_the_previous_network() {
    use arbiter::engine::{EngineOptions, OptionError};
    let (path, net) = random_network_file("keep", 0x5eed_0003);
    let file = path.to_string_lossy().to_string();
    let mut engine =
        arbiter::engine::Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() }).expect("engine");
    // The default, `<embedded>`: a network exactly when the build embeds one.
    assert_eq!(engine.network().is_some(), arbiter::engine::nnue::source::EMBEDDED.is_some());
    engine.set_option("EvalFile", Some(&file)).expect("a valid network file");
    assert_eq!(engine.network().map(|n| n.network()), Some(&net));
    // A damaged copy: refused with the network error, the network and the option kept.
    let mut bytes = std::fs::read(&path).expect("read back");
    bytes[100] ^= 0x40;
    let bad = std::env::temp_dir().join(format!("arbiter-damaged-{}.nnue", std::process::id()));
    std::fs::write(&bad, &bytes).expect("write");
    let err = engine.set_option("EvalFile", Some(&bad.to_string_lossy())).expect_err("damaged file");
    assert!(matches!(&err, OptionError::EvalFile(e) if e.contains("checksum mismatch")), "{err}");
    assert_eq!(engine.network().map(|n| n.network()), Some(&net));
    assert_eq!(engine.options().eval_file, file);
    engine.set_option("EvalFile", Some("<none>")).expect("hand-crafted");
    assert!(engine.network().is_none());
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&bad);
}

/// The commands `make ARGS` would run in the package root (`make -n`).
fn make_dry_run(args: &[&str]) -> String {
    let out = std::process::Command::new("make")
        .arg("-n")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run make (.ci/setup installs it)");
    assert!(out.status.success(), "make -n {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn make_builds_the_network_evalfile_names_and_otherwise_the_committed_one() {
    let root = env!("CARGO_MANIFEST_DIR");
    // OpenBench's command for a test with a network: `make -j EXE=NAME EVALFILE=/abs/path`.
    let with = make_dry_run(&["EXE=arbiter-x", "EVALFILE=/nets/x.nnue"]);
    assert!(with.contains("ARBITER_EVALFILE=\"/nets/x.nnue\" cargo rustc --release"), "{with}");
    assert!(with.contains("--emit link=arbiter-x"), "{with}");
    // A relative path is made absolute: cargo runs the build script in the package root.
    let relative = make_dry_run(&["EXE=y", "EVALFILE=nets/x.nnue"]);
    assert!(relative.contains(&format!("ARBITER_EVALFILE=\"{root}/nets/x.nnue\"")), "{relative}");
    // Without EVALFILE the variable is set empty, so the environment cannot slip another one in.
    let without = make_dry_run(&["EXE=y"]);
    assert!(without.contains("ARBITER_EVALFILE=\"\" cargo rustc --release --bin arbiter --"), "{without}");
    let tune = make_dry_run(&["tune", "EXE=t", "EVALFILE=/n.nnue"]);
    assert!(tune.contains("ARBITER_EVALFILE=\"/n.nnue\" cargo rustc --release --bin arbiter --features tune"));
}

/// Builds the engine with `make EVALFILE=` (a full release build in its own target directory:
/// minutes, so run by hand: `cargo test --release --test it nnue:: -- --ignored evalfile`).
#[test]
#[ignore]
fn a_build_with_evalfile_benches_as_evalfile_set_on_the_default_build() {
    let (path, _) = random_network_file("evalfile", 0x5eed_0004);
    let file = path.to_string_lossy().to_string();
    let exe = std::env::temp_dir().join(format!("arbiter-evalfile-{}", std::process::id()));
    let target = std::env::temp_dir().join(format!("arbiter-evalfile-target-{}", std::process::id()));
    let status = std::process::Command::new("make")
        .arg(format!("EXE={}", exe.display()))
        .arg(format!("EVALFILE={file}"))
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run make");
    assert!(status.success(), "make EVALFILE={file} failed");
    let run = |bin: &std::path::Path, args: &[&str]| {
        let out = std::process::Command::new(bin).args(args).output().expect("run bench");
        assert!(out.status.success(), "{} {args:?}", bin.display());
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find_map(|l| l.strip_prefix("Nodes searched: "))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no node count in {text}"))
    };
    let default_bin = std::path::Path::new(env!("CARGO_BIN_EXE_arbiter"));
    let built_in = run(&exe, &["bench"]);
    assert_eq!(built_in, run(default_bin, &["bench", "--evalfile", &file]), "bench of the EVALFILE build");
    assert_ne!(built_in, run(default_bin, &["bench"]), "the EVALFILE build benches as the default one");
    // Its `<embedded>` is that network, and `<none>` still the hand-crafted evaluation.
    assert_eq!(
        run(&exe, &["bench", "6", "--evalfile", "<none>"]),
        run(default_bin, &["bench", "6", "--evalfile", "<none>"])
    );
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&exe);
    let _ = std::fs::remove_dir_all(&target);
}
