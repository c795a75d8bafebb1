//! The engine converts the basic mates against a bare king at a few hundred nodes a move,
//! with the built-in network and with the hand-crafted evaluation: self-play data hardly
//! holds these endings, so this is the rule `engine::endgame` gives the search.

use arbiter::chess::{legal_moves, Position};
use arbiter::engine::{Engine, EngineOptions, Limits, SearchControl, SearchRequest};
use std::sync::Arc;

/// Plays `fen` out, the engine on both sides at `nodes` a move; the result: the number of
/// moves to checkmate, or why the game ended otherwise.
fn play_out(eval_file: &str, fen: &str, nodes: u64) -> Result<usize, String> {
    arbiter::chess::attacks::init();
    let opts = EngineOptions { hash_mb: 4, eval_file: eval_file.to_string(), ..EngineOptions::default() };
    let mut engine = Engine::new(opts).map_err(|e| e.to_string())?;
    engine.new_game();
    let mut pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
    let mut history: Vec<u64> = Vec::new();
    for ply in 0..300usize {
        if legal_moves(&pos).is_empty() {
            return if pos.in_check() { Ok(ply.div_ceil(2)) } else { Err(format!("stalemate: {}", pos.to_fen())) };
        }
        if pos.halfmove_clock() >= 100 {
            return Err(format!("fifty moves: {}", pos.to_fen()));
        }
        if history.iter().filter(|&&k| k == pos.key()).count() >= 2 {
            return Err(format!("threefold repetition: {}", pos.to_fen()));
        }
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        let request = SearchRequest { position: pos, history: history.clone(), limits };
        let r = engine.search(request, &Arc::new(SearchControl::new()), &mut |_| {});
        let mv = r.best.ok_or_else(|| format!("no move in {}", pos.to_fen()))?;
        history.push(pos.key());
        pos = pos.make_move(mv);
    }
    Err("300 plies".into())
}

/// Start positions and the nodes a move each is played at. Bishop and knight is the hardest
/// (up to 33 moves with best play, only in the bishop's corners) and gets more.
const MATES: [(&str, u64); 6] = [
    ("8/8/4k3/8/8/3QK3/8/8 w - - 0 1", 800),
    ("8/8/8/3k4/8/8/8/R3K3 w - - 0 1", 800),
    ("8/8/8/4K3/8/8/3r4/6k1 b - - 0 1", 800),
    ("8/2k5/8/8/4K3/8/8/2BB4 w - - 0 1", 800),
    ("8/8/8/4k3/8/8/2PPP3/4K3 w - - 0 1", 800),
    ("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1", 3000),
];

fn check_all(eval_file: &str) {
    let mut failures = Vec::new();
    for (fen, nodes) in MATES {
        match play_out(eval_file, fen, nodes) {
            Ok(moves) => eprintln!("{eval_file:?} {fen}: mate in {moves} at {nodes} nodes a move"),
            Err(why) => failures.push(format!("{fen} at {nodes} nodes a move: {why}")),
        }
    }
    assert!(failures.is_empty(), "EvalFile {eval_file:?}:\n{}", failures.join("\n"));
}

#[test]
fn mates_a_bare_king_with_the_built_in_network() {
    check_all("");
}

#[test]
fn mates_a_bare_king_with_the_hand_crafted_evaluation() {
    check_all("<none>");
}
