//! Scores: centipawns from the side to move's point of view, with mates encoded as
//! `MATE - plies` so that shorter mates score higher.

/// Score of being mated at the root (negated) / mating at the root.
pub const MATE: i32 = 32000;
/// Larger than any score the search can produce.
pub const INFINITE: i32 = 32001;
/// The deepest ply the search ever reaches.
pub const MAX_PLY: usize = 128;
/// Any score at or above this is a forced mate.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32 * 2;
/// The score of a drawn position.
pub const DRAW: i32 = 0;

/// Being checkmated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Mating at `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A score as a GUI sees it: centipawns, or mate in N moves (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the engine's (side to move's) point of view.
    Cp(i32),
    /// Mate in this many full moves; negative when the side to move is mated; `Mate(0)`
    /// means the side to move is checkmated now.
    Mate(i32),
}

impl Score {
    /// The same score seen by the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }

    /// Converts an internal search score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_IN_MAX {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_IN_MAX {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

impl std::fmt::Display for Score {
    /// UCI form: `cp X` or `mate N`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn uci_mate_numbers() {
        assert_eq!(Score::from_internal(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_internal(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_internal(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_internal(-35), Score::Cp(-35));
    }
}
