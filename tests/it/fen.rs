//! FEN parsing: round trips and every error case, never a panic.

use arbiter::chess::fen::epd_fen;
use arbiter::chess::{Color, FenError, Position, Rank, Square};

#[test]
fn round_trips() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2",
        "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
        "4k3/8/8/8/8/8/8/4K2R w K - 47 112",
    ] {
        assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
    }
}

#[test]
fn accepts_what_guis_send() {
    let p = Position::from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq  -  ").unwrap();
    assert_eq!(p.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 3").unwrap();
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (3, 1));
}

/// The FEN of an EPD line (openings, `unwinnable --epd`): the counters when there are, the
/// operations dropped, too short a line refused.
#[test]
fn epd_lines() {
    let kings = "4k3/8/8/8/8/8/8/4K3 w - -";
    assert_eq!(epd_fen(&format!("{kings} 12 40")).as_deref(), Some(&*format!("{kings} 12 40")));
    assert_eq!(epd_fen(&format!("{kings} bm Kd2; id \"x\";")).as_deref(), Some(kings));
    assert_eq!(epd_fen(&format!("{kings} 12")).as_deref(), Some(kings));
    assert_eq!(epd_fen("4k3/8/8/8/8/8/8/4K3 w -"), None);
    let p = Position::from_fen(&epd_fen(&format!("{kings} id 7")).unwrap()).unwrap();
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (0, 1));
}

fn err(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

#[test]
fn every_error_case_is_typed() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("8/8/8/8/8/8/8/8 w"), FenError::FieldCount(2));
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"), FenError::FieldCount(7));
    assert_eq!(err("4k3/8/8/8/8/8/4K3 w - - 0 1"), FenError::RankCount(7));
    assert_eq!(err("4k3/8/8/8/8/8/8/4X3 w - - 0 1"), FenError::BadPieceChar { rank: Rank::R1, ch: 'X' });
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3p w - - 0 1"), FenError::RankTooLong { rank: Rank::R1 });
    assert_eq!(err("4k3/8/8/8/8/8/8/4K2 w - - 0 1"), FenError::RankTooShort { rank: Rank::R1, files: 7 });
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3/ w - - 0 1"), FenError::RankCount(9));
    assert_eq!(err("4k3/8/8/8/8/8/8/8 w - - 0 1"), FenError::KingCount { color: Color::White, count: 0 });
    assert_eq!(err("4k2k/8/8/8/8/8/8/4K3 w - - 0 1"), FenError::KingCount { color: Color::Black, count: 2 });
    assert_eq!(err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"), FenError::PawnOnBackRank { square: Square::A1 });
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), FenError::BadSideToMove("x".into()));
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w KX - 0 1"), FenError::BadCastling("KX".into()));
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), FenError::CastlingWithoutPieces { right: 'K' });
    assert_eq!(err("4k3/8/8/8/8/8/8/R3K3 w q - 0 1"), FenError::CastlingWithoutPieces { right: 'q' });
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w - z9 0 1"), FenError::BadEnPassant("z9".into()));
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        FenError::ImpossibleEnPassant { square: Square::parse("e6").unwrap() }
    );
    assert_eq!(
        err("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1"),
        FenError::ImpossibleEnPassant { square: Square::parse("e3").unwrap() }
    );
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w - - x 1"), FenError::BadHalfmoveClock("x".into()));
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 -3"), FenError::BadFullmoveNumber("-3".into()));
    assert_eq!(err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), FenError::OpponentInCheck);
    assert_eq!(err("8/8/8/8/8/8/3k4/3K4 w - - 0 1"), FenError::OpponentInCheck);
    assert_eq!(err("4r2k/8/8/8/1b6/3n4/8/4K3 w - - 0 1"), FenError::TooManyCheckers);
}

#[test]
fn hostile_input_never_panics() {
    let samples = [
        "/",
        "////////",
        "9/8/8/8/8/8/8/8 w - - 0 1",
        "0k6/8/8/8/8/8/8/K7 w - - 0 1",
        "\u{0}\u{ffff}",
        "k7/8/8/8/8/8/8/K7 w - - 99999999999 1",
        "k7/8/8/8/8/8/8/K7 w KQkqKQkq - 0 1",
    ];
    for s in samples {
        let _ = Position::from_fen(s);
    }
}
