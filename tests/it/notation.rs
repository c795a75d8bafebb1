//! SAN and long algebraic: everything a person or a PGN file writes parses, and printed
//! SAN has minimal disambiguation and the right suffix.

use arbiter::chess::notation::{parse_move, parse_san, to_san, SanError};
use arbiter::chess::Position;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect(fen)
}

fn uci(p: &Position, text: &str) -> String {
    parse_move(p, text).map(|m| m.to_uci()).unwrap_or_else(|e| format!("error: {e}"))
}

#[test]
fn parses_what_people_write() {
    let start = Position::startpos();
    assert_eq!(uci(&start, "e4"), "e2e4");
    assert_eq!(uci(&start, "Nf3"), "g1f3");
    assert_eq!(uci(&start, "Nf3!?"), "g1f3");
    assert_eq!(uci(&start, "e2e4"), "e2e4");
    assert_eq!(uci(&start, "Ng1-f3"), "g1f3");
    assert_eq!(uci(&start, "e2-e4"), "e2e4");
    let knights = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(uci(&knights, "Nbd2"), "b1d2");
    assert_eq!(uci(&knights, "Nfd2"), "f3d2");
    let rooks = pos("k7/8/8/8/8/4R3/8/4R1K1 w - - 0 1");
    assert_eq!(uci(&rooks, "R1e2"), "e1e2");
    assert_eq!(uci(&rooks, "R3e2"), "e3e2");
    let queens = pos("1k6/8/8/8/4Q2Q/8/K7/7Q w - - 0 1");
    assert_eq!(uci(&queens, "Qh4e1"), "h4e1");
    // A stray capture sign is tolerated, as PGN readers do.
    assert_eq!(uci(&queens, "Qh4xe1"), "h4e1");
    let ep = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(uci(&ep, "exd6"), "e5d6");
    assert_eq!(uci(&ep, "exd6 e.p."), "e5d6");
    assert_eq!(uci(&ep, "exd6e.p."), "e5d6");
    let promo = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(uci(&promo, "e8=Q"), "e7e8q");
    assert_eq!(uci(&promo, "e8Q+"), "e7e8q");
    assert_eq!(uci(&promo, "e8=N"), "e7e8n");
    assert_eq!(uci(&promo, "e7e8r"), "e7e8r");
    let castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(uci(&castle, "O-O"), "e1g1");
    assert_eq!(uci(&castle, "0-0-0"), "e1c1");
    assert_eq!(uci(&castle, "O-O-O+"), "e1c1");
    for suffix in ["!", "?", "!!", "??", "!?", "?!", "+", "#"] {
        assert_eq!(uci(&start, &format!("d4{suffix}")), "d2d4", "suffix {suffix}");
    }
}

#[test]
fn ambiguous_and_impossible_san_are_errors_naming_candidates() {
    let knights = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    match parse_san(&knights, "Nd2") {
        Err(SanError::Ambiguous { candidates, .. }) => assert_eq!(candidates, vec!["Nbd2", "Nfd2"]),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    let msg = parse_san(&knights, "Nd2").unwrap_err().to_string();
    assert!(msg.contains("Nbd2") && msg.contains("Nfd2"), "{msg}");
    assert!(matches!(parse_san(&Position::startpos(), "e5"), Err(SanError::Illegal(_))));
    assert!(matches!(parse_san(&Position::startpos(), "Qxf7"), Err(SanError::Illegal(_))));
    for junk in ["", "hello", "Zf3", "e9", "O-O-O-O", "N", "exd", "e8=", "??"] {
        assert!(matches!(parse_san(&Position::startpos(), junk), Err(SanError::Malformed(_))), "{junk:?}");
    }
    // A promotion must name its piece.
    let promo = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert!(parse_san(&promo, "e8").is_err());
}

#[test]
fn prints_minimal_correct_san() {
    let san = |fen: &str, text: &str| {
        let p = pos(fen);
        let m = parse_move(&p, text).expect(text);
        to_san(&p, m)
    };
    assert_eq!(san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"), "Nbd2");
    assert_eq!(san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3e5"), "Ne5");
    assert_eq!(san("k7/8/8/8/8/4R3/8/4R1K1 w - - 0 1", "e1e2"), "R1e2");
    assert_eq!(san("1k6/8/8/8/4Q2Q/8/K7/7Q w - - 0 1", "h4e1"), "Qh4e1");
    assert_eq!(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6"), "exd6");
    assert_eq!(san("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), "e8=Q+");
    assert_eq!(san("7k/8/5KQ1/8/8/8/8/8 w - - 0 1", "g6g7"), "Qg7#");
    assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), "O-O-O");
    assert_eq!(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
    // A pinned rival does not need disambiguating: only legal moves count.
    assert_eq!(san("4k3/4r3/8/8/8/2N1N3/8/4K3 w - - 0 1", "c3d5"), "Nd5");
}
