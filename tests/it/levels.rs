//! Playing strength levels (`UCI_LimitStrength`, `UCI_Elo`) and win/draw/loss (`UCI_ShowWDL`)
//! as a GUI or the self-play tool sees them through the in-process engine API.

use arbiter::chess::notation::parse_uci_move;
use arbiter::chess::Position;
use arbiter::engine::strength::Level;
use arbiter::engine::{
    Engine, EngineOptions, Limits, SearchControl, SearchEvent, SearchInfo, SearchRequest, SearchResult,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn engine(options: &[(&str, &str)]) -> Engine {
    arbiter::chess::attacks::init();
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    for (k, v) in options {
        e.set_option(k, Some(v)).expect("option");
    }
    e
}

fn search(e: &mut Engine, fen: &str, limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
    let pos = Position::from_fen(fen).expect("fen");
    let control = Arc::new(SearchControl::for_limits(&limits));
    let mut infos = Vec::new();
    let r = e.search(SearchRequest { position: pos, history: Vec::new(), limits }, &control, &mut |ev| {
        if let SearchEvent::Info(i) = ev {
            infos.push(i.clone());
        }
    });
    let best = r.best.expect("a move");
    assert!(parse_uci_move(&pos, &best.to_string()).is_ok(), "illegal {best}");
    assert_eq!(infos.last().and_then(|i| i.pv.first()), Some(&best), "the best move is the last PV's first move");
    (r, infos)
}

/// White to move can take a loose queen (Rxd5) or play one of many quiet moves.
const HANGING_QUEEN: &str = "6k1/5ppp/8/3q4/8/8/5PPP/3R2K1 w - - 0 1";
/// White to move: Bxc6 wins a knight; the other moves keep the balance or lose material.
const LOOSE_KNIGHT: &str = "r1bqk2r/pppp1ppp/2n2n2/1B2p3/4P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1";

fn counts(elo: &str, fen: &str, runs: usize) -> std::collections::HashMap<String, usize> {
    let mut e = engine(&[("UCI_LimitStrength", "true"), ("UCI_Elo", elo)]);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..runs {
        e.new_game();
        let (r, _) = search(&mut e, fen, Limits { depth: Some(30), ..Limits::default() });
        *seen.entry(r.best.expect("move").to_string()).or_insert(0) += 1;
    }
    seen
}

#[test]
fn a_strong_level_never_drops_a_queen_a_weak_one_varies() {
    // 2400 and 2800 take the queen every time.
    for elo in ["2400", "2800"] {
        let seen = counts(elo, HANGING_QUEEN, 20);
        assert_eq!(seen.get("d1d5"), Some(&20), "UCI_Elo {elo}: {seen:?}");
    }
    // 1000 takes it more often than anything else, and does not always play the same move.
    let seen = counts("1000", LOOSE_KNIGHT, 40);
    assert!(seen.len() >= 3, "UCI_Elo 1000 plays varied moves: {seen:?}");
    // (Random: about half the time or less at 1000; the capture is still by far the most frequent move.)
    let seen = counts("1000", HANGING_QUEEN, 60);
    let takes = seen.get("d1d5").copied().unwrap_or(0);
    assert!(
        takes >= 10 && seen.iter().all(|(m, &n)| m == "d1d5" || n < takes),
        "UCI_Elo 1000 still sees a loose queen: {seen:?}"
    );
}

#[test]
fn levels_search_less_and_full_strength_is_unchanged() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let depth = Limits { depth: Some(9), ..Limits::default() };
    let (full, _) = search(&mut engine(&[]), fen, depth.clone());
    let (off, _) = search(&mut engine(&[("UCI_LimitStrength", "false"), ("UCI_Elo", "1000")]), fen, depth.clone());
    assert_eq!((full.best, full.nodes, full.score), (off.best, off.nodes, off.score), "the option off changes nothing");
    let mut prev = 0;
    let deep = Limits { depth: Some(30), ..Limits::default() };
    for elo in [1000, 1800, 2600] {
        let mut e = engine(&[("UCI_LimitStrength", "true"), ("UCI_Elo", &elo.to_string())]);
        let (r, infos) = search(&mut e, fen, deep.clone());
        let budget = Level::for_elo(elo).nodes;
        // (The first iteration always completes, whatever the budget.)
        assert!(r.nodes <= budget.max(2000) + 1, "{elo}: {} nodes for a budget of {budget}", r.nodes);
        assert!(r.nodes >= prev, "{elo}: stronger levels search more");
        assert!(infos.iter().all(|i| i.multipv == 1), "only the lines asked for are reported");
        prev = r.nodes;
    }
}

#[test]
fn levels_evaluate_by_hand_whatever_the_eval_file() {
    // The levels were calibrated with the hand-crafted evaluation: with the built-in network
    // as the default, a level's search is still the hand-crafted one, node for node.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let run = |options: &[(&str, &str)], limits: Limits| {
        let (r, infos) = search(&mut engine(options), fen, limits);
        // Each iteration's first report (the last one may show the level's noisy choice).
        let mut firsts: Vec<_> = infos.iter().map(|i| (i.depth, i.multipv, i.score)).collect();
        firsts.dedup_by_key(|l| (l.0, l.1));
        (r.nodes, firsts)
    };
    let deep = Limits { depth: Some(30), ..Limits::default() };
    let level = [("UCI_LimitStrength", "true"), ("UCI_Elo", "2400")];
    let by_hand = run(&[&[("EvalFile", "<none>")][..], &level[..]].concat(), deep.clone());
    assert_eq!(run(&level, deep), by_hand, "a level with the default EvalFile");
    // At full strength the default is the network: the same search is another tree.
    let depth = Limits { depth: Some(9), ..Limits::default() };
    assert_ne!(run(&[], depth.clone()).0, run(&[("EvalFile", "<none>")], depth).0, "the network at full strength");
}

#[test]
fn levels_think_like_people_not_instantly_and_not_the_whole_clock() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let clock =
        Limits { wtime: Some(Duration::from_secs(20)), btime: Some(Duration::from_secs(20)), ..Limits::default() };
    let mut e = engine(&[("UCI_LimitStrength", "true"), ("UCI_Elo", "1200")]);
    for _ in 0..3 {
        let t = Instant::now();
        search(&mut e, fen, clock.clone());
        let took = t.elapsed();
        // The normal budget here is 20 s / 30 moves ~ 0.67 s: a level waits for a share of it
        // (at least 100 ms); the upper bound is loose for loaded machines, far below the clock.
        assert!(took >= Duration::from_millis(100) && took <= Duration::from_secs(3), "{took:?}");
    }
    // A single legal reply comes quickly; without a clock there is no waiting at all.
    let t = Instant::now();
    search(&mut e, "k7/8/8/8/8/8/1q6/K7 w - - 0 1", clock.clone());
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let t = Instant::now();
    search(&mut e, fen, Limits { depth: Some(20), ..Limits::default() });
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn levels_need_no_threads_and_can_be_stopped() {
    let mut e = engine(&[("UCI_LimitStrength", "true"), ("UCI_Elo", "2000"), ("Threads", "2")]);
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let (a, _) = search(&mut e, fen, Limits { depth: Some(30), ..Limits::default() });
    assert!(a.nodes > 0);
    // A long clock, stopped early: the move comes at once.
    let pos = Position::from_fen(fen).unwrap();
    let limits =
        Limits { wtime: Some(Duration::from_secs(600)), btime: Some(Duration::from_secs(600)), ..Limits::default() };
    let control = Arc::new(SearchControl::for_limits(&limits));
    let stopper = Arc::clone(&control);
    let t = Instant::now();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        stopper.stop();
    });
    let r = e.search(SearchRequest { position: pos, history: Vec::new(), limits }, &control, &mut |_| {});
    assert!(r.best.is_some() && t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
}

#[test]
fn show_wdl_adds_an_outcome_to_every_info_line() {
    let depth = Limits { depth: Some(6), ..Limits::default() };
    let (_, infos) = search(&mut engine(&[]), HANGING_QUEEN, depth.clone());
    assert!(infos.iter().all(|i| i.wdl.is_none()));
    let mut e = engine(&[("UCI_ShowWDL", "true")]);
    let (_, infos) = search(&mut e, HANGING_QUEEN, depth.clone());
    assert!(infos.iter().all(|i| i.wdl.is_some_and(|w| w.win + w.draw + w.loss == 1000)));
    // Taking the queen leaves a rook up with pawns on both sides: in our self-play games
    // such positions were mostly won, a few drawn, almost never lost.
    let last = infos.last().and_then(|i| i.wdl).expect("wdl");
    assert!(last.win > 800 && last.loss < 20, "a rook up: {last:?}");
    // From the side to move's view: Black to move takes a loose queen.
    let (_, infos) = search(&mut e, "3r2k1/5ppp/8/3Q4/8/8/5PPP/6K1 b - - 0 1", depth);
    let w = infos.last().and_then(|i| i.wdl).expect("wdl");
    assert!(w.win > 800 && w.loss < 20, "{w:?}");
}
