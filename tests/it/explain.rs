//! Explain mode: the contract's examples and the teaching page's rule drills, checked by
//! what a user sees — verdicts, reason codes, squares, JSON fields, texts in both
//! languages, CLI exit codes.

use crate::common::explain_cli;
use arbiter::chess::{Color, Piece, PieceType, Square};
use arbiter::explain::{
    explain, explain_for_uci, json, note_text, reason_text, Castling, CastlingLoss, CheckAnswer, Lang, Line, MateFact,
    Note, Reason, ReasonCode,
};
use arbiter::rules::unwinnable::Reason as MateReason;
use arbiter::rules::{Act, AutomaticDraw, DeadReason, DrawClaim, Game, Outcome};

fn game(fen: Option<&str>, moves: &str) -> Game {
    let list: Vec<&str> = moves.split_whitespace().collect();
    Game::from_fen_and_moves(fen, &list).expect("valid game")
}

/// (legal, codes, squares of the first reason, SAN)
fn ask(fen: Option<&str>, moves: &str, mv: &str) -> (bool, Vec<&'static str>, Vec<String>, Option<String>) {
    let ex = explain(&game(fen, moves), mv);
    let squares = ex.reasons.first().map(|r| r.squares().iter().map(|s| s.to_string()).collect()).unwrap_or_default();
    (ex.is_legal(), ex.codes(), squares, ex.san().map(String::from))
}

fn illegal(fen: &str, moves: &str, mv: &str, codes: &[&str]) {
    let (legal, got, _, _) = ask(Some(fen), moves, mv);
    assert!(!legal, "{mv} in {fen} should be illegal");
    assert_eq!(got, codes, "{mv} in {fen}");
}

fn legal(fen: &str, moves: &str, mv: &str) -> Vec<&'static str> {
    let (legal, got, _, _) = ask(Some(fen), moves, mv);
    assert!(legal, "{mv} in {fen} should be legal, got {got:?}");
    got
}

#[test]
fn contract_example_pinned_rook() {
    let fen = "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1";
    let g = game(Some(fen), "");
    let ex = explain(&g, "Re2f2");
    let j = json::explanation(&ex, Lang::En);
    assert!(j.starts_with(r#"{"input":"Re2f2","uci":"e2f2","san":null,"legal":false,"reasons":[{"code":"exposes_king","rule":"3.9.2","squares":["e2","e1","e8"],"text":""#), "{j}");
    assert!(j.contains(r#""after":null"#));
    // A pinned piece may capture its pinner.
    let ex = explain(&g, "Rxe8");
    assert!(ex.is_legal());
    assert_eq!(ex.san(), Some("Rxe8+"));
    assert!(ex.codes().contains(&"pinned_along_line"));
    let j = json::explanation(&ex, Lang::En);
    assert!(j.contains(r#""san":"Rxe8+""#) && j.contains(r#""after":{"fen":"#) && j.contains(r#""check":true"#), "{j}");
    assert!(j.contains(r#""checkers":["e8"]"#), "{j}");
}

#[test]
fn drill_mate_and_protected_queen() {
    let (ok, _, _, san) = ask(Some("7k/8/5KQ1/8/8/8/8/8 w - - 0 1"), "", "Qg7");
    assert!(ok);
    assert_eq!(san.as_deref(), Some("Qg7#"));
    let ex = explain(&game(Some("7k/8/5KQ1/8/8/8/8/8 w - - 0 1"), ""), "Qg7");
    let after = ex.after().expect("after");
    assert!(after.checkmate && after.automatic_draw.is_none());
    // Kxg7 is illegal: the f6 king protects the queen (and kings may not touch).
    let (ok, codes, squares, _) = ask(Some("7k/r5Q1/5K2/8/8/8/8/8 b - - 0 1"), "", "Kxg7");
    assert!(!ok);
    assert_eq!(codes, vec!["king_into_check"]);
    assert_eq!(squares, vec!["h8", "g7", "f6"]);
    // The a7 rook may take instead.
    assert!(ask(Some("7k/r5Q1/5K2/8/8/8/8/8 b - - 0 1"), "", "Rxg7").0);
    // After mate the game is over for any move.
    illegal("7k/6Q1/5K2/8/8/8/8/8 b - - 0 1", "", "Kxg7", &["game_over", "king_into_check"]);
}

#[test]
fn drill_sliders_do_not_jump() {
    illegal("4k3/8/8/8/P7/8/8/R3K3 w - - 0 1", "", "Ra7", &["path_blocked"]);
    let (_, _, squares, _) = ask(Some("4k3/8/8/8/P7/8/8/R3K3 w - - 0 1"), "", "a1a7");
    assert_eq!(squares, vec!["a1", "a7", "a4"]);
    illegal("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "", "a1b3", &["bad_geometry"]);
    illegal("4k3/7p/8/8/8/8/8/2B1K3 w - - 0 1", "", "c1c5", &["bad_geometry"]);
    illegal("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "", "d1e3", &["bad_geometry"]);
    legal("4k3/7p/8/8/8/8/8/1N2K3 w - - 0 1", "", "Nc3");
}

#[test]
fn drill_blocking_a_check() {
    let fen = "4r1k1/8/8/8/8/8/8/R3KB2 w - - 0 1";
    let codes = legal(fen, "", "Be2");
    assert!(codes.contains(&"resolves_check"));
    illegal(fen, "", "Ra2", &["leaves_king_in_check"]);
    let ex = explain(&game(Some(fen), ""), "Ra2");
    assert!(
        matches!(&ex.reasons[0], Reason::LeavesKingInCheck { checkers, .. } if checkers[0].1 == Square::parse("e8").unwrap())
    );
    // A knight's check cannot be blocked; a double check needs a king move.
    let ex = explain(&game(Some("4k3/8/8/8/8/3n4/8/R3K3 w - - 0 1"), ""), "Ra2");
    assert!(matches!(ex.reasons[0], Reason::LeavesKingInCheck { unblockable: true, double: false, .. }));
    let ex = explain(&game(Some("4r1k1/8/8/8/1b6/8/8/R3K3 w - - 0 1"), ""), "Ra2");
    assert!(matches!(ex.reasons[0], Reason::LeavesKingInCheck { double: true, .. }));
    assert!(explain_for_uci(&game(Some("4r1k1/8/8/8/1b6/8/8/R3K3 w - - 0 1"), ""), "Ra2", Lang::En)[1]
        .contains("only a king move"));
}

#[test]
fn drill_pins() {
    let fen = "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1";
    illegal(fen, "", "Re2f2", &["exposes_king"]);
    legal(fen, "", "Re2e5");
    legal(fen, "", "Rxe8");
    // En passant that takes both pawns off the king's rank.
    illegal("8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2", "", "bxc6", &["exposes_king"]);
    let ex = explain(&game(Some("8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2"), ""), "bxc6");
    assert!(matches!(ex.reasons[0], Reason::ExposesKing { en_passant: true, .. }));
}

#[test]
fn drill_castling() {
    let base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    illegal(base, "Kf1 Kf8 Ke1 Ke8", "O-O", &["castling_rights_lost"]);
    let ex = explain(&game(Some(base), "Kf1 Kf8 Ke1 Ke8"), "O-O");
    assert!(matches!(ex.reasons[0], Reason::CastlingRightsLost { cause: CastlingLoss::KingMoved, .. }));
    let ex = explain(&game(Some(base), "Rh2 Rh7 Rh1 Rh8"), "O-O");
    assert!(matches!(ex.reasons[0], Reason::CastlingRightsLost { cause: CastlingLoss::RookMoved, .. }));
    illegal("r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1", "", "O-O", &["castling_path_occupied"]);
    illegal("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "", "O-O-O", &["castling_path_occupied"]);
    illegal("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "", "O-O", &["castling_in_check"]);
    illegal("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "", "O-O", &["castling_through_check"]);
    illegal("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "", "e1g1", &["castling_into_check"]);
    let (_, _, squares, _) = ask(Some("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "", "O-O");
    assert_eq!(squares, vec!["g1", "g8"]);
    // Several failures at once are all listed.
    illegal(
        "4kr2/8/8/8/8/8/8/R3KB1R w Q - 0 1",
        "",
        "O-O",
        &["castling_rights_lost", "castling_path_occupied", "castling_through_check"],
    );
    // Allowed with the rook attacked, or b1 attacked.
    let codes = legal("4k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1", "", "O-O");
    assert_eq!(codes, vec!["castling_kingside", "castling_attacked_rook_allowed"]);
    let codes = legal("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "", "O-O-O");
    assert_eq!(codes, vec!["castling_queenside", "castling_attacked_rook_allowed"]);
    // A king two squares sideways but not from its initial square is plain bad geometry.
    illegal("4k3/8/8/8/8/8/8/3K3R w - - 0 1", "", "d1f1", &["bad_geometry"]);
}

#[test]
fn drill_en_passant_only_immediately() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    assert_eq!(legal(fen, "d5", "exd6"), vec!["en_passant", "king_safe"]);
    assert!(ask(Some(fen), "d5", "exd6 e.p.").0);
    illegal(fen, "d5 Kd2 Ke7", "exd6", &["en_passant_expired"]);
    illegal(fen, "d6 Kd2 d5", "exd6", &["pawn_diagonal_empty"]);
    // Recorded in the start FEN: still expires after one move each.
    illegal("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "Kd2 Ke7", "exd6", &["en_passant_expired"]);
}

#[test]
fn drill_promotion_stalemate_versus_check() {
    let fen = "8/k1P5/2K5/8/8/8/8/8 w - - 0 1";
    let ex = explain(&game(Some(fen), ""), "c8=Q");
    assert!(ex.is_legal());
    let after = ex.after().expect("after");
    assert!(after.stalemate);
    assert_eq!(after.automatic_draw, Some(AutomaticDraw::Stalemate));
    let ex = explain(&game(Some(fen), ""), "c8=N");
    assert_eq!(ex.san(), Some("c8=N+"));
    assert!(!ex.after().expect("after").stalemate);
    illegal(fen, "", "c8", &["promotion_required"]);
    illegal(fen, "", "c7c8k", &["bad_promotion_piece"]);
    illegal("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "", "e2e3q", &["bad_promotion_piece"]);
}

#[test]
fn drill_stalemate_and_draws() {
    let r = game(Some("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"), "").report();
    assert!(r.stalemate);
    assert!(explain(&game(Some("7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"), ""), "Kg8").codes()[0] == "game_over");
    let dance = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1";
    let ex = explain(&game(None, dance), "Ng8");
    let after = ex.after().expect("after");
    assert_eq!(after.claimable_draws, vec![DrawClaim::ThreefoldRepetition]);
    assert!(json::report(after).contains(r#""claimable_draws":["threefold_repetition"]"#));
    let j = json::report(&game(None, dance).report());
    assert!(j.contains(r#""claimable_with_move":[{"move":"f6g8","san":"Ng8","draw":"threefold_repetition"}]"#), "{j}");
    // Fifty-move claim at half-move 100; automatic at 150 unless the move mates.
    let ex = explain(&game(Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), ""), "Ra2");
    assert_eq!(ex.after().expect("after").claimable_draws, vec![DrawClaim::FiftyMoves]);
    // (White keeps a mate in one, so the position is not dead before the move: with no mate
    // left before the rule ends the game, it would be dead already, 5.2.2.)
    let ex = explain(&game(Some("4k3/8/4K3/8/8/8/8/R7 w - - 149 100"), ""), "Ra2");
    assert_eq!(ex.after().expect("after").automatic_draw, Some(AutomaticDraw::SeventyFiveMoves));
    let ex = explain(&game(Some("6k1/8/6K1/8/8/8/8/R7 w - - 149 100"), ""), "Ra8");
    let after = ex.after().expect("after");
    assert!(after.checkmate && after.automatic_draw.is_none());
    // K+B v K is dead.
    let ex = explain(&game(Some("4k3/8/8/8/8/8/3r4/2B1K3 w - - 0 1"), ""), "Kxd2");
    let after = ex.after().expect("after");
    assert!(after.dead_position && after.insufficient_material);
    assert!(json::report(after).contains(r#""automatic_draw":"dead_position""#));
}

#[test]
fn basic_codes() {
    let start = None;
    let (_, c, _, _) = ask(start, "", "e3e4");
    assert_eq!(c, vec!["no_piece"]);
    let (_, c, _, _) = ask(start, "", "e7e5");
    assert_eq!(c, vec!["not_your_piece"]);
    let (_, c, _, _) = ask(start, "", "Nd2");
    assert_eq!(c, vec!["own_piece"]);
    let (_, c, _, _) = ask(start, "", "zz");
    assert_eq!(c, vec!["malformed"]);
    let (_, c, _, _) = ask(Some("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"), "", "Nd2");
    assert_eq!(c, vec!["ambiguous"]);
    illegal("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "", "e2e3", &["pawn_forward_capture"]);
    illegal("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "", "e2d3", &["pawn_diagonal_empty"]);
    illegal("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "", "e3e5", &["pawn_double_not_first"]);
    illegal("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "", "e3e2", &["pawn_backward"]);
    illegal("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "", "e2e4", &["path_blocked"]);
    // A king that neither steps nor castles, onto an attacked square: geometry first, then the attack.
    illegal("4k3/8/8/8/8/r7/8/4K3 w - - 0 1", "", "e1e3", &["bad_geometry", "king_into_check"]);
    // King next to the other king.
    illegal("8/7p/8/8/8/3k4/8/4K3 w - - 0 1", "", "Ke2", &["king_into_check"]);
    // 3.1.3: a defender that is itself pinned (the b4 bishop, by the e4 rook) still defends d2.
    let ex = explain(&game(Some("8/8/8/8/kb2R3/8/3n4/4K3 w - - 0 1"), ""), "Kxd2");
    assert_eq!(ex.codes(), vec!["king_into_check"]);
    assert!(matches!(&ex.reasons[0], Reason::KingIntoCheck { pinned_attackers, .. } if pinned_attackers.len() == 1));
    assert!(
        explain_for_uci(&game(Some("8/8/8/8/kb2R3/8/3n4/4K3 w - - 0 1"), ""), "Kxd2", Lang::En)[1].contains("pinned")
    );
}

/// One example of every reason code, so each is rendered in both languages. The match is
/// exhaustive: a new code without an example does not compile.
fn example(code: ReasonCode) -> Reason {
    let sq = |s: &str| Square::parse(s).expect("square");
    let wr = Piece::new(Color::White, PieceType::Rook);
    let wp = Piece::new(Color::White, PieceType::Pawn);
    let wk = Piece::new(Color::White, PieceType::King);
    let br = Piece::new(Color::Black, PieceType::Rook);
    let (e1, e2, f2, e8) = (sq("e1"), sq("e2"), sq("f2"), sq("e8"));
    let m = arbiter::chess::Move::new(e2, f2, arbiter::chess::MoveKind::Quiet);
    use arbiter::chess::CastleSide::{King as KS, Queen as QS};
    let white_oo = Castling::standard(Color::White, KS);
    match code {
        ReasonCode::Malformed => Reason::Malformed { input: "xyz".into() },
        ReasonCode::Ambiguous => {
            Reason::Ambiguous { input: "Nd2".into(), candidates: vec![("Nbd2".into(), m), ("Nfd2".into(), m)] }
        }
        ReasonCode::TwoReadings => {
            Reason::TwoReadings { input: "bc4".into(), pawn: "bxc4".into(), bishop: "Bc4".into() }
        }
        ReasonCode::NoPiece => {
            Reason::NoPiece { from: Some(e2), wanted: None, to: Some(f2), from_file: None, from_rank: None }
        }
        ReasonCode::SameSquare => Reason::SameSquare { piece: wr, square: e2 },
        ReasonCode::BareSquare => Reason::BareSquare { piece: wp, square: e2, moves: vec![("e3".into(), m)] },
        ReasonCode::NotYourPiece => Reason::NotYourPiece { piece: br, from: e8 },
        ReasonCode::GameOver => Reason::GameOver { outcome: Outcome::Checkmate { winner: Color::White } },
        ReasonCode::BadGeometry => Reason::BadGeometry { piece: wr, from: Some(e2), to: sq("f3") },
        ReasonCode::PathBlocked => Reason::PathBlocked { piece: wr, from: e2, to: e8, blocker: (br, sq("e5")) },
        ReasonCode::OwnPiece => Reason::OwnPiece { piece: wr, from: e2, to: f2, occupant: wp },
        ReasonCode::PawnForwardCapture => {
            Reason::PawnForwardCapture { piece: wp, from: e2, to: sq("e3"), occupant: br }
        }
        ReasonCode::PawnDiagonalEmpty => Reason::PawnDiagonalEmpty { piece: wp, from: e2, to: sq("d3") },
        ReasonCode::PawnDoubleNotFirst => Reason::PawnDoubleNotFirst { piece: wp, from: sq("e3"), to: sq("e5") },
        ReasonCode::PawnBackward => Reason::PawnBackward { piece: wp, from: sq("e3"), to: e2, sideways: false },
        ReasonCode::EnPassantExpired => Reason::EnPassantExpired {
            piece: wp,
            from: sq("e5"),
            to: sq("d6"),
            enemy_pawn: sq("d5"),
            plies_ago: Some(3),
        },
        ReasonCode::PromotionRequired => Reason::PromotionRequired { piece: wp, from: sq("e7"), to: e8 },
        ReasonCode::BadPromotionPiece => {
            Reason::BadPromotionPiece { piece: wp, from: sq("e7"), to: e8, promotion: PieceType::King, last_rank: true }
        }
        ReasonCode::CastlingRightsLost => {
            Reason::CastlingRightsLost { castling: white_oo, cause: CastlingLoss::KingMoved }
        }
        ReasonCode::CastlingPathOccupied => {
            Reason::CastlingPathOccupied { castling: white_oo, occupied: vec![(wr, sq("f1"))] }
        }
        ReasonCode::CastlingInCheck => Reason::CastlingInCheck { castling: white_oo, checkers: vec![(br, e8)] },
        ReasonCode::CastlingThroughCheck => Reason::CastlingThroughCheck {
            castling: white_oo,
            square: sq("f1"),
            attackers: vec![(br, sq("f8"))],
            behind_rook: false,
        },
        ReasonCode::CastlingIntoCheck => Reason::CastlingIntoCheck {
            castling: white_oo,
            square: sq("g1"),
            attackers: vec![(br, sq("g8"))],
            behind_rook: false,
        },
        ReasonCode::KingIntoCheck => Reason::KingIntoCheck {
            king: wk,
            from: e1,
            to: sq("d1"),
            attackers: vec![(br, sq("d8"))],
            defended: None,
            pinned_attackers: vec![],
            kings_meet: false,
            only_pinned_attackers: false,
        },
        ReasonCode::LeavesKingInCheck => Reason::LeavesKingInCheck {
            piece: wr,
            from: sq("a1"),
            to: sq("a2"),
            king: e1,
            checkers: vec![(br, e8)],
            double: false,
            unblockable: false,
        },
        ReasonCode::ExposesKing => {
            Reason::ExposesKing { piece: wr, from: e2, to: f2, king: e1, pinner: (br, e8), en_passant: false }
        }
        ReasonCode::PawnAdvance => Reason::PawnAdvance { piece: wp, from: e2, to: sq("e3") },
        ReasonCode::PawnDoubleStep => Reason::PawnDoubleStep { piece: wp, from: e2, to: sq("e4"), passed: sq("e3") },
        ReasonCode::PawnCapture => Reason::PawnCapture { piece: wp, from: e2, to: sq("d3"), captured: br },
        ReasonCode::EnPassant => Reason::EnPassant { piece: wp, from: sq("e5"), to: sq("d6"), captured_on: sq("d5") },
        ReasonCode::Promotion => Reason::Promotion { piece: wp, to: e8, promotion: PieceType::Queen },
        ReasonCode::KnightMove => {
            Reason::KnightMove { piece: Piece::new(Color::White, PieceType::Knight), from: sq("g1"), to: sq("f3") }
        }
        ReasonCode::BishopMove => Reason::BishopMove {
            piece: Piece::new(Color::White, PieceType::Bishop),
            from: sq("f1"),
            to: sq("c4"),
            line: Line::Diagonal,
        },
        ReasonCode::RookMove => Reason::RookMove { piece: wr, from: e2, to: f2, line: Line::Rank },
        ReasonCode::QueenMove => Reason::QueenMove {
            piece: Piece::new(Color::White, PieceType::Queen),
            from: sq("d1"),
            to: sq("h5"),
            line: Line::Diagonal,
        },
        ReasonCode::KingStep => Reason::KingStep { piece: wk, from: e1, to: f2 },
        ReasonCode::CastlingKingside => Reason::CastlingKingside { castling: white_oo },
        ReasonCode::CastlingQueenside => Reason::CastlingQueenside { castling: Castling::standard(Color::Black, QS) },
        ReasonCode::CastlingAttackedRookAllowed => {
            Reason::CastlingAttackedRookAllowed { castling: white_oo, squares: vec![sq("h1")] }
        }
        ReasonCode::Capture => Reason::Capture { piece: wr, from: e2, to: e8, captured: br },
        ReasonCode::PinnedAlongLine => Reason::PinnedAlongLine {
            piece: wr,
            from: e2,
            to: sq("e5"),
            king: e1,
            pinner: (br, e8),
            captures_pinner: false,
        },
        ReasonCode::ResolvesCheck => {
            Reason::ResolvesCheck { piece: wr, to: e2, how: CheckAnswer::Blocks, checkers: vec![(br, e8)] }
        }
        ReasonCode::KingSafe => Reason::KingSafe { king: e1, king_moved: false },
    }
}

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4E00}'..='\u{9FFF}').contains(&c))
}

#[test]
fn every_code_and_note_has_every_language() {
    for code in ReasonCode::ALL {
        let r = example(code);
        assert_eq!(r.code(), code);
        // Every language: its own sentence, citing the article's number.
        let number = r.rule().rsplit(' ').next().unwrap_or_default();
        let texts: Vec<String> = Lang::ALL.iter().map(|&lang| reason_text(&r, lang)).collect();
        for (lang, text) in Lang::ALL.iter().zip(&texts) {
            assert!(text.contains(number), "{code:?} in {}: {text}", lang.code());
        }
        for (i, a) in texts.iter().enumerate() {
            assert!(texts[i + 1..].iter().all(|b| b != a), "{code:?}: two languages say {a}");
        }
        let en = reason_text(&r, Lang::En);
        let zh = reason_text(&r, Lang::Zh);
        assert!(en.ends_with(&format!("(FIDE {})", r.rule())), "{code:?}: {en}");
        let zh_rule = r.rule().replace("Appendix", "附录").replace("Guidelines", "准则");
        assert!(zh.ends_with(&format!("（FIDE {zh_rule}）")), "{code:?}: {zh}");
        assert!(has_han(&zh) && !has_han(&en), "{code:?}");
        assert!(en.len() > 30 && zh.chars().count() > 12, "{code:?}");
    }
    let br = Piece::new(Color::Black, PieceType::Rook);
    let notes = vec![
        Note::ToMove { side: Color::White },
        Note::Check { side: Color::White, checkers: vec![(br, Square::E8)] },
        Note::NotInCheck { side: Color::White },
        Note::LegalMoves { side: Color::White, count: 20 },
        Note::Checkmate { loser: Color::Black },
        Note::Stalemate { side: Color::Black },
        Note::DeadPosition { white: MateReason::BareKing, black: MateReason::InsufficientMaterial },
        Note::DeadPosition { white: MateReason::NoCheck, black: MateReason::NoCheck },
        Note::DeadPosition { white: MateReason::NoMatingSquare, black: MateReason::Exhaustive },
        Note::MatePossible { side: Color::White, fact: MateFact::Winnable { line: "1. Qd8#".into() } },
        Note::MatePossible { side: Color::Black, fact: MateFact::Unwinnable { reason: MateReason::BareKing } },
        Note::MatePossible { side: Color::Black, fact: MateFact::Undetermined { nodes: 2_000_000 } },
        Note::Ruling {
            side: Color::White,
            act: Act::Resignation,
            already_over: None,
            result: "1/2-1/2",
            rule: "5.1.2",
            fact: MateFact::Unwinnable { reason: MateReason::BareKing },
        },
        Note::Ruling {
            side: Color::Black,
            act: Act::FlagFall,
            already_over: None,
            result: "1-0",
            rule: "6.9",
            fact: MateFact::Winnable { line: "1. Qd8#".into() },
        },
        Note::FivefoldRepetition,
        Note::SeventyFiveMoves,
        Note::MateBeatsSeventyFive,
        Note::Repetitions { count: 2 },
        Note::HalfmoveClock { count: 12 },
        Note::ClaimThreefoldNow { side: Color::White, count: 3 },
        Note::ClaimFiftyNow { side: Color::White, count: 100 },
        Note::ClaimWithMove { side: Color::Black, draw: DrawClaim::ThreefoldRepetition, moves: vec!["Ng8".into()] },
    ];
    for n in &notes {
        let texts: Vec<String> = Lang::ALL.iter().map(|&lang| note_text(n, lang)).collect();
        for (i, a) in texts.iter().enumerate() {
            assert!(!a.is_empty() && texts[i + 1..].iter().all(|b| b != a), "{n:?}: {a}");
        }
        let (en, zh) = (note_text(n, Lang::En), note_text(n, Lang::Zh));
        assert!(en.contains("(FIDE ") && zh.contains("（FIDE "), "{n:?}");
        assert!(has_han(&zh) && !has_han(&en), "{n:?}");
    }
    // The usual Chinese terms are used.
    let all_zh: String = ReasonCode::ALL
        .iter()
        .map(|&c| reason_text(&example(c), Lang::Zh))
        .chain(notes.iter().map(|n| note_text(n, Lang::Zh)))
        .collect();
    for term in
        ["将军", "将杀", "逼和", "王车易位", "吃过路兵", "升变", "牵制", "三次重复", "五十回合", "子力不足", "死局"]
    {
        assert!(all_zh.contains(term), "missing term {term}");
    }
}

/// Chess960 castling (FIDE Laws, Guidelines II.3): any king and rook files, the rook may
/// jump over the king, king or rook may already stand on its destination; written `O-O`,
/// `O-O-O` or, in Chess960 mode, as the king taking its own rook.
#[test]
fn chess960_castling() {
    // King b1, rooks a1 and h1 (Shredder-FEN): both castlings legal, the a-rook jumps over the king.
    let fen = "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1";
    for (mv, code) in [("O-O", "castling_kingside"), ("b1h1", "castling_kingside"), ("O-O-O", "castling_queenside")] {
        let ex = explain(&game(Some(fen), ""), mv);
        assert!(ex.is_legal(), "{mv}: {:?}", ex.codes());
        assert_eq!(ex.codes()[0], code);
        assert_eq!(ex.reasons[0].rule(), "Guidelines II.3");
        let en = reason_text(&ex.reasons[0], Lang::En);
        assert!(en.starts_with("Chess960 castling") && en.ends_with("(FIDE Guidelines II.3)"), "{en}");
        assert!(reason_text(&ex.reasons[0], Lang::Zh).ends_with("（FIDE 准则 II.3）"));
    }
    assert_eq!(explain(&game(Some(fen), ""), "O-O-O").legal.map(|l| l.mv.to_uci()), Some("b1a1".into()));
    // The king's two-square move is not how Chess960 castling is written: a king step that is too long.
    illegal(fen, "", "b1d1", &["bad_geometry"]);
    // A piece on the way: everything between king and c1 and between rook and d1 must be empty.
    illegal("rk5r/8/8/8/8/8/8/RK1N3R w HAha - 0 1", "", "O-O-O", &["castling_path_occupied"]);
    let ex = explain(&game(Some("rk5r/8/8/8/8/8/8/RK1N3R w HAha - 0 1"), ""), "b1a1");
    assert!(reason_text(&ex.reasons[0], Lang::En).contains("except for that king and rook"));
    // The king stays on c1, the rook leaves b1 for d1: the queen on a1 then attacks c1.
    let behind = "6k1/8/8/8/8/8/8/qRK5 w B - 0 1";
    illegal(behind, "", "O-O-O", &["castling_into_check"]);
    let ex = explain(&game(Some(behind), ""), "c1b1");
    assert!(matches!(ex.reasons[0], Reason::CastlingIntoCheck { behind_rook: true, .. }));
    let en = reason_text(&ex.reasons[0], Lang::En);
    assert!(en.contains("stay on c1") && en.contains("once the rook has left b1"), "{en}");
    // Only the rook moves: the king stays on g1.
    let ex = explain(&game(Some("6k1/8/8/8/8/8/8/6KR w H - 0 1"), ""), "O-O");
    assert!(ex.is_legal());
    assert!(reason_text(&ex.reasons[0], Lang::En).contains("the king stays on g1 and the rook goes from h1 to f1"));
    // Rights lost by moving the rook, in a Chess960 game.
    illegal(fen, "h1h2 h8h7 h2h1 h7h8", "O-O", &["castling_rights_lost"]);
    illegal(fen, "h1h2 h8h7 h2h1 h7h8", "b1h1", &["castling_rights_lost"]);
}

#[test]
fn uci_lines_never_change_the_game() {
    let g = game(None, "e4 e5");
    let key = g.current().key();
    let lines = explain_for_uci(&g, "Ke2", Lang::Zh);
    assert!(lines[0].starts_with("合法着法：Ke2（e1e2）"), "{lines:?}");
    assert_eq!(g.current().key(), key);
    assert_eq!(g.moves().len(), 2);
    let report = explain_for_uci(&g, "", Lang::En);
    assert!(report[0].starts_with("Position: "));
}

#[test]
fn cli_exit_codes_and_outputs() {
    let (rc, out, _) = explain_cli(&["--fen", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "Re2f2"]);
    assert_eq!(rc, 0);
    assert!(out.starts_with("Illegal: Re2f2 (e2f2)."), "{out}");
    let (rc, out, _) = explain_cli(&["--json", "e4"]);
    assert_eq!(rc, 0);
    assert!(
        out.starts_with(r#"{"input":"e4","uci":"e2e4","san":"e4","legal":true,"reasons":[{"code":"pawn_double_step""#),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1);
    let (rc, out, _) = explain_cli(&["--json"]);
    assert_eq!(rc, 0);
    assert!(out.starts_with(r#"{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","side_to_move":"white","check":false,"checkers":[],"legal_moves":20,"checkmate":false,"stalemate":false,"insufficient_material":false,"dead_position":false,"automatic_draw":null,"claimable_draws":[]"#), "{out}");
    for nonsense in [&["hello"][..], &["e2e9"], &["Qxz9"], &["O-O-O-O"], &["exd6", "e.p."], &["--lang", "zh", "K"]] {
        let (rc, out, err) = explain_cli(nonsense);
        assert_eq!(rc, 0, "{nonsense:?}: {err}");
        assert!(!out.is_empty() && !err.contains("panicked"), "{nonsense:?}");
    }
    for unusable in [
        &["--fen", "junk", "e4"][..],
        &["--moves", "e4 e4", "d4"],
        &["--moves", "e4 zz"],
        &["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["--lang", "fr", "e4"],
    ] {
        let (rc, out, err) = explain_cli(unusable);
        assert_eq!(rc, 2, "{unusable:?}");
        assert!(out.is_empty() && err.starts_with("error: "), "{unusable:?}: {out} / {err}");
    }
    let dir = std::env::temp_dir().join(format!("arbiter-explain-{}.svg", std::process::id()));
    let path = dir.to_string_lossy().to_string();
    let (rc, _, _) = explain_cli(&["--fen", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "--svg", &path, "Re2f2"]);
    assert_eq!(rc, 0);
    let svg = std::fs::read_to_string(&dir).expect("svg written");
    let _ = std::fs::remove_file(&dir);
    assert!(svg.starts_with("<svg") && svg.contains("marker-end") && svg.contains("stroke-dasharray"));
}

#[test]
fn every_square_pair_gets_the_generators_verdict_and_a_reason() {
    use arbiter::chess::{movegen, notation};
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
        "4r1k1/8/8/8/1b6/8/8/R3K3 w - - 0 1",
    ];
    for fen in fens {
        let g = game(Some(fen), "");
        let pos = *g.current();
        for from in Square::all() {
            for to in Square::all() {
                for promo in ["", "q", "n", "k"] {
                    let text = format!("{from}{to}{promo}");
                    let ex = explain(&g, &text);
                    let by_gen = notation::parse_uci_squares(&text)
                        .and_then(|(f, t, p)| movegen::find_move(&pos, f, t, p))
                        .is_some();
                    assert_eq!(ex.is_legal(), by_gen, "{text} in {fen}: {:?}", ex.codes());
                    assert!(!ex.reasons.is_empty(), "{text} in {fen}");
                    assert_eq!(ex.is_legal(), ex.reasons.iter().all(|r| !r.code().is_illegal()), "{text} in {fen}");
                }
            }
        }
        for m in movegen::legal_moves(&pos).iter() {
            let san = notation::to_san(&pos, *m);
            let ex = explain(&g, &san);
            assert!(ex.is_legal() && ex.legal_move() == Some(*m), "{san} in {fen}");
        }
    }
}

#[test]
fn nonsense_never_panics() {
    let g = game(None, "e4 e5 Nf3");
    let samples = [
        "",
        " ",
        "e",
        "e2",
        "e2e",
        "e2e4e4",
        "Z",
        "Kxx",
        "O-O-O-O",
        "0-0-0-0",
        "==",
        "e8==Q",
        "Nb",
        "Nbb",
        "N1",
        "R11e2",
        "Qh4e1e1",
        "xe4",
        "x",
        "+",
        "#",
        "!!",
        "e.p.",
        "exd6 e.p. e.p.",
        "♔e2",
        "é4",
        "e4\u{0}",
        "1. e4",
        "...e5",
        "P",
        "Pe4",
        "Ke9",
        "a0a1",
        "h8h9",
        "e7e8x",
        "e7e8=",
        "ex",
        "dxe5",
        "bxc3",
        "Bb5+",
        "Ng5!?",
        "O-O+",
        "Kd8",
        "Qxf7#",
    ];
    for s in samples {
        let ex = explain(&g, s);
        for lang in Lang::ALL {
            let lines = explain_for_uci(&g, s, lang);
            assert!(!lines.is_empty(), "{s:?}");
            let _ = json::explanation(&ex, lang);
            let _ = arbiter::explain::svg::explanation_svg(&g, &ex, lang);
        }
    }
}

#[test]
fn a_frozen_pawn_wall_is_explained_as_a_dead_position() {
    // g3-g4 closes the last file: no king can ever get at a pawn, no check can be given.
    let g = game(Some("8/8/3k4/p1p1p1p1/P1P1P3/3K2P1/8/8 w - - 0 1"), "");
    assert!(!g.report().dead_position);
    let g = game(Some("8/8/3k4/p1p1p1p1/P1P1P3/3K2P1/8/8 w - - 0 1"), "g4");
    let r = g.report();
    assert!(r.dead_position && !r.insufficient_material);
    assert_eq!(r.dead_reason, Some(DeadReason { white: MateReason::NoCheck, black: MateReason::NoCheck }));
    assert_eq!(r.automatic_draw, Some(AutomaticDraw::DeadPosition));
    assert!(json::report(&r).contains(r#""dead_position":true,"automatic_draw":"dead_position""#));
    let en = explain_for_uci(&g, "", Lang::En).join("\n");
    assert!(en.contains("the pawns are blocked for good") && en.contains("5.2.2"), "{en}");
    let zh = explain_for_uci(&g, "", Lang::Zh).join("\n");
    assert!(zh.contains("死局") && zh.contains("永久封锁"), "{zh}");
    // Any move after it is refused: the game is over.
    let lines = explain_for_uci(&g, "Kd2", Lang::En);
    assert!(lines[0].contains("illegal") || lines.iter().any(|l| l.contains("over")), "{lines:?}");
}

/// Issue #37: castling written the other convention's way, and `--chess960` for the tools
/// that read a position.
#[test]
fn castling_written_the_other_way_and_chess960_on_the_command_line() {
    // A Chess960 position (reached in a 960 game) whose king starts on e1 and rooks on a1/h1.
    let fen960 = "3qk1br/nrpnpp2/1p6/p2p2pp/1PPb1PBP/4P3/P2P2PB/RNNQK2R w KQk - 2 12";
    let (code, out, _) = explain_cli(&["--chess960", "--fen", fen960, "e1h1"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Legal: O-O (e1h1), white king, castling king-side."), "{out}");
    // Without it the position reads as standard chess: e1h1 is a king move onto its own rook,
    // with a note that this is how Chess960 writes O-O, written e1g1 here.
    let (_, out, _) = explain_cli(&["--fen", fen960, "e1h1"]);
    assert!(out.starts_with("Illegal: e1h1."), "{out}");
    assert!(out.contains("is how Chess960 writes castling; in standard chess O-O is written e1g1"), "{out}");
    let (_, zh, _) = explain_cli(&["--fen", fen960, "e1h1", "--lang", "zh"]);
    assert!(zh.contains("是 Chess960 的王车易位写法；标准国际象棋中 O-O 写作 e1g1"), "{zh}");
    let (_, json, _) = explain_cli(&["--fen", fen960, "e1h1", "--json"]);
    assert!(
        json.contains(r#""castling_writing":{"side":"kingside","castling":"e1g1","chess960":false,"text":"#),
        "{json}"
    );
    // In Chess960 mode e8g8 is a king move; castling is written e8h8 there.
    let italian = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4";
    let (_, out, _) = explain_cli(&["--chess960", "--fen", italian, "e8g8"]);
    assert!(out.contains("castling is written as the king taking its own rook: O-O is e8h8 here"), "{out}");
    let (_, out, _) = explain_cli(&["--fen", italian, "e8g8"]);
    assert!(out.starts_with("Legal: O-O (e8g8)") && !out.contains("Chess960"), "{out}");
    // A castling the position does not allow gets no note.
    let (_, out, _) = explain_cli(&["--fen", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1h1"]);
    assert!(!out.contains("Chess960"), "{out}");
    // The same in the UCI loop with UCI_Chess960.
    let mut e = crate::common::Engine::start();
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {italian}"));
    e.send("explain e8g8");
    e.wait_for("the castling note", std::time::Duration::from_secs(20), |l| l.contains("O-O is e8h8 here"));
    e.send("quit");
    // `unwinnable` takes --chess960 too (a castling in a helpmate is written king takes rook).
    let (code, _, err) = crate::common::arbiter_cli(&["unwinnable", "--chess960", "--fen", fen960]);
    assert_eq!(code, 0, "{err}");
}

/// Issue #37: a pawn capture named by the pawn letter (`Pxd5`) is the pawn that can take
/// there, never "no pawn could move to d5"; a promotion without its letter suggests the
/// capture's SAN.
#[test]
fn pawn_letter_captures_and_promotion_suggestions() {
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    let (_, out, _) = explain_cli(&["--fen", fen, "Pxd5"]);
    assert!(out.starts_with("Legal: exd5 (e4d5)") && out.contains("\"Pxd5\" is read as exd5."), "{out}");
    let (_, zh, _) = explain_cli(&["--fen", fen, "Pxd5", "--lang", "zh"]);
    assert!(zh.contains("exd5") && !zh.contains("没有"), "{zh}");
    // En passant.
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let (_, out, _) = explain_cli(&["--fen", ep, "Pxf6"]);
    assert!(out.starts_with("Legal: exf6 (e5f6), white pawn, en passant capture."), "{out}");
    // Two pawns can take: ambiguous, both named.
    let two = "rnbqkbnr/ppp1pppp/8/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq d6 0 2";
    let (_, out, _) = explain_cli(&["--fen", two, "Pxd5"]);
    assert!(out.starts_with("Illegal: Pxd5.") && out.contains("(cxd5 or exd5)"), "{out}");
    // None can: the sentence names the pawns that attack d5 (there are none), not the d-file.
    let none = "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2";
    let (_, out, _) = explain_cli(&["--fen", none, "Pxd5"]);
    assert!(out.starts_with("Illegal: Pxd5."), "{out}");
    // b7a8 without the letter: the example is the capture's SAN.
    let promo = "rn2k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    let (_, out, _) = explain_cli(&["--fen", promo, "b7a8"]);
    assert!(out.contains("say which, for example bxa8=Q."), "{out}");
    let (_, zh, _) = explain_cli(&["--fen", promo, "b7a8", "--lang", "zh"]);
    assert!(zh.contains("例如 bxa8=Q"), "{zh}");
    let (_, out, _) = explain_cli(&["--fen", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8"]);
    assert!(out.contains("for example b8=Q."), "{out}");
}

/// Issue #37: `--svg` with `--resign` / `--flag` draws the position and the ruling.
#[test]
fn a_ruling_is_drawn_with_svg() {
    let path = std::env::temp_dir().join(format!("arbiter-ruling-{}.svg", std::process::id()));
    let lone = "4k3/8/8/q7/8/8/8/6K1 w - - 0 1";
    let (code, out, _) = explain_cli(&["--fen", lone, "--resign", "black", "--svg", path.to_str().expect("path")]);
    assert_eq!(code, 0);
    let svg = std::fs::read_to_string(&path).expect("the diagram was written");
    assert!(out.starts_with("If Black resigns now") && svg.starts_with("<svg") && svg.contains("If Black resigns now"));
    let (code, _, _) = explain_cli(&["--fen", lone, "--flag", "white", "--svg", "/nonexistent/dir/x.svg"]);
    assert_eq!(code, 1);
    let _ = std::fs::remove_file(path);
}

/// Issue #37: the UCI `explain` report runs off the input thread, so a `stop` during
/// `go infinite` is not held up by it; `isready` still answers only once the report is out.
#[test]
fn uci_explain_does_not_hold_up_stop() {
    let mut e = crate::common::Engine::start();
    e.send("position fen 8/8/3Pb3/1P6/4BQ2/8/PP4P1/2K3k1 w - - 1 47");
    e.send("go infinite");
    e.send("explain");
    e.send("stop");
    e.wait_for("bestmove", std::time::Duration::from_secs(30), |l| l.starts_with("bestmove"));
    e.send("isready");
    e.wait_for("readyok", std::time::Duration::from_secs(60), |l| l == "readyok");
    let report =
        e.seen.iter().position(|l| l.contains("Black can still checkmate") || l.contains("Black can no longer"));
    let ready = e.seen.iter().position(|l| l == "readyok");
    assert!(report.is_some() && report < ready, "{:?}", e.seen);
    e.send("quit");
}
