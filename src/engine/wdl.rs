//! Win/draw/loss from a score (`UCI_ShowWDL`): how often Arbiter, playing itself, went on to
//! win, draw or lose from positions where its search reported that score, as a function of
//! the score and of the material left (a score means more when fewer pieces remain).
//!
//! The model is logistic, as Stockfish's win-rate model: from the side to move's view,
//! `P(win) = 1 / (1 + exp((a - v) / b))` and `P(loss) = 1 / (1 + exp((a + v) / b))` for a
//! score of `v` centipawns, with `a` (the score that wins half the games) and `b` (how
//! quickly certainty grows) quadratic in `x = material / 58` (material counted P=1, N=B=3,
//! R=5, Q=9, both sides, clamped to 17..=78). The coefficients are fitted to self-play
//! results by `scripts/fit_wdl.py` and written to `wdl_fit.rs` (see docs/engine.md).

use super::score::Score;
use super::wdl_fit::{A, B};
use crate::chess::{PieceType, Position};

/// Per mille, from the side to move's view; the three add up to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

/// Material on the board as the model counts it.
pub fn material(pos: &Position) -> u32 {
    [(PieceType::Pawn, 1), (PieceType::Knight, 3), (PieceType::Bishop, 3), (PieceType::Rook, 5), (PieceType::Queen, 9)]
        .iter()
        .map(|&(pt, v)| pos.pieces(pt).count() * v)
        .sum()
}

fn poly(c: &[f64; 3], x: f64) -> f64 {
    c[0] + x * (c[1] + x * c[2])
}

/// The model's win probability for score `cp` with `material` on the board.
fn win_rate(cp: f64, material: u32) -> f64 {
    let x = f64::from(material.clamp(17, 78)) / 58.0;
    let (a, b) = (poly(&A, x), poly(&B, x).max(1.0));
    1.0 / (1.0 + ((a - cp) / b).exp())
}

/// The expected outcome of a position with this score and this much material.
pub fn wdl(score: Score, material: u32) -> Wdl {
    match score {
        Score::Mate(m) if m > 0 => Wdl { win: 1000, draw: 0, loss: 0 },
        Score::Mate(_) => Wdl { win: 0, draw: 0, loss: 1000 },
        Score::Cp(cp) => {
            let cp = f64::from(cp.clamp(-4000, 4000));
            let win = (1000.0 * win_rate(cp, material)).round() as u32;
            let loss = ((1000.0 * win_rate(-cp, material)).round() as u32).min(1000 - win);
            Wdl { win, draw: 1000 - win - loss, loss }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_map_to_sensible_outcomes() {
        for m in [17, 30, 58, 78] {
            let even = wdl(Score::Cp(0), m);
            assert_eq!(even.win, even.loss, "{m}: {even:?}");
            assert!(even.draw > even.win, "{m}: {even:?}");
            let mut prev = even;
            for cp in (50..=2000).step_by(50) {
                let w = wdl(Score::Cp(cp), m);
                assert_eq!(w.win + w.draw + w.loss, 1000);
                assert!(w.win >= prev.win && w.loss <= prev.loss, "{m} {cp}: {w:?}");
                let mirrored = wdl(Score::Cp(-cp), m);
                assert_eq!((mirrored.win, mirrored.loss), (w.loss, w.win));
                prev = w;
            }
            assert!(prev.win > 900, "{m}: +20 pawns wins: {prev:?}");
        }
        assert_eq!(wdl(Score::Mate(3), 40), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(wdl(Score::Mate(-1), 40), Wdl { win: 0, draw: 0, loss: 1000 });
        assert_eq!(wdl(Score::Mate(0), 40).loss, 1000);
    }

    #[test]
    fn material_is_counted_as_the_model_expects() {
        assert_eq!(material(&Position::startpos()), 78);
        let p = Position::from_fen("4k3/8/8/8/8/8/4P3/R3K3 w Q - 0 1").unwrap();
        assert_eq!(material(&p), 6);
    }
}
