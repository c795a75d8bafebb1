//! Self-play: adjudication of every ending from constructed positions, misbehaving engines,
//! PGN checked by python-chess, statistics against known values, and bad command lines.

use arbiter::chess::{attacks, movegen, Color, Position};
use arbiter::data::openings;
use arbiter::data::records;
use arbiter::engine::{Limits, Score};
use arbiter::rng::Rng;
use arbiter::rules::{AutomaticDraw, DrawClaim, Outcome};
use arbiter::tools::selfplay::game::{play_game, Adjudication, EndReason, GameConfig, GameRecord, GameResult};
use arbiter::tools::selfplay::player::{EngineSpec, GoRequest, InProcess, Player, PlayerError, Reply, UciEngine};
use arbiter::tools::selfplay::runner::{run_match, MatchConfig, PlayerFactory};
use arbiter::tools::selfplay::stats::{self, Sprt, SprtDecision, SprtModel, Tally};
use arbiter::tools::selfplay::tc::{MoveLimit, TimeControl};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

/// A test player: plays `script[ply]` while the script lasts, then a random (seeded) or the
/// first legal move. Optionally reports a fixed score and sleeps before answering.
struct Scripted {
    name: String,
    script: Vec<&'static str>,
    rng: Option<Rng>,
    score: Option<Score>,
    delay: Duration,
}

impl Scripted {
    fn new(script: &[&'static str]) -> Scripted {
        Scripted { name: "Scripted".into(), script: script.to_vec(), rng: None, score: None, delay: Duration::ZERO }
    }
    fn random(seed: u64) -> Scripted {
        Scripted { name: format!("Random{seed}"), rng: Some(Rng::new(seed)), ..Scripted::new(&[]) }
    }
}

impl Player for Scripted {
    fn name(&self) -> &str {
        &self.name
    }
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }
    fn go(&mut self, req: &GoRequest) -> Result<Reply, PlayerError> {
        std::thread::sleep(self.delay);
        let ply = req.moves.len();
        let best = match self.script.get(ply) {
            Some(m) => m.to_string(),
            None => {
                let moves = movegen::legal_moves(req.position);
                let i = match self.rng.as_mut() {
                    Some(r) => (r.next_u64() % moves.len() as u64) as usize,
                    None => 0,
                };
                moves.get(i).to_string()
            }
        };
        let score = self.score.map(|s| if req.position.side_to_move() == Color::White { s } else { s.negate() });
        Ok(Reply { best, score, depth: Some(1), elapsed: self.delay })
    }
    fn restart(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }
}

fn pos(fen: &str) -> Position {
    attacks::init();
    Position::from_fen(fen).unwrap()
}

fn play(fen: &str, script: &[&'static str], cfg: &GameConfig) -> GameRecord {
    let start = pos(fen);
    let (mut w, mut b) = (Scripted::new(script), Scripted::new(script));
    play_game(&start, &mut w, &mut b, cfg)
}

fn no_claims() -> GameConfig {
    GameConfig { claim_draws: false, ..GameConfig::default() }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const SHUFFLE: [&str; 16] = [
    "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6",
    "f3g1", "f6g8",
];

#[test]
fn checkmate_ends_the_game() {
    let r = play("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &["a1a8"], &GameConfig::default());
    assert_eq!(
        (r.result, r.reason.clone()),
        (GameResult::WhiteWins, EndReason::OnTheBoard(Outcome::Checkmate { winner: Color::White }))
    );
    assert_eq!(r.moves.len(), 1);
    assert_eq!(r.moves[0].san, "Ra8#");
    assert_eq!(r.reason.termination_tag(), "normal");
}

#[test]
fn checkmate_beats_the_seventy_five_move_rule() {
    let r = play("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100", &["a1a8"], &no_claims());
    assert_eq!(r.reason, EndReason::OnTheBoard(Outcome::Checkmate { winner: Color::White }));
}

#[test]
fn stalemate_ends_the_game() {
    let r = play("7k/8/8/6Q1/8/8/8/6K1 w - - 0 1", &["g5g6"], &GameConfig::default());
    assert_eq!(
        (r.result, r.reason),
        (GameResult::Draw, EndReason::OnTheBoard(Outcome::Draw(AutomaticDraw::Stalemate)))
    );
}

#[test]
fn dead_position_ends_the_game() {
    let r = play("4k3/8/8/8/8/8/4n3/4K3 w - - 0 1", &["e1e2"], &GameConfig::default());
    assert_eq!(
        (r.result, r.reason),
        (GameResult::Draw, EndReason::OnTheBoard(Outcome::Draw(AutomaticDraw::DeadPosition)))
    );
}

#[test]
fn threefold_is_claimed_at_once() {
    let r = play(START, &SHUFFLE, &GameConfig::default());
    assert_eq!((r.result, r.reason), (GameResult::Draw, EndReason::Claimed(DrawClaim::ThreefoldRepetition)));
    assert_eq!(r.moves.len(), 8, "the third occurrence comes after 8 plies");
}

#[test]
fn fivefold_ends_the_game_without_claims() {
    let r = play(START, &SHUFFLE, &no_claims());
    assert_eq!(
        (r.result, r.reason),
        (GameResult::Draw, EndReason::OnTheBoard(Outcome::Draw(AutomaticDraw::FivefoldRepetition)))
    );
    assert_eq!(r.moves.len(), 16);
}

#[test]
fn fifty_moves_are_claimed_at_once() {
    let r = play("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", &["a1a2", "e8d8"], &GameConfig::default());
    assert_eq!((r.result, r.reason), (GameResult::Draw, EndReason::Claimed(DrawClaim::FiftyMoves)));
    assert_eq!(r.moves.len(), 1);
}

#[test]
fn seventy_five_moves_end_the_game_without_claims() {
    // Black keeps Ra1# in hand until the last half-move, so the position is never dead first
    // (5.2.2: with no mate left before the rule ends the game, it would be).
    let r = play("7k/3N4/8/8/8/8/r5PP/7K w - - 148 80", &["d7b8", "h8g8", "b8c6"], &no_claims());
    assert_eq!(
        (r.result, r.reason),
        (GameResult::Draw, EndReason::OnTheBoard(Outcome::Draw(AutomaticDraw::SeventyFiveMoves)))
    );
    assert_eq!(r.moves.len(), 2);
}

#[test]
fn illegal_move_loses() {
    let r = play(START, &["e2e5"], &GameConfig::default());
    assert_eq!(r.result, GameResult::BlackWins);
    assert!(matches!(r.reason, EndReason::IllegalMove { side: Color::White, .. }), "{:?}", r.reason);
    assert_eq!(r.reason.termination_tag(), "rules infraction");
    assert_eq!(r.restart, [true, false]);
}

fn flag_game(fen: &str) -> GameRecord {
    let cfg = GameConfig {
        limits: MoveLimit::Clock(TimeControl::parse("0.1+0").unwrap()),
        flag_grace: Duration::from_millis(50),
        ..GameConfig::default()
    };
    let start = pos(fen);
    let mut slow = Scripted::new(&[]);
    slow.delay = Duration::from_millis(300);
    let mut fast = Scripted::new(&[]);
    play_game(&start, &mut slow, &mut fast, &cfg)
}

#[test]
fn flag_fall_loses_when_the_opponent_can_mate() {
    let r = flag_game("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!((r.result, r.reason.clone()), (GameResult::BlackWins, EndReason::TimeForfeit(Color::White)));
    assert_eq!(r.reason.termination_tag(), "time forfeit");
}

#[test]
fn flag_fall_draws_when_the_opponent_cannot_mate() {
    // FIDE 6.9: Black has a bare king (and K+N v K+Q would be the same).
    let r = flag_game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert_eq!((r.result, r.reason), (GameResult::Draw, EndReason::TimeForfeitNoMate(Color::White)));
}

#[test]
fn score_adjudication() {
    let cfg = GameConfig {
        adjudication: Adjudication { resign: Some((3, 400)), draw: None },
        claim_draws: false,
        ..GameConfig::default()
    };
    let start = pos(START);
    let (mut w, mut b) = (Scripted::new(&SHUFFLE), Scripted::new(&SHUFFLE));
    w.score = Some(Score::Cp(500));
    b.score = Some(Score::Cp(450)); // from White's side: both agree White is winning
    let r = play_game(&start, &mut w, &mut b, &cfg);
    assert_eq!((r.result, r.reason.clone()), (GameResult::WhiteWins, EndReason::ResignAdjudication(Color::White)));
    assert_eq!(r.moves.len(), 6);

    let cfg = GameConfig {
        adjudication: Adjudication { resign: None, draw: Some((2, 10, 1)) },
        claim_draws: false,
        ..GameConfig::default()
    };
    let (mut w, mut b) = (Scripted::new(&SHUFFLE), Scripted::new(&SHUFFLE));
    w.score = Some(Score::Cp(5));
    b.score = Some(Score::Cp(-3));
    let r = play_game(&start, &mut w, &mut b, &cfg);
    assert_eq!((r.result, r.reason), (GameResult::Draw, EndReason::DrawAdjudication));
    assert_eq!(r.moves.len(), 4);
}

fn random_factory(seed: u64) -> PlayerFactory {
    let counter = Arc::new(std::sync::atomic::AtomicU64::new(seed));
    Arc::new(move || {
        let s = counter.fetch_add(1000, std::sync::atomic::Ordering::SeqCst);
        Ok(Box::new(Scripted::random(s)) as Box<dyn Player>)
    })
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-selfplay-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn match_config(a: PlayerFactory, b: PlayerFactory, games: usize) -> MatchConfig {
    MatchConfig {
        game: GameConfig { stall_timeout: Duration::from_secs(2), ..GameConfig::default() },
        openings: vec![pos(START)],
        games,
        repeat: true,
        concurrency: 1,
        sprt: None,
        pgn: None,
        datagen: None,
        datagen_skip: 8,
        records: None,
        event: "test".into(),
        time_control: "-".into(),
        progress: false,
        keep_records: true,
        a,
        b,
    }
}

fn fake_engine(mode: &'static str) -> PlayerFactory {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fake_uci.py");
    Arc::new(move || {
        let spec = EngineSpec {
            name: None,
            program: "python3".into(),
            args: vec![script.display().to_string(), mode.to_string()],
            options: vec![],
        };
        UciEngine::start(spec, Duration::from_secs(10)).map(|e| Box::new(e) as Box<dyn Player>)
    })
}

fn misbehaving(mode: &'static str) -> (Tally, [u64; 2], [u64; 2]) {
    let s = run_match(match_config(random_factory(1), fake_engine(mode), 4)).unwrap();
    assert_eq!(s.tally.games(), 4, "the match goes on after every forfeit");
    for (_, a_white, rec) in &s.records {
        let fake = if *a_white { Color::Black } else { Color::White };
        assert_eq!(rec.result, GameResult::win_for(fake.flip()), "{:?}", rec.reason);
        assert!(!rec.moves.is_empty(), "the fake engine plays one move before misbehaving");
    }
    (s.tally, s.incidents.illegal_moves, s.incidents.disconnects)
}

#[test]
fn crashing_engine_loses_and_is_restarted() {
    let (t, illegal, disc) = misbehaving("crash");
    assert_eq!((t.wins, t.losses), (4, 0));
    assert_eq!((illegal, disc), ([0, 0], [0, 4]));
}

#[test]
fn engine_sending_illegal_moves_loses() {
    let (t, illegal, disc) = misbehaving("illegal");
    assert_eq!(t.wins, 4);
    assert_eq!((illegal, disc), ([0, 4], [0, 0]));
    let (t, illegal, _) = misbehaving("garbage");
    assert_eq!((t.wins, illegal), (4, [0, 4]));
}

#[test]
fn stalled_engine_loses() {
    let (t, _, disc) = misbehaving("stall");
    assert_eq!((t.wins, disc), (4, [0, 4]));
}

#[test]
fn missing_engine_is_an_error_not_a_panic() {
    let missing: PlayerFactory = Arc::new(|| {
        UciEngine::start(EngineSpec::program("/nonexistent/engine"), Duration::from_secs(1))
            .map(|e| Box::new(e) as Box<dyn Player>)
    });
    let err = run_match(match_config(random_factory(1), missing, 2)).expect_err("must fail");
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
}

/// Random games (both sides), written as PGN, replayed by python-chess.
#[test]
fn pgn_is_valid_for_python_chess() {
    let pgn = tmp("random.pgn");
    let data = tmp("random.data");
    let mut cfg = match_config(random_factory(7), random_factory(99), 12);
    cfg.concurrency = 2;
    cfg.pgn = Some(pgn.clone());
    cfg.datagen = Some(data.clone());
    cfg.datagen_skip = 8;
    cfg.openings = openings::parse_epd(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         # a comment\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 ; id \"x\"\n\
         4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1\n",
    )
    .unwrap();
    let mut no_claim = match_config(random_factory(3), random_factory(4), 4);
    no_claim.game.claim_draws = false;
    no_claim.pgn = Some(tmp("noclaim.pgn"));
    let s = run_match(cfg).unwrap();
    run_match(no_claim).unwrap();
    assert_eq!(s.tally.games(), 12);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 12);
    assert!(text.contains("[SetUp \"1\"]") && text.contains("[FEN \"4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1\"]"));
    // Random players report no score, so there is no training data; the file exists.
    assert!(data.exists());
    for file in [pgn, tmp("noclaim.pgn")] {
        let out = Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/check_pgn.py"))
            .arg(&file)
            .output();
        match out {
            Err(e) => {
                eprintln!(
                    "SKIPPED python-chess PGN check: cannot run python3 ({e}); install python3 and `pip install chess`"
                );
                return;
            }
            Ok(o) if o.status.code() == Some(77) => {
                eprintln!(
                    "SKIPPED python-chess PGN check: python-chess is not installed. Integrator: add `pip install chess` to .ci/setup"
                );
                return;
            }
            Ok(o) => {
                let stdout = String::from_utf8_lossy(&o.stdout);
                assert!(o.status.success(), "python-chess disagrees:\n{stdout}{}", String::from_utf8_lossy(&o.stderr));
                eprintln!("{}: {}", file.display(), stdout.trim());
            }
        }
    }
}

#[test]
fn pgn_openings_are_read() {
    attacks::init();
    let v = openings::parse_pgn(
        "[Event \"x\"]\n[Site \"?\"]\n\n1. e4 {best} e5 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 *\n\n\
         [Event \"y\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n\n1. O-O Kd7 1/2-1/2\n",
    )
    .unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].to_fen(), "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
    assert_eq!(v[1].to_fen(), "8/3k4/8/8/8/8/8/R4RK1 w - - 2 2");
    assert!(openings::parse_pgn("1. e5 *").is_err());
}

#[test]
fn statistics_match_known_values() {
    assert!((stats::elo_from_score(0.75) - 190.848_501_887_865).abs() < 1e-9);
    assert!((stats::elo_from_score(0.5)).abs() < 1e-12);
    assert!((stats::score_from_elo(190.848_501_887_865) - 0.75).abs() < 1e-12);
    assert!((stats::los(10, 5) - 0.901_647_198_770_526_6).abs() < 1e-6);
    assert_eq!(stats::los(0, 0), 0.5);
    assert!((stats::erf(1.0) - 0.842_700_792_949_714_9).abs() < 2e-7);

    let t = Tally { wins: 60, draws: 20, losses: 40, penta: [0; 5] };
    let e = t.elo();
    assert!((e.elo - 58.451_214_271_295_23).abs() < 1e-6, "{e}");
    assert!((e.low - 2.112_982_571_619_727).abs() < 1e-6, "{e}");
    assert!((e.high - 118.040_294_144_985_3).abs() < 1e-6, "{e}");

    let sprt = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05").unwrap();
    let (lo, hi) = sprt.bounds();
    assert!((lo + 2.944_438_979_166_440_3).abs() < 1e-12 && (hi - 2.944_438_979_166_440_3).abs() < 1e-12);
    // Reference values: scripts/sprt_llr.py --elo0 0 --elo1 5 40 20 60 (and 5 20 50 30 10).
    let (llr, model) = sprt.llr(&t);
    assert_eq!(model, SprtModel::Trinomial);
    assert!((llr - 0.330_569_726_684).abs() < 1e-9, "{llr}");
    assert_eq!(sprt.decision(&t), SprtDecision::Continue);

    let p = Tally { penta: [5, 20, 50, 30, 10], ..Tally::default() };
    let (llr, model) = sprt.llr(&p);
    assert_eq!(model, SprtModel::Pentanomial);
    assert!((llr - 0.551_957_388_696).abs() < 1e-9, "{llr}");

    let strong = Tally { wins: 600, draws: 200, losses: 200, penta: [0; 5] };
    assert_eq!(sprt.decision(&strong), SprtDecision::AcceptH1);
    let weak = Tally { wins: 200, draws: 200, losses: 600, penta: [0; 5] };
    assert_eq!(sprt.decision(&weak), SprtDecision::AcceptH0);

    for bad in ["", "elo0=5 elo1=0", "elo0=0", "elo0=0 elo1=5 alpha=2", "elo0=x elo1=5", "elo0=0 elo1=5 gamma=1"] {
        assert!(Sprt::parse(bad).is_err(), "{bad}");
    }
}

/// Feeds pairs (A's half-points over each pair, 0..=4, cycling through `cycle`) into a tally until
/// the SPRT decides or `limit` pairs are played; returns the tally and the decision.
fn sprt_on_pairs(sprt: &Sprt, cycle: &[u8], limit: usize) -> (Tally, SprtDecision) {
    let mut t = Tally::default();
    for i in 0..limit {
        let k = cycle[i % cycle.len()];
        // The same pair score however its two games went: a win and a loss, or two draws.
        let (first, second) = match k {
            0 => (0.0, 0.0),
            1 => (0.5, 0.0),
            2 if i % 2 == 0 => (1.0, 0.0),
            2 => (0.5, 0.5),
            3 => (1.0, 0.5),
            _ => (1.0, 1.0),
        };
        t.add_game(first);
        t.add_game(second);
        t.add_pair(first + second);
        let d = sprt.decision(&t);
        if d != SprtDecision::Continue {
            return (t, d);
        }
    }
    (t, SprtDecision::Continue)
}

/// The LLR of `scripts/sprt_llr.py` (an independent implementation: dual maximisation by
/// golden-section search instead of our bisection), or None without python3.
fn reference_llr(sprt: &Sprt, counts: &[u64]) -> Option<f64> {
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/sprt_llr.py"))
        .args(["--elo0", &sprt.elo0.to_string(), "--elo1", &sprt.elo1.to_string()])
        .args(counts.iter().map(|c| c.to_string()))
        .output();
    match out {
        Ok(o) if o.status.success() => Some(String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()),
        Ok(o) => panic!("sprt_llr.py failed: {}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => {
            eprintln!("SKIPPED reference LLR: cannot run python3 ({e})");
            None
        }
    }
}

#[test]
fn sprt_waits_for_evidence_and_then_decides() {
    let sprt = Sprt::parse("elo0=0 elo1=10 alpha=0.05 beta=0.05").unwrap();
    let (lo, hi) = sprt.bounds();
    let check = |t: &Tally, expected: f64| {
        let (llr, _) = sprt.llr(t);
        assert!((llr - expected).abs() < 1e-9, "LLR {llr}, expected {expected} for {t:?}");
        if let Some(r) = reference_llr(&sprt, &t.penta) {
            assert!((llr - r).abs() < 1e-9, "LLR {llr}, sprt_llr.py {r} for {t:?}");
        }
    };

    // One 1.5-0.5 pair once scored LLR 3.73 ("H1 accepted" after 2 games). Whatever the first
    // one or two pairs, even two 2-0 sweeps, the test must go on.
    for start in [[3u8, 3], [4, 4], [0, 0], [4, 3], [2, 2], [1, 0]] {
        for pairs in 1..=2 {
            let (t, d) = sprt_on_pairs(&sprt, &start, pairs);
            assert_eq!(d, SprtDecision::Continue, "decided after {pairs} pairs {start:?}: {t:?}");
        }
    }
    let one = Tally { wins: 1, draws: 1, penta: [0, 0, 0, 1, 0], ..Tally::default() };
    check(&one, 0.028_280_460_397);
    let sweeps = Tally { wins: 4, penta: [0, 0, 0, 0, 2], ..Tally::default() };
    check(&sweeps, 0.056_678_742_306);
    // Nor do a few games without pairs.
    for wins in 1..=3 {
        let t = Tally { wins, ..Tally::default() };
        assert_eq!(sprt.decision(&t), SprtDecision::Continue, "{wins} wins");
    }

    // A clearly better A (pairs 1 2 10 5 2 of every 20: 56.25 %, about +44 Elo) is accepted, at the
    // pair where the reference LLR first reaches the bound (2.9426 before it, 2.9926 at 223 pairs).
    let positive = [4, 2, 3, 2, 1, 3, 2, 2, 0, 3, 2, 4, 2, 3, 1, 2, 2, 3, 2, 2];
    let (t, d) = sprt_on_pairs(&sprt, &positive, 5000);
    assert_eq!(d, SprtDecision::AcceptH1, "{t:?}");
    assert_eq!(t.penta, [11, 22, 111, 56, 23]);
    assert_eq!(t.games(), 446);
    check(&t, 2.992_622_479_888);
    assert!(sprt.llr(&t).0 >= hi);

    // Equal players (pairs 1 3 8 3 1 of every 16) are rejected: H0 after 1563 pairs.
    let neutral = [2, 3, 1, 2, 4, 2, 0, 2, 3, 2, 1, 2, 2, 3, 1, 2];
    let (t, d) = sprt_on_pairs(&sprt, &neutral, 5000);
    assert_eq!(d, SprtDecision::AcceptH0, "{t:?}");
    assert_eq!(t.penta, [98, 293, 781, 293, 98]);
    check(&t, -2.946_738_342_166);
    assert!(sprt.llr(&t).0 <= lo);
}

#[test]
fn bad_command_lines_are_refused_cleanly() {
    let exe = env!("CARGO_BIN_EXE_arbiter");
    for args in [
        vec!["selfplay", "--tc", "abc"],
        vec!["selfplay", "--tc", "0+0"],
        vec!["selfplay", "--openings", "/nonexistent/book.epd", "--nodes", "10"],
        vec!["selfplay", "--opponent", "option.Hash=1", "--nodes", "10"],
        vec!["selfplay", "--opponent", "cmd=\"unbalanced", "--nodes", "10"],
        vec!["selfplay", "--sprt", "elo0=5 elo1=0", "--nodes", "10"],
        vec!["selfplay", "--a", "Hash", "--nodes", "10"],
        vec!["selfplay", "--games", "0", "--nodes", "10"],
        vec!["selfplay", "--a-cmd", "/nonexistent/engine", "--nodes", "10", "--games", "1", "--quiet"],
        vec!["selfplay", "--soft-nodes", "0"],
        vec!["selfplay", "--soft-nodes", "500", "--nodes", "100"],
        vec!["selfplay", "--soft-nodes", "500", "--opponent", "cmd=stockfish", "--games", "1"],
        vec!["selfplay", "--soft-nodes", "500", "--tc", "10+0.1"],
        vec!["selfplay", "--opening-max-score", "0", "--nodes", "10"],
        vec!["selfplay", "--opening-max-score", "100", "--opening-nodes", "0", "--nodes", "10"],
    ] {
        let out = Command::new(exe).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

fn check_with_python_chess(file: &std::path::Path) {
    let out = Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/check_pgn.py"))
        .arg(file)
        .output();
    match out {
        Err(e) => eprintln!("SKIPPED python-chess PGN check: cannot run python3 ({e})"),
        Ok(o) if o.status.code() == Some(77) => eprintln!(
            "SKIPPED python-chess PGN check: python-chess is not installed. Integrator: add `pip install chess` to .ci/setup"
        ),
        Ok(o) => {
            let stdout = String::from_utf8_lossy(&o.stdout);
            assert!(o.status.success(), "python-chess disagrees:\n{stdout}{}", String::from_utf8_lossy(&o.stderr));
            eprintln!("{}: {}", file.display(), stdout.trim());
        }
    }
}

/// `--variant 960` from the command line: Arbiter in-process against Arbiter as a UCI process
/// (sent UCI_Chess960, so castling goes both ways as king takes own rook), start positions by
/// number; the PGN carries the variant and python-chess replays it.
#[test]
fn chess960_match_from_the_command_line() {
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let pgn = tmp("chess960.pgn");
    let pgn_arg = pgn.display().to_string();
    let args = ["selfplay", "--variant", "960", "--seed", "5", "--games", "6", "--repeat", "--nodes", "300"];
    let out = Command::new(exe).args(args).args(["--b-cmd", exe, "--pgn", &pgn_arg, "--quiet"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("illegal moves 0/0") && stdout.contains("crashes or stalls 0/0"), "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 6, "{text}");
    assert_eq!(text.matches("[SetUp \"1\"]").count(), 6);
    check_with_python_chess(&pgn);
}

/// Node-limited games are deterministic, so a match ends when its openings are used up with both
/// colours rather than count the same games again; the games it played all differ.
#[test]
fn a_node_limited_match_stops_when_every_game_would_repeat() {
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let book = tmp("three-openings.epd");
    let lines: Vec<&str> = include_str!("../data/openings.epd").lines().take(3).collect();
    std::fs::write(&book, lines.join("\n") + "\n").unwrap();
    let book_arg = book.display().to_string();
    for (repeat, expected) in [(true, 6), (false, 6)] {
        let pgn = tmp(&format!("distinct-{repeat}.pgn"));
        let pgn_arg = pgn.display().to_string();
        let mut args = vec!["selfplay", "--nodes", "300", "--games", "40", "--openings", &book_arg, "--quiet"];
        args.extend(["--pgn", &pgn_arg]);
        if repeat {
            args.push("--repeat");
        }
        let out = Command::new(exe).args(&args).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains(&format!("{expected} games in")), "{stdout}");
        assert!(stderr.contains(&format!("3 openings give {expected} distinct games")), "{stderr}");
        let text = std::fs::read_to_string(&pgn).unwrap();
        let games: Vec<&str> = text.split("[Event ").skip(1).collect();
        assert_eq!(games.len(), expected);
        let mut keys: Vec<(&str, &str)> = games
            .iter()
            .map(|g| {
                let tag = |name: &str| g.split(&format!("[{name} \"")).nth(1).and_then(|t| t.split('"').next());
                (tag("FEN").unwrap_or(""), tag("White").unwrap_or(""))
            })
            .collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), expected, "an opening was played twice with the same colours");
    }
    // A clock varies the games, and so do two search threads or a strength limit's dice: no cap.
    let clock = ["--tc", "0.2+0.01"];
    for varies in
        [&clock[..], &["--nodes", "300", "--a", "Threads=2"], &["--nodes", "300", "--b", "UCI_LimitStrength=true"]]
    {
        let mut args = vec!["selfplay", "--games", "8", "--openings", &book_arg, "--concurrency", "2", "--quiet"];
        args.extend(varies);
        let out = Command::new(exe).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(String::from_utf8_lossy(&out.stdout).contains("8 games in"), "{varies:?}: {stderr}");
        assert!(!stderr.contains("distinct games"), "{varies:?}: {stderr}");
    }
}

/// An external engine silently ignores an option it lacks, so the match refuses to start
/// rather than play with the default: an undeclared name, a spin value out of its range.
#[test]
fn an_option_the_engine_does_not_take_stops_the_match() {
    let exe = env!("CARGO_BIN_EXE_arbiter");
    for (option, message) in [
        ("rfp_margin=5", "the engine declares no option 'rfp_margin'"),
        ("Hash=0", "option Hash=0: the engine takes a whole number within 1..65536"),
        ("Threads=two", "option Threads=two: the engine takes a whole number within"),
    ] {
        let args = ["selfplay", "--nodes", "200", "--games", "2", "--quiet", "--b-cmd", exe, "--b", option];
        let out = Command::new(exe).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{option}: {stderr}");
        assert!(stderr.contains(message), "{option}: {stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("Match:"), "{option}: a match was played");
    }
    // Declared options are taken whatever their case.
    let args =
        ["selfplay", "--nodes", "200", "--games", "2", "--quiet", "--b-cmd", exe, "--b", "move overhead=30 hash=8"];
    let out = Command::new(exe).args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Arbiter in-process against Arbiter as a separate UCI process (this crate's binary).
#[test]
fn in_process_against_uci_process() {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_arbiter"));
    let a: PlayerFactory = Arc::new(|| {
        InProcess::new("Arbiter in-process", &[("Hash".into(), "4".into())]).map(|e| Box::new(e) as Box<dyn Player>)
    });
    let b: PlayerFactory = Arc::new(move || {
        let spec = EngineSpec { options: vec![("Hash".into(), "4".into())], ..EngineSpec::program(exe.clone()) };
        UciEngine::start(spec, Duration::from_secs(10)).map(|e| Box::new(e) as Box<dyn Player>)
    });
    let pgn = tmp("arbiter.pgn");
    let data = tmp("arbiter.data");
    let mut cfg = match_config(a, b, 4);
    cfg.game.limits = MoveLimit::Fixed(Limits { nodes: Some(800), ..Limits::default() });
    cfg.datagen_skip = 4;
    cfg.openings = openings::parse_epd(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n\
         8/8/4k3/8/8/3QK3/8/8 w - - 0 1\n",
    )
    .unwrap();
    cfg.pgn = Some(pgn.clone());
    cfg.datagen = Some(data.clone());
    let games_file = tmp("arbiter.games");
    cfg.records = Some(games_file.clone());
    cfg.concurrency = 2;
    let s = run_match(cfg).unwrap();
    assert_eq!(s.tally.games(), 4);
    let i = &s.incidents;
    assert_eq!((i.illegal_moves, i.time_losses, i.disconnects), ([0, 0], [0, 0], [0, 0]));
    assert_eq!(s.b_name, format!("Arbiter {}", env!("CARGO_PKG_VERSION")));
    // K+Q v K: whoever has the queen mates.
    for (idx, a_white, rec) in &s.records {
        if *idx >= 2 {
            assert_eq!(rec.result, GameResult::WhiteWins, "game {idx} ({a_white}): {}", rec.reason);
        }
        assert!(rec.moves.iter().all(|m| m.score.is_some() && m.depth.is_some()));
    }
    let text = std::fs::read_to_string(&data).unwrap();
    assert!(!text.is_empty());
    for line in text.lines() {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        let p = Position::from_fen(parts[0]).unwrap();
        assert!(!p.in_check(), "{line}");
        parts[1].parse::<i32>().unwrap();
        assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
    }
    // The game records give the same training data again, line for line.
    let games = std::fs::read_to_string(&games_file).unwrap();
    assert_eq!(games.lines().count(), 4);
    assert_eq!(records::expand(&games, 4), (text.clone(), 0));
    check_with_python_chess(&pgn);
}

#[test]
fn in_process_with_a_clock() {
    let a: PlayerFactory =
        Arc::new(|| InProcess::new("A", &[("Hash".into(), "4".into())]).map(|e| Box::new(e) as Box<dyn Player>));
    let b: PlayerFactory =
        Arc::new(|| InProcess::new("B", &[("Hash".into(), "4".into())]).map(|e| Box::new(e) as Box<dyn Player>));
    let mut cfg = match_config(a, b, 2);
    cfg.game.limits = MoveLimit::Clock(TimeControl::parse("0.5+0.01").unwrap());
    cfg.time_control = cfg.game.limits.pgn_tag();
    cfg.openings = openings::parse_epd("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\n").unwrap();
    let pgn = tmp("clock.pgn");
    cfg.pgn = Some(pgn.clone());
    let s = run_match(cfg).unwrap();
    assert_eq!(s.incidents.time_losses, [0, 0]);
    assert_eq!(s.tally.wins, 1, "the side with the back-rank mate wins each game: {:?}", s.tally);
    assert_eq!(s.tally.losses, 1);
    assert!(std::fs::read_to_string(&pgn).unwrap().contains("[TimeControl \"0.5+0.01\"]"));
    check_with_python_chess(&pgn);
}

#[test]
fn sprt_stops_the_match_early() {
    let mut cfg = match_config(random_factory(5), fake_engine("crash"), 200);
    cfg.sprt = Some(Sprt::parse("elo0=0 elo1=50").unwrap());
    let s = run_match(cfg).unwrap();
    assert_eq!(s.sprt, Some(SprtDecision::AcceptH1));
    // Every pair is a 2-0 sweep: the LLR passes 2.944 at the 23rd pair
    // (scripts/sprt_llr.py --elo0 0 --elo1 50 0 0 0 0 23 → 3.072; with 22 → 2.939). The worker may
    // have started game 47 before it saw the stop, and that game still counts.
    let games = s.tally.games();
    assert!((46..=47).contains(&games), "{games} games");
    assert_eq!(s.tally.losses, 0);
}

/// `--soft-nodes` plays whole games and writes their training records.
#[test]
fn soft_node_limit_makes_records() {
    let records = tmp("soft.games");
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["selfplay", "--soft-nodes", "300", "--games", "2", "--repeat", "--quiet", "--records"])
        .arg(&records)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
}

/// `--opening-max-score` plays only the openings within the margin, and says how many.
#[test]
fn openings_a_side_has_won_are_not_played() {
    let book = tmp("balance.epd");
    // A quiet opening, and one where Black has lost the queen.
    std::fs::write(
        &book,
        "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n\
         rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3\n",
    )
    .unwrap();
    let records = tmp("balance.games");
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["selfplay", "--nodes", "200", "--games", "4", "--repeat", "--quiet", "--opening-max-score", "200"])
        .arg("--openings")
        .arg(&book)
        .arg("--records")
        .arg(&records)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("openings: 1 of 2 within ±200 cp at 2000 nodes"), "{stderr}");
    // The one opening is played twice (colours reversed): the match ends there.
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().all(|l| l.starts_with("rnbqkb1r/pppp1ppp/5n2/")), "{text}");
}

#[test]
fn command_line_match_end_to_end() {
    let pgn = tmp("cli.pgn");
    let data = tmp("cli.data");
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["selfplay", "--nodes", "400", "--games", "2", "--repeat", "--concurrency", "2", "--quiet"])
        .args(["--a", "Hash=4", "--b", "Hash=4 Move Overhead=20", "--sprt", "elo0=0 elo1=5", "--datagen-skip", "2"])
        .arg("--pgn")
        .arg(&pgn)
        .arg("--datagen")
        .arg(&data)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    for needle in ["W ", "Elo difference", "LOS", "SPRT elo0=0 elo1=5", "pentanomial", "Incidents"] {
        assert!(stdout.contains(needle), "no '{needle}' in:\n{stdout}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2);
    assert!(text.contains("[White \"Arbiter") && text.contains("[TimeControl \"-\"]"));
    assert!(!std::fs::read_to_string(&data).unwrap().is_empty());
    check_with_python_chess(&pgn);
}

/// Flag falls (a loss, and a draw when the opponent cannot mate) written as PGN and checked by python-chess.
#[test]
fn time_forfeits_in_pgn_are_valid() {
    let slow: PlayerFactory = Arc::new(|| {
        let mut p = Scripted::new(&[]);
        p.name = "Slow".into();
        p.delay = Duration::from_millis(250);
        Ok(Box::new(p) as Box<dyn Player>)
    });
    let mut cfg = match_config(slow, random_factory(11), 4);
    cfg.game.limits = MoveLimit::Clock(TimeControl::parse("0.1+0").unwrap());
    cfg.game.flag_grace = Duration::from_millis(20);
    cfg.time_control = cfg.game.limits.pgn_tag();
    cfg.openings = openings::parse_epd("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\n4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n").unwrap();
    let pgn = tmp("flags.pgn");
    cfg.pgn = Some(pgn.clone());
    let s = run_match(cfg).unwrap();
    assert_eq!(s.incidents.time_losses, [4, 0]);
    // Games 1-2: both sides have a rook, so Slow's flag falls lose. Game 3: Slow is White with the rook
    // against a bare king: its flag fall is a draw (FIDE 6.9). Game 4: Slow is the bare king: it loses.
    let outcomes: Vec<(GameResult, EndReason)> = s.records.iter().map(|r| (r.2.result, r.2.reason.clone())).collect();
    assert_eq!(
        outcomes,
        vec![
            (GameResult::BlackWins, EndReason::TimeForfeit(Color::White)),
            (GameResult::WhiteWins, EndReason::TimeForfeit(Color::Black)),
            (GameResult::Draw, EndReason::TimeForfeitNoMate(Color::White)),
            (GameResult::WhiteWins, EndReason::TimeForfeit(Color::Black)),
        ]
    );
    check_with_python_chess(&pgn);
}

/// Processes with `marker` as one of their arguments (Linux /proc; empty elsewhere).
fn processes_with(marker: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).into_owned())
        .filter(|c| c.split('\0').any(|arg| arg == marker))
        .map(|c| c.replace('\0', " "))
        .collect()
}

/// `arbiter selfplay ARGS` with its stdout captured, and the PGN path it writes to.
fn spawn_selfplay(args: &[String], pgn: &std::path::Path) -> std::process::Child {
    let _ = std::fs::remove_file(pgn);
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("selfplay")
        .args(args)
        .args(["--quiet", "--concurrency", "1", "--pgn"])
        .arg(pgn)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Sends a real signal (`kill -SIG PID`), waits for the exit, returns (status code, stdout).
fn signal_and_wait(mut child: std::process::Child, sig: &str) -> (Option<i32>, String, Duration) {
    let sent = std::time::Instant::now();
    let ok = Command::new("kill").arg(format!("-{sig}")).arg(child.id().to_string()).status().unwrap();
    assert!(ok.success(), "kill -{sig} failed");
    // A hang detector: a clean end takes well under a second here.
    while child.try_wait().unwrap().is_none() {
        assert!(sent.elapsed() < Duration::from_secs(30), "selfplay still running 30 s after SIG{sig}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = sent.elapsed();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), took)
}

/// SIGTERM in the middle of a match against an external engine (this crate's binary, under
/// a unique name so its processes can be found): every engine process is gone, the PGN holds
/// every finished game and only those, and the summary of the finished games is printed.
#[test]
fn sigterm_ends_a_match_cleanly() {
    let dir = tmp("sigterm");
    std::fs::create_dir_all(&dir).unwrap();
    let engine = dir.join(format!("arbiter-signal-marker-{}", std::process::id()));
    let _ = std::fs::remove_file(&engine);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_arbiter"), &engine).unwrap();
    let marker = engine.display().to_string();
    let pgn = dir.join("sigterm.pgn");
    let args: Vec<String> = ["--opponent", &format!("cmd={marker} option.Hash=4"), "--a", "Hash=4"]
        .iter()
        .map(|s| s.to_string())
        .chain(["--nodes", "2000", "--games", "400", "--repeat", "--openings"].iter().map(|s| s.to_string()))
        .chain([concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd").to_string()])
        .collect();
    let child = spawn_selfplay(&args, &pgn);
    // Let two games finish, then interrupt the third.
    let games_in = |p: &std::path::Path| std::fs::read_to_string(p).map_or(0, |t| t.matches("[Result ").count());
    let started = std::time::Instant::now();
    while games_in(&pgn) < 2 {
        assert!(started.elapsed() < Duration::from_secs(300), "no two games in 300 s");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(processes_with(&marker).len(), 1, "one external engine while the match runs");
    let (code, stdout, took) = signal_and_wait(child, "TERM");
    eprintln!("SIGTERM -> exit in {took:?}");
    assert_eq!(code, Some(128 + 15), "{stdout}");
    assert!(stdout.contains("Interrupted"), "{stdout}");
    let played: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Match: ").and_then(|l| l.split(", ").nth(1)?.split(' ').next()?.parse().ok()))
        .unwrap_or_else(|| panic!("no game count in:\n{stdout}"));
    assert!(played >= 2, "{stdout}");
    assert_eq!(games_in(&pgn), played, "the PGN holds exactly the finished games");
    assert!(!std::fs::read_to_string(&pgn).unwrap().contains("unterminated"));
    check_with_python_chess(&pgn);
    assert!(processes_with(&marker).is_empty(), "engine processes left: {:?}", processes_with(&marker));
}

/// Ctrl-C (SIGINT) while an external engine stalls on a 60 s clock: the match ends at once
/// rather than waiting for the flag, and the stalled engine is told to quit or killed.
#[test]
fn sigint_during_a_stalled_move_ends_the_match_at_once() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fake_uci.py");
    let marker = format!("sigint-marker-{}", std::process::id());
    let pgn = tmp("sigint.pgn");
    let opponent = format!("cmd=python3 arg={script} arg=stall arg={marker}");
    let args: Vec<String> =
        ["--opponent", &opponent, "--tc", "60+0", "--games", "2"].iter().map(|s| s.to_string()).collect();
    let child = spawn_selfplay(&args, &pgn);
    // The PGN file is created once the match runs (signals are caught by then); the fake
    // engine answers its first `go` at once and then stalls.
    let started = std::time::Instant::now();
    while !pgn.exists() || processes_with(&marker).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(30), "the match did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let (code, stdout, took) = signal_and_wait(child, "INT");
    eprintln!("SIGINT -> exit in {took:?}");
    assert_eq!(code, Some(128 + 2), "{stdout}");
    assert!(stdout.contains("Interrupted") && stdout.contains(", 0 games in "), "{stdout}");
    assert!(took < Duration::from_secs(10), "waited {took:?} (the stall would last 60 s)");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), "", "no game finished");
    assert!(processes_with(&marker).is_empty(), "engine processes left: {:?}", processes_with(&marker));
}

/// With stderr a pipe (a log file, CI), the progress is one line per finished game, the last one the
/// final tally: no carriage returns that would fold the match into one endless line.
#[test]
fn progress_to_a_pipe_is_a_line_per_game() {
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let args = ["selfplay", "--nodes", "200", "--games", "4", "--repeat"];
    let out = Command::new(exe)
        .args(args)
        .args(["--openings", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd")])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains('\r'), "{stderr:?}");
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with("games ")).collect();
    assert_eq!(progress.len(), 4, "{stderr}");
    for (n, line) in (1..=4).zip(&progress) {
        assert!(line.starts_with(&format!("games {n}/4  +")), "line {n}: {line:?}");
    }
    // The last line's wins (`+W`, the third word) are the summary's.
    let wins = progress[3].split_whitespace().nth(2).unwrap_or_default().trim_start_matches('+');
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(&format!("A: W {wins} ")), "{} against the summary:\n{stdout}", progress[3]);
}

/// `--json`: the summary as one JSON object with the text summary's figures (the same
/// node-limited match played twice; such a match is deterministic), read by Python's parser.
#[test]
fn the_json_summary_has_the_figures_of_the_text_one() {
    let exe = env!("CARGO_BIN_EXE_arbiter");
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd");
    let args = ["selfplay", "--nodes", "300", "--games", "6", "--repeat", "--openings", book, "--seed", "5", "--quiet"];
    let sprt = ["--sprt", "elo0=0 elo1=10"];
    let text = Command::new(exe).args(args).args(sprt).output().unwrap();
    let json = Command::new(exe).args(args).args(sprt).arg("--json").output().unwrap();
    assert!(text.status.success() && json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let json = String::from_utf8_lossy(&json.stdout).into_owned();
    assert_eq!(json.lines().count(), 1, "{json}");
    let python = "import json, sys\n\
        d = json.load(sys.stdin)\n\
        s = d['sprt']\n\
        print(f\"A: W {d['wins']} D {d['draws']} L {d['losses']}\")\n\
        print('Pairs (0, 0.5, 1, 1.5, 2 points for A): ' + ' '.join(map(str, d['pentanomial'])))\n\
        print(f\"Elo difference (A - B): {d['elo']:+.1f} [{d['elo_low']:+.1f}, {d['elo_high']:+.1f}]\")\n\
        print(f\"LLR {s['llr']:.3f} [{s['lower']:.3f}, {s['upper']:.3f}] ({s['model']})\")\n\
        print(f\"illegal moves {d['illegal_moves'][0]}/{d['illegal_moves'][1]}, time losses \
{d['time_losses'][0]}/{d['time_losses'][1]}, crashes or stalls {d['disconnects'][0]}/{d['disconnects'][1]}\")\n\
        assert d['games'] == 6 and d['interrupted'] is False and d['a'].startswith('Arbiter')\n\
        assert s['elo0'] == 0 and s['elo1'] == 10 and s['decision'] in (None, 'H0', 'H1')\n";
    let out = match crate::common::python_with_input(&["-c", python], &json) {
        Ok(out) => out,
        Err(e) => return eprintln!("SKIPPED JSON check: cannot run python3 ({e})"),
    };
    assert!(out.status.success(), "{json}\n{}", String::from_utf8_lossy(&out.stderr));
    // Every line Python made from the JSON is in the text summary.
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        assert!(text.contains(line), "'{line}' not in:\n{text}\n(JSON: {json})");
    }
}

/// The games smoke test: the engine plays itself from the command line (20 games at 300 nodes
/// a move from the project's openings, both colours of each), and everything a user would
/// check holds: no illegal move, time loss or disconnection in the summary; the PGN's every
/// move legal and every result what the Laws allow (`arbiter referee`, and python-chess); one
/// record per game that reads back with the PGN's result.
#[test]
fn games_smoke_the_engine_plays_and_the_referee_agrees() {
    let (pgn, games) = (tmp("smoke.pgn"), tmp("smoke.games"));
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["selfplay", "--nodes", "300", "--games", "20", "--repeat", "--concurrency", "2", "--json"])
        .args(["--openings", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd"), "--seed", "20"])
        .arg("--pgn")
        .arg(&pgn)
        .arg("--records")
        .arg(&games)
        .output()
        .unwrap();
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{summary}{}", String::from_utf8_lossy(&out.stderr));
    for needle in [r#""games":20,"#, r#""illegal_moves":[0,0]"#, r#""time_losses":[0,0]"#, r#""disconnects":[0,0]"#] {
        assert!(summary.contains(needle), "no {needle} in {summary}");
    }

    let out = Command::new(env!("CARGO_BIN_EXE_arbiter")).arg("referee").arg(&pgn).arg("--json").output().unwrap();
    let verdicts = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{verdicts}{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = verdicts.lines().collect();
    assert_eq!(lines.len(), 20, "{verdicts}");
    let mut results = Vec::new();
    for line in &lines {
        assert!(line.contains(r#""problems":[]"#), "the referee finds a problem: {line}");
        let result = line.split(r#""result":""#).nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "no result: {line}");
        results.push(result.to_string());
    }
    check_with_python_chess(&pgn);

    let text = std::fs::read_to_string(&games).unwrap();
    let recorded: Vec<String> = text
        .lines()
        .map(|l| match records::parse_record(l).expect("a record reads back").result {
            "1.0" => "1-0".to_string(),
            "0.0" => "0-1".to_string(),
            _ => "1/2-1/2".to_string(),
        })
        .collect();
    assert_eq!(recorded, results, "records and PGN give the games' results in the same order");
}
