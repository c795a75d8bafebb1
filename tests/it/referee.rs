//! The referee: mate, stalemate, dead positions, claims versus automatic draws, and
//! position identity (FIDE 9.2.3).

use arbiter::chess::Position;
use arbiter::rules::{AutomaticDraw, ClaimError, DrawClaim, Game, Outcome};

fn game(fen: Option<&str>, moves: &str) -> Game {
    let list: Vec<&str> = moves.split_whitespace().collect();
    Game::from_fen_and_moves(fen, &list).expect("valid game")
}

#[test]
fn checkmate_and_stalemate() {
    let g = game(Some("7k/8/5KQ1/8/8/8/8/8 w - - 0 1"), "Qg7");
    let r = g.report();
    assert!(r.checkmate && !r.stalemate && r.automatic_draw.is_none());
    assert_eq!(g.outcome(), Some(Outcome::Checkmate { winner: arbiter::chess::Color::White }));
    let g = game(Some("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"), "");
    let r = g.report();
    assert!(r.stalemate && !r.checkmate);
    assert_eq!(r.automatic_draw, Some(AutomaticDraw::Stalemate));
    assert_eq!(r.legal_moves, 0);
}

#[test]
fn dead_positions_and_the_traps() {
    let dead = |fen: &str| game(Some(fen), "").report().dead_position;
    assert!(dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "K v K");
    assert!(dead("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), "K+B v K");
    assert!(dead("4k3/8/8/8/8/8/8/1N2K3 b - - 0 1"), "K+N v K");
    assert!(dead("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"), "K+B v K+B, both bishops on dark squares");
    assert!(!dead("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1"), "bishops on opposite colours");
    assert!(!dead("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1"), "K+N+N v K is not dead");
    assert!(!dead("4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1"), "K+B v K+N is not dead");
    assert!(!dead("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), "a pawn can promote");
    let g = game(Some("4k3/8/8/8/8/8/3r4/2B1K3 w - - 0 1"), "Kxd2");
    assert_eq!(g.report().automatic_draw, Some(AutomaticDraw::DeadPosition));
    // A frozen pawn wall (5.2.2 beyond material): the kings can never meet a pawn.
    assert!(dead("8/8/3k4/p1p1p1p1/P1P1P1P1/3K4/8/8 w - - 0 1"), "closed wall");
    assert!(!dead("8/8/3k4/p1p1p3/P1P1P3/3K4/8/8 w - - 0 1"), "an open file: a king walks round");
    let g = game(Some("8/8/3k4/p1p1p1p1/P1P1P3/3K2P1/8/8 w - - 0 1"), "g4");
    assert_eq!(g.outcome(), Some(Outcome::Draw(AutomaticDraw::DeadPosition)));
}

#[test]
fn threefold_is_a_claim_and_fivefold_ends_the_game() {
    let dance = "Nf3 Nf6 Ng1 Ng8";
    let g = game(None, &format!("{dance} {dance}"));
    let r = g.report();
    assert_eq!(r.repetitions, 3);
    assert_eq!(r.claimable_draws, vec![DrawClaim::ThreefoldRepetition]);
    assert_eq!(r.automatic_draw, None, "a claim never ends the game by itself");
    // One half-move earlier Black may claim by declaring Ng8 (9.2.1.1).
    let g = game(None, &format!("{dance} Nf3 Nf6 Ng1"));
    let r = g.report();
    assert!(r.claimable_draws.is_empty());
    assert!(r.claimable_with_move.iter().any(|c| c.san == "Ng8" && c.draw == DrawClaim::ThreefoldRepetition));
    let g = game(None, &format!("{dance} {dance} {dance}"));
    assert_eq!(g.report().repetitions, 4);
    assert_eq!(g.report().automatic_draw, None);
    let g = game(None, &format!("{dance} {dance} {dance} {dance}"));
    assert_eq!(g.report().repetitions, 5);
    assert_eq!(g.report().automatic_draw, Some(AutomaticDraw::FivefoldRepetition));
}

#[test]
fn fifty_moves_claim_and_seventy_five_automatic() {
    let g = game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), "Ra2");
    let r = g.report();
    assert_eq!(r.halfmove_clock, 100);
    assert_eq!(r.claimable_draws, vec![DrawClaim::FiftyMoves]);
    assert_eq!(r.automatic_draw, None);
    // At 99 the side to move may claim by declaring any move that is not a pawn move or capture.
    let g = game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), "");
    assert!(g.report().claimable_with_move.iter().any(|c| c.draw == DrawClaim::FiftyMoves && c.san == "Ra2"));
    // (White keeps a mate in one, so the position is not dead first: 5.2.2.)
    let g = game(Some("4k3/8/4K3/8/8/8/8/R7 w - - 149 100"), "Ra2");
    assert_eq!(g.report().automatic_draw, Some(AutomaticDraw::SeventyFiveMoves));
    // A mate delivered on the 150th half-move still wins (9.6.2).
    let g = game(Some("6k1/8/6K1/8/8/8/8/R7 w - - 149 100"), "Ra8");
    let r = g.report();
    assert!(r.checkmate);
    assert_eq!(r.automatic_draw, None);
}

#[test]
fn position_identity_ignores_an_unusable_en_passant_square() {
    // After 1.e4 no black pawn can take on e3: the e3 square does not make the position different.
    let with_ep = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    let without = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(with_ep.key(), without.key());
    let g = game(Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), "Nf6 Nf3 Ng8 Ng1");
    assert_eq!(g.report().repetitions, 2);
    // Here Black's f4 pawn could take e.p.: the first position differs from the later one.
    let g = game(Some("rnbqkbnr/pppp1ppp/8/8/4Pp2/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"), "Nf6 Nf3 Ng8 Ng1");
    assert_eq!(g.report().repetitions, 1);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    assert!(Game::from_fen_and_moves(Some("not a fen"), &["e4"]).is_err());
    let e = Game::from_fen_and_moves(None, &["e4", "e4"]).unwrap_err();
    assert!(e.to_string().contains("move 2"), "{e}");
}

#[test]
fn a_game_from_uci_history_counts_repetitions() {
    let g = game(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    let earlier = &g.keys()[..g.keys().len() - 1];
    let h = Game::from_history(*g.current(), earlier);
    assert_eq!(h.report().repetitions, 3);
    assert_eq!(h.report().claimable_draws, vec![DrawClaim::ThreefoldRepetition]);
    let lines = arbiter::explain::explain_for_uci(&h, "", arbiter::explain::Lang::En);
    assert!(lines.iter().any(|l| l.contains("threefold")), "{lines:?}");
}

/// A draw claim judged (9.2, 9.3, 9.5): on the board as it stands, or by declaring a move;
/// correct when the condition holds after it, and then with the article of the claim; incorrect
/// otherwise, with the count it rested on and 9.5.3 (the game goes on).
#[test]
fn draw_claims_are_judged_with_and_without_a_declared_move() {
    let g = game(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    let ng8 = arbiter::chess::notation::parse_move(g.current(), "Ng8").unwrap();
    let now = g.claim(DrawClaim::ThreefoldRepetition, None).unwrap();
    assert!(!now.correct && now.count == 2 && now.rule() == "9.5.3", "{now:?}");
    let with = g.claim(DrawClaim::ThreefoldRepetition, Some(ng8)).unwrap();
    assert!(with.correct && with.count == 3 && with.rule() == "9.2.1.1", "{with:?}");
    assert_eq!(with.with_move.as_ref().map(|(_, san)| san.as_str()), Some("Ng8"));
    assert_eq!(g.moves().len(), 7, "a claim never changes the game");
    let fifty = game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), "");
    let ra2 = arbiter::chess::notation::parse_move(fifty.current(), "Ra2").unwrap();
    let a3 = fifty.claim(DrawClaim::FiftyMoves, None).unwrap();
    assert!(!a3.correct && a3.count == 99);
    let with = fifty.claim(DrawClaim::FiftyMoves, Some(ra2)).unwrap();
    assert!(with.correct && with.count == 100 && with.rule() == "9.3.1", "{with:?}");
    // An illegal declared move, or a game already over, cannot be claimed on.
    let illegal = arbiter::chess::Move::new(
        arbiter::chess::Square::parse("a1").unwrap(),
        arbiter::chess::Square::parse("b3").unwrap(),
        arbiter::chess::MoveKind::Quiet,
    );
    assert!(matches!(fifty.claim(DrawClaim::FiftyMoves, Some(illegal)), Err(ClaimError::IllegalMove(_))));
    let mated = game(None, "f3 e5 g4 Qh4#");
    assert!(matches!(mated.claim(DrawClaim::FiftyMoves, None), Err(ClaimError::GameOver(_))));
}
