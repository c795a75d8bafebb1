//! The in-process engine API (as the self-play tool uses it): mates, draws, limits,
//! options, MultiPV, threads.

use arbiter::chess::notation::parse_uci_move;
use arbiter::chess::Position;
use arbiter::engine::{
    Engine, EngineOptions, Limits, OptionError, Score, SearchControl, SearchEvent, SearchInfo, SearchRequest,
    SearchResult,
};
use std::sync::Arc;
use std::time::Duration;

fn search_with(engine: &mut Engine, fen: &str, moves: &[&str], limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
    arbiter::chess::attacks::init();
    let mut pos = Position::from_fen(fen).expect("fen");
    let mut history = Vec::new();
    for m in moves {
        let mv = parse_uci_move(&pos, m).expect("move");
        history.push(pos.key());
        pos = pos.make_move(mv);
    }
    let mut infos = Vec::new();
    let control = Arc::new(SearchControl::for_limits(&limits));
    let request = SearchRequest { position: pos, history, limits };
    let r = engine.search(request, &control, &mut |e| {
        if let SearchEvent::Info(i) = e {
            infos.push(i.clone())
        }
    });
    if let Some(b) = r.best {
        assert!(parse_uci_move(&pos, &b.to_string()).is_ok(), "illegal best move {b}");
    }
    (r, infos)
}

fn search(fen: &str, depth: u32) -> SearchResult {
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    search_with(&mut e, fen, &[], Limits { depth: Some(depth), ..Limits::default() }).0
}

#[test]
fn finds_mates_in_one_two_and_three() {
    // Back-rank mate in 1.
    let r = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4);
    assert_eq!((r.best.map(|m| m.to_string()), r.score), (Some("d1d8".into()), Score::Mate(1)));
    // Mate in 2: 1.Qd8+ Bxd8 2.Re8#.
    let r = search("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 8);
    assert_eq!((r.best.map(|m| m.to_string()), r.score), (Some("d5d8".into()), Score::Mate(2)));
    // K+Q v K mate in 3 or less from a simple position.
    let r = search("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", 10);
    assert!(matches!(r.score, Score::Mate(n) if n <= 3), "{:?}", r.score);
    // Being mated: the defender reports a negative mate.
    let r = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", 6);
    assert!(matches!(r.score, Score::Cp(_)) || matches!(r.score, Score::Mate(n) if n < 0));
}

#[test]
fn no_legal_move_at_the_root() {
    let r = search("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!((r.best, r.score, r.depth), (None, Score::Mate(0), 0));
    let r = search("k7/8/1Q6/8/8/8/8/7K b - - 0 1", 5);
    assert_eq!((r.best, r.score), (None, Score::Cp(0)));
}

#[test]
fn draws_by_rule_score_zero() {
    // Insufficient material.
    assert_eq!(search("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", 8).score, Score::Cp(0));
    assert_eq!(search("8/8/4k3/8/2b5/3BK3/8/8 w - - 0 1", 8).score, Score::Cp(0));
    // Fifty-move rule: a queen up but every move reaches halfmove clock 100.
    assert_eq!(search("7k/8/8/8/8/8/8/KQ6 w - - 99 80", 6).score, Score::Cp(0));
    // ... but a mate on the 100th half-move stands.
    assert_eq!(search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80", 6).score, Score::Mate(1));
}

#[test]
fn repetition_steers_the_search() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/8/4K1N1 w kq - 0 1";
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    // White, hopelessly behind, repeats for the third time (a draw).
    let dance = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let (r, _) = search_with(&mut e, fen, &dance.repeat(2), Limits { depth: Some(6), ..Limits::default() });
    assert_eq!(r.best.map(|m| m.to_string()), Some("g1f3".into()));
    assert_eq!(r.score, Score::Cp(0));
    // Black, far ahead, avoids repeating.
    let (r, _) = search_with(
        &mut e,
        fen,
        &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"],
        Limits { depth: Some(6), ..Limits::default() },
    );
    assert_ne!(r.best.map(|m| m.to_string()), Some("f6g8".into()));
    assert!(matches!(r.score, Score::Cp(c) if c > 500) || matches!(r.score, Score::Mate(n) if n > 0));
}

#[test]
fn a_second_occurrence_before_the_root_is_not_a_draw() {
    // Black to move in C; then ...Kg8 Qd2 Kh8, and White (a queen up) may go back to C
    // with Qd1: only its second occurrence, so not a draw; after a third it is one.
    let c = "7k/8/8/8/8/8/8/3Q2K1 b - - 0 1";
    let back = Limits { depth: Some(3), searchmoves: Vec::new(), ..Limits::default() };
    let only_qd1 = |moves: &[&str]| {
        let mut pos = Position::from_fen(c).expect("fen");
        for m in moves {
            pos = pos.make_move(parse_uci_move(&pos, m).expect("move"));
        }
        vec![parse_uci_move(&pos, "d2d1").expect("Qd1")]
    };
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    let once = ["h8g8", "d1d2", "g8h8"];
    let limits = Limits { searchmoves: only_qd1(&once), ..back.clone() };
    let (r, _) = search_with(&mut e, c, &once, limits);
    assert!(
        matches!(r.score, Score::Cp(cp) if cp > 500) || matches!(r.score, Score::Mate(n) if n > 0),
        "{:?}",
        r.score
    );
    let twice = ["h8g8", "d1d2", "g8h8", "d2d1", "h8g8", "d1d2", "g8h8"];
    let limits = Limits { searchmoves: only_qd1(&twice), ..back };
    let (r, _) = search_with(&mut e, c, &twice, limits);
    assert_eq!(r.score, Score::Cp(0), "third occurrence of C");
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    e.set_option("MultiPV", Some("3")).expect("multipv");
    let (r, infos) =
        search_with(&mut e, arbiter::chess::STARTPOS_FEN, &[], Limits { depth: Some(6), ..Limits::default() });
    let last: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == 6).collect();
    assert_eq!(last.len(), 3);
    let firsts: std::collections::HashSet<_> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts.len(), 3);
    assert_eq!(Some(last[0].pv[0]), r.best);
}

#[test]
fn node_and_time_limits_are_respected() {
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    let (r, _) =
        search_with(&mut e, arbiter::chess::STARTPOS_FEN, &[], Limits { nodes: Some(20_000), ..Limits::default() });
    assert!(r.best.is_some());
    assert!(r.nodes < 40_000, "{}", r.nodes);
    let limits = Limits { movetime: Some(Duration::from_millis(200)), ..Limits::default() };
    let (r, _) = search_with(&mut e, arbiter::chess::STARTPOS_FEN, &[], limits);
    assert!(r.time < Duration::from_millis(1500), "{:?}", r.time);
    // A tiny clock still gives a move, quickly.
    let limits = Limits { wtime: Some(Duration::from_millis(50)), ..Limits::default() };
    let (r, _) = search_with(&mut e, arbiter::chess::STARTPOS_FEN, &[], limits);
    assert!(r.best.is_some() && r.time < Duration::from_millis(1000), "{:?}", r.time);
}

/// A soft node limit ends the search between iterations: its result is that of a search to
/// the depth it completed (the same move, score and nodes), its nodes at least the soft limit
/// and below the hard one; a hard limit below the soft one still stops it inside an iteration.
#[test]
fn a_soft_node_limit_finishes_the_iteration() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    for soft in [3_000, 20_000] {
        let mut e = Engine::new(EngineOptions::default()).expect("engine");
        let limits = Limits { soft_nodes: Some(soft), nodes: Some(10_000_000), ..Limits::default() };
        let (r, _) = search_with(&mut e, fen, &[], limits);
        assert!(r.nodes >= soft && r.nodes < 10_000_000, "soft {soft}: {} nodes", r.nodes);
        let mut fresh = Engine::new(EngineOptions::default()).expect("engine");
        let (d, _) = search_with(&mut fresh, fen, &[], Limits { depth: Some(r.depth), ..Limits::default() });
        assert_eq!((r.best, r.score, r.nodes), (d.best, d.score, d.nodes), "soft {soft}: depth {}", r.depth);
    }
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    let limits = Limits { soft_nodes: Some(1_000_000), nodes: Some(5_000), ..Limits::default() };
    let (r, _) = search_with(&mut e, fen, &[], limits);
    assert!(r.best.is_some() && r.nodes < 10_000, "{} nodes", r.nodes);
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    let pos = Position::startpos();
    let a3 = parse_uci_move(&pos, "a2a3").expect("a3");
    let limits = Limits { depth: Some(5), searchmoves: vec![a3], ..Limits::default() };
    let (r, _) = search_with(&mut e, arbiter::chess::STARTPOS_FEN, &[], limits);
    assert_eq!(r.best, Some(a3));
}

#[test]
fn options_are_checked_and_keep_their_value_on_error() {
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    assert!(matches!(e.set_option("Hash", Some("0")), Err(OptionError::OutOfRange { .. })));
    assert!(matches!(e.set_option("Threads", Some("x")), Err(OptionError::NotAnInteger { .. })));
    assert!(matches!(e.set_option("Bogus", Some("1")), Err(OptionError::Unknown(_))));
    assert_eq!(e.options().hash_mb, 16);
    e.set_option("hash", Some("32")).expect("hash");
    assert_eq!(e.options().hash_mb, 32);
    e.set_option("move overhead", Some("100")).expect("overhead");
    assert_eq!(e.options().move_overhead, Duration::from_millis(100));
    e.set_option("Clear Hash", None).expect("clear");
    e.set_option("Ponder", Some("true")).expect("ponder");
    assert!(e.options().ponder);
}

#[test]
fn lazy_smp_with_two_threads_and_external_stop() {
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    e.set_option("Threads", Some("2")).expect("threads");
    let limits = Limits { infinite: true, ..Limits::default() };
    let control = Arc::new(SearchControl::for_limits(&limits));
    let c2 = Arc::clone(&control);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c2.stop();
    });
    let request = SearchRequest { position: Position::startpos(), history: Vec::new(), limits };
    let r = e.search(request, &control, &mut |_| {});
    stopper.join().expect("stopper");
    assert!(r.best.is_some());
    assert!(r.depth >= 3, "{}", r.depth);
}

#[test]
fn start_returns_at_once_then_reports_currmove_and_the_best_move_last() {
    arbiter::chess::attacks::init();
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    let limits = Limits { infinite: true, ..Limits::default() };
    let control = Arc::new(SearchControl::for_limits(&limits));
    let (tx, rx) = std::sync::mpsc::channel();
    let started = std::time::Instant::now();
    let request = SearchRequest { position: Position::startpos(), history: Vec::new(), limits };
    e.start(request, Arc::clone(&control), Box::new(move |ev| drop(tx.send(ev.clone()))));
    assert!(e.is_searching(), "an infinite search runs until stopped");
    // Long searches name the root move being searched, after their first second.
    let mut events = Vec::new();
    loop {
        let ev = rx.recv_timeout(Duration::from_secs(60)).expect("no currmove within 60 s");
        let done = matches!(ev, SearchEvent::CurrMove { .. });
        events.push(ev);
        if done {
            break;
        }
    }
    assert!(started.elapsed() >= Duration::from_secs(1));
    control.stop();
    e.wait();
    assert!(!e.is_searching());
    events.extend(rx.try_iter());
    let Some(SearchEvent::BestMove(r)) = events.last() else { panic!("the last event is not the best move") };
    assert_eq!(events.iter().filter(|ev| matches!(ev, SearchEvent::BestMove(_))).count(), 1);
    let infos: Vec<&SearchInfo> =
        events.iter().filter_map(|ev| if let SearchEvent::Info(i) = ev { Some(i) } else { None }).collect();
    assert_eq!(infos.last().map(|i| i.pv[0]), r.best, "bestmove is the first move of the last PV");
    for i in infos {
        assert!(i.seldepth >= i.depth, "seldepth {} below depth {}", i.seldepth, i.depth);
    }
    for ev in &events {
        if let SearchEvent::CurrMove { depth, number, .. } = ev {
            assert!(*depth >= 1 && *number >= 1 && *number <= 20, "{ev:?}");
        }
    }
}

#[test]
fn threads_persist_and_resize_between_searches() {
    let mut e = Engine::new(EngineOptions::default()).expect("engine");
    for threads in ["2", "1", "3", "2"] {
        e.set_option("Threads", Some(threads)).expect("threads");
        let (r, infos) =
            search_with(&mut e, arbiter::chess::STARTPOS_FEN, &[], Limits { depth: Some(7), ..Limits::default() });
        assert!(r.depth >= 7 && r.best.is_some(), "{threads} threads: {r:?}");
        assert!(infos.iter().all(|i| i.seldepth >= i.depth));
        // Whichever thread's line is chosen, it is the last one reported.
        assert_eq!(infos.last().map(|i| i.pv[0]), r.best, "{threads} threads");
        // A node limit counts every thread's nodes.
        let (r, _) =
            search_with(&mut e, arbiter::chess::STARTPOS_FEN, &[], Limits { nodes: Some(50_000), ..Limits::default() });
        assert!(r.best.is_some() && r.nodes < 150_000, "{threads} threads: {} nodes", r.nodes);
        e.new_game();
    }
}
