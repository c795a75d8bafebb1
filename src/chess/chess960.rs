//! Chess960 start positions by their standard number 0-959 (Scharnagl's numbering, used
//! by FIDE's Chess960 rules and every GUI): 518 is the standard array RNBQKBNR.

use super::position::Position;
use super::types::PieceType;

/// The number of Chess960 start positions.
pub const COUNT: u16 = 960;

/// The number of the standard initial position.
pub const STANDARD: u16 = 518;

/// White's back rank of start position `n` (0..960), a1 first, or None when out of range.
/// `n` in base 4, 4, 6 then 10: the light-squared bishop (b, d, f, h), the dark-squared
/// bishop (a, c, e, g), the queen on the n-th empty square, the knights' pair among the five
/// squares left; the king takes the middle of the last three and the rooks the others.
pub fn back_rank(n: u16) -> Option<[PieceType; 8]> {
    if n >= COUNT {
        return None;
    }
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let mut rank: [Option<PieceType>; 8] = [None; 8];
    let n = n as usize;
    rank[2 * (n % 4) + 1] = Some(PieceType::Bishop);
    rank[2 * (n / 4 % 4)] = Some(PieceType::Bishop);
    let place_on_empty = |rank: &mut [Option<PieceType>; 8], index: usize, piece: PieceType| {
        if let Some(f) = (0..8).filter(|&f| rank[f].is_none()).nth(index) {
            rank[f] = Some(piece);
        }
    };
    place_on_empty(&mut rank, n / 16 % 6, PieceType::Queen);
    let (a, b) = KNIGHTS[n / 96];
    // The second knight's index counts the squares left after the first is placed.
    place_on_empty(&mut rank, a, PieceType::Knight);
    place_on_empty(&mut rank, b - 1, PieceType::Knight);
    for piece in [PieceType::Rook, PieceType::King, PieceType::Rook] {
        place_on_empty(&mut rank, 0, piece);
    }
    let mut out = [PieceType::Pawn; 8];
    for (o, p) in out.iter_mut().zip(rank) {
        *o = p?;
    }
    Some(out)
}

/// The FEN of start position `n`, castling rights in X-FEN (`KQkq`), or None when out of range.
pub fn start_fen(n: u16) -> Option<String> {
    let white: String = back_rank(n)?.iter().map(|p| p.san_char()).collect();
    Some(format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1", white.to_ascii_lowercase()))
}

/// Start position `n` in Chess960 mode (castling written king-takes-rook), or None when out of range.
pub fn start_position(n: u16) -> Option<Position> {
    let mut pos = Position::from_fen(&start_fen(n)?).ok()?;
    pos.set_chess960(true);
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank_text(n: u16) -> String {
        back_rank(n).unwrap().iter().map(|p| p.san_char()).collect()
    }

    #[test]
    fn known_numbers() {
        // Published values (Wikipedia "Fischer random chess numbering scheme", python-chess).
        assert_eq!(rank_text(518), "RNBQKBNR");
        assert_eq!(rank_text(0), "BBQNNRKR");
        assert_eq!(rank_text(1), "BQNBNRKR");
        assert_eq!(rank_text(2), "BQNNRBKR");
        assert_eq!(rank_text(100), "QBBNRNKR");
        assert_eq!(rank_text(400), "BBRQNNKR");
        assert_eq!(rank_text(959), "RKRNNQBB");
        assert_eq!(back_rank(960), None);
    }

    #[test]
    fn every_number_is_a_distinct_legal_start() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..COUNT {
            let r = back_rank(n).unwrap();
            assert!(seen.insert(r), "{n} repeats");
            let files = |p: PieceType| (0..8).filter(move |&f| r[f] == p);
            let bishops: Vec<usize> = files(PieceType::Bishop).collect();
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            let rooks: Vec<usize> = files(PieceType::Rook).collect();
            let king = files(PieceType::King).next().unwrap();
            assert!(rooks[0] < king && king < rooks[1], "{n}: king not between the rooks");
            assert_eq!(files(PieceType::Knight).count(), 2);
            assert_eq!(files(PieceType::Queen).count(), 1);
            let pos = start_position(n).unwrap();
            assert!(pos.is_chess960());
            assert_eq!(crate::chess::movegen::legal_moves(&pos).len(), legal_count_hint(&r));
        }
        assert_eq!(start_position(STANDARD).unwrap().to_fen(), crate::chess::STARTPOS_FEN);
    }

    /// 16 pawn moves, two for each knight (one on the a- or h-file), and castling at once
    /// where king and rook stand on each other's destinations (Kd1 Rc1, Kf1 Rg1).
    fn legal_count_hint(r: &[PieceType; 8]) -> usize {
        let knights: usize =
            (0..8).filter(|&f| r[f] == PieceType::Knight).map(|f| if f == 0 || f == 7 { 1 } else { 2 }).sum();
        let swap = |k: usize, rook: usize| usize::from(r[k] == PieceType::King && r[rook] == PieceType::Rook);
        16 + knights + swap(3, 2) + swap(5, 6)
    }
}
