//! The neural evaluation through the binary: a network file set with `EvalFile` is what the
//! search and `eval` use (one thread or two), `bench --evalfile` is deterministic, and a bad
//! file is refused (scripted: uci-scripts/16_evalfile.txt).

use crate::common::rng::Rng;
use crate::common::{arbiter_cli, Engine};
use arbiter::chess::notation::parse_uci_move;
use arbiter::chess::Position;
use arbiter::engine::nnue::Network;
use std::path::PathBuf;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

/// A seeded random network with a trained one's weight ranges, written to a temporary file.
fn random_network_file(name: &str, seed: u64) -> (PathBuf, Network) {
    let mut r = Rng::new(seed);
    let mut range = |lo: i64, hi: i64| (lo + r.below_u64((hi - lo + 1) as u64) as i64) as i16;
    let mut net = Network::zeroed();
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
