//! From piece squares to a table index: the Syzygy position encoding.
//!
//! A table stores one value per index. The index of a position is built from groups of
//! pieces: a leading group (pieces: the two kings, plus a third unique piece when
//! there is one; pawn tables: the pawns of the leading colour), then each further
//! group of like pieces as a combination of the squares still free. Symmetry is used
//! to keep the tables small: without pawns the board is mirrored so that the leading
//! piece stands in the a1-d1-d4 triangle; with pawns only left-right, so that the
//! leading pawn is on files a-d (one sub-table per file).
//!
//! The tables below are computed at compile time from their definitions.

/// Binomial coefficients `BINOMIAL[k][n]` = n choose k, for k up to 7 and n up to 63.
const BINOMIAL: [[u64; 64]; 8] = {
    let mut t = [[0u64; 64]; 8];
    let mut n = 0;
    while n < 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k < 8 {
            t[k][n] = if n == 0 { 0 } else { t[k - 1][n - 1] + t[k][n - 1] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// n choose k; 0 when n < k or n is negative (an empty choice set).
pub(super) fn binomial(n: i64, k: usize) -> u64 {
    if n < 0 || k >= 8 || n >= 64 {
        return 0;
    }
    BINOMIAL[k][n as usize]
}

const fn file_of(sq: usize) -> usize {
    sq & 7
}
const fn rank_of(sq: usize) -> usize {
    sq >> 3
}

/// Rank minus file: 0 on the a1-h8 diagonal, negative below it, positive above.
fn off_diagonal(sq: usize) -> i32 {
    rank_of(sq) as i32 - file_of(sq) as i32
}

/// Mirror in the a1-h8 diagonal.
fn flip_diagonal(sq: usize) -> usize {
    ((sq >> 3) | (sq << 3)) & 63
}

/// The ten squares of the a1-d1-d4 triangle in the order the format numbers them.
const TRIANGLE_SQUARES: [usize; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// Each square's place in [`TRIANGLE_SQUARES`] after mirroring it into the triangle.
const TRIANGLE: [usize; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (mut f, mut r) = (file_of(sq), rank_of(sq));
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let x = r;
            r = f;
            f = x;
        }
        let canon = r * 8 + f;
        let mut i = 0;
        while i < 10 {
            if TRIANGLE_SQUARES[i] == canon {
                t[sq] = i;
            }
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Squares below the a1-h8 diagonal numbered 0..27 rank by rank; diagonal squares
/// 28..35; squares above it as their mirror image.
const LOWER: [usize; 64] = {
    let mut t = [0; 64];
    let mut next = 0;
    let mut sq = 0;
    while sq < 64 {
        if file_of(sq) > rank_of(sq) {
            t[sq] = next;
            next += 1;
        }
        sq += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (file_of(sq), rank_of(sq));
        if f == r {
            t[sq] = 28 + r;
        } else if r > f {
            t[sq] = t[f * 8 + r];
        }
        sq += 1;
    }
    t
};

/// Diagonal squares: a1-h8 numbered 0..7 by rank (h1-a8: 8..15, never used here).
const DIAGONAL: [usize; 64] = {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (file_of(sq), rank_of(sq));
        if f == r {
            t[sq] = r;
        } else if f + r == 7 {
            t[sq] = 8 + r;
        }
        sq += 1;
    }
    t
};

const fn kings_touch(a: usize, b: usize) -> bool {
    let df = file_of(a) as i32 - file_of(b) as i32;
    let dr = rank_of(a) as i32 - rank_of(b) as i32;
    df * df <= 1 && dr * dr <= 1
}

/// The 462 placements of two kings that are apart, with the first in the triangle and,
/// when it stands on the diagonal, the second on or below it: `KING_PAIRS[t][sq]` for
/// the first king on `TRIANGLE_SQUARES[t]`; -1 where no position is indexed. Pairs
/// with both kings on the diagonal come last.
const KING_PAIRS: [[i16; 64]; 10] = {
    let mut t = [[-1i16; 64]; 10];
    let mut next = 0;
    let mut tri = 0;
    while tri < 10 {
        let k1 = TRIANGLE_SQUARES[tri];
        let on_diag = file_of(k1) == rank_of(k1);
        let mut k2 = 0;
        while k2 < 64 {
            let below = file_of(k2) > rank_of(k2);
            if !kings_touch(k1, k2) && (!on_diag || below) {
                t[tri][k2] = next;
                next += 1;
            }
            k2 += 1;
        }
        tri += 1;
    }
    let mut tri = 6;
    while tri < 10 {
        let k1 = TRIANGLE_SQUARES[tri];
        let mut k2 = 0;
        while k2 < 64 {
            if file_of(k2) == rank_of(k2) && !kings_touch(k1, k2) {
                t[tri][k2] = next;
                next += 1;
            }
            k2 += 1;
        }
        tri += 1;
    }
    t
};

/// Index counts of the leading group without pawns: three unique pieces, or two kings.
pub(super) const THREE_UNIQUE_SIZE: u64 = 31332;
pub(super) const KINGS_ONLY_SIZE: u64 = 462;

/// Leading-pawn place: files a-d (mirrored) then ranks 2-7, 0..23.
const LEAD_PAWN_PLACE: [usize; 64] = {
    let mut t = [0; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = file_of(sq);
        let mf = if f > 3 { 7 - f } else { f };
        t[sq] = mf * 6 + rank_of(sq) - 1;
        sq += 1;
    }
    t
};

/// The order in which further leading pawns are combined (0..47, centre files and
/// advanced ranks first).
const PAWN_ORDER: [usize; 64] = {
    let mut t = [0; 64];
    let mut sq = 8;
    while sq < 56 {
        let f = file_of(sq);
        let mf = if f > 3 { 7 - f } else { f };
        t[sq] = (3 - mf) * 12 + 2 * (6 - rank_of(sq)) + if f < 4 { 1 } else { 0 };
        sq += 1;
    }
    t
};

/// The square of leading-pawn place `j` (the inverse of [`LEAD_PAWN_PLACE`] on files a-d).
const fn lead_pawn_square(j: usize) -> usize {
    8 * (j % 6 + 1) + j / 6
}

/// `(LEAD_PAWN_INDEX[n-1][place], LEAD_PAWN_SIZE[n-1][file])` for `n` leading pawns:
/// where each place's combinations start within its file's sub-table, and how many
/// each file has.
struct LeadPawnTables {
    index: [[u64; 24]; 6],
    size: [[u64; 4]; 6],
}

const LEAD_PAWNS: LeadPawnTables = {
    let mut index = [[0u64; 24]; 6];
    let mut size = [[0u64; 4]; 6];
    let mut i = 0;
    while i < 6 {
        let mut file = 0;
        while file < 4 {
            let mut s = 0u64;
            let mut j = file * 6;
            while j < file * 6 + 6 {
                index[i][j] = s;
                s += if i == 0 { 1 } else { BINOMIAL[i][PAWN_ORDER[lead_pawn_square(j)]] };
                j += 1;
            }
            size[i][file] = s;
            file += 1;
        }
        i += 1;
    }
    LeadPawnTables { index, size }
};

/// Index count of `n` leading pawns in the sub-table of `file` (0..3).
pub(super) fn lead_pawns_size(n: usize, file: usize) -> Option<u64> {
    Some(*LEAD_PAWNS.size.get(n.checked_sub(1)?)?.get(file)?)
}

/// The sub-table (file a-d) of a pawn table: the leading pawn is the one with the
/// lowest place; it is moved to `squares[0]`.
pub(super) fn pawn_file(squares: &mut [usize], lead_pawns: usize) -> usize {
    for i in 1..lead_pawns {
        if LEAD_PAWN_PLACE[squares[0]] > LEAD_PAWN_PLACE[squares[i]] {
            squares.swap(0, i);
        }
    }
    let f = file_of(squares[0]);
    if f > 3 {
        7 - f
    } else {
        f
    }
}

/// How a table groups its pieces: `group_len[i]` pieces start a group at `i` (0
/// elsewhere), and `factor[i]` is that group's multiplier in the index.
#[derive(Clone, Debug, Default)]
pub(super) struct Groups {
    pub group_len: [usize; 8],
    pub factor: [u64; 8],
}

/// Without pawns: is the leading group three unique pieces (else the two kings)?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PieceEncoding {
    ThreeUnique,
    KingsOnly,
}

/// Index of a position in a table without pawns. `squares` are in the table's piece
/// order (its colours already swapped if needed); they are mirrored in place.
pub(super) fn encode_pieces(enc: PieceEncoding, groups: &Groups, squares: &mut [usize]) -> Option<u64> {
    let n = squares.len();
    if squares[0] & 4 != 0 {
        squares.iter_mut().for_each(|s| *s ^= 7);
    }
    if squares[0] & 0x20 != 0 {
        squares.iter_mut().for_each(|s| *s ^= 0x38);
    }
    let lead = match enc {
        PieceEncoding::ThreeUnique => 3,
        PieceEncoding::KingsOnly => 2,
    };
    // The first piece off the diagonal, if it belongs to the leading group, goes below it.
    if let Some(i) = (0..n).find(|&i| off_diagonal(squares[i]) != 0) {
        if i < lead && off_diagonal(squares[i]) > 0 {
            squares.iter_mut().for_each(|s| *s = flip_diagonal(*s));
        }
    }
    let idx = match enc {
        PieceEncoding::ThreeUnique => {
            let (a, b, c) = (squares[0], squares[1], squares[2]);
            let i = (b > a) as u64;
            let j = (c > a) as u64 + (c > b) as u64;
            let (b64, c64) = (b as u64, c as u64);
            if off_diagonal(a) != 0 {
                TRIANGLE[a] as u64 * 63 * 62 + (b64 - i) * 62 + (c64 - j)
            } else if off_diagonal(b) != 0 {
                6 * 63 * 62 + DIAGONAL[a] as u64 * 28 * 62 + LOWER[b] as u64 * 62 + c64 - j
            } else if off_diagonal(c) != 0 {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + DIAGONAL[a] as u64 * 7 * 28
                    + (DIAGONAL[b] as u64 - i) * 28
                    + LOWER[c] as u64
            } else {
                6 * 63 * 62
                    + 4 * 28 * 62
                    + 4 * 7 * 28
                    + DIAGONAL[a] as u64 * 7 * 6
                    + (DIAGONAL[b] as u64 - i) * 6
                    + (DIAGONAL[c] as u64 - j)
            }
        }
        PieceEncoding::KingsOnly => u64::try_from(KING_PAIRS[TRIANGLE[squares[0]]][squares[1]]).ok()?,
    };
    Some(idx * groups.factor[0] + encode_rest(groups, squares, lead, false))
}

/// Index of a position in a pawn table's sub-table. `squares` are in the table's piece
/// order with the leading pawn first (see [`pawn_file`]), already mirrored for colour.
pub(super) fn encode_pawns(groups: &Groups, squares: &mut [usize], lead_pawns: usize, other_pawns: bool) -> u64 {
    if squares[0] & 4 != 0 {
        squares.iter_mut().for_each(|s| *s ^= 7);
    }
    squares[1..lead_pawns].sort_unstable_by(|a, b| PAWN_ORDER[*b].cmp(&PAWN_ORDER[*a]));
    let t = lead_pawns - 1;
    let mut idx = LEAD_PAWNS.index[t][LEAD_PAWN_PLACE[squares[0]]];
    for i in (1..=t).rev() {
        idx += binomial(PAWN_ORDER[squares[i]] as i64, t - i + 1);
    }
    idx * groups.factor[0] + encode_rest(groups, squares, lead_pawns, other_pawns)
}

/// The groups after the leading one: each a combination of its squares among those the
/// earlier groups left free (pawns of the other colour: among ranks 2-7).
fn encode_rest(groups: &Groups, squares: &mut [usize], first: usize, mut pawns_next: bool) -> u64 {
    let n = squares.len();
    let mut idx = 0;
    let mut i = first;
    while i < n {
        let len = groups.group_len[i].max(1);
        let end = (i + len).min(n);
        squares[i..end].sort_unstable();
        let mut s = 0;
        for m in i..end {
            let p = squares[m];
            let below = squares[..i].iter().filter(|&&q| p > q).count() as i64;
            let free = p as i64 - below - if pawns_next { 8 } else { 0 };
            s += binomial(free, m - i + 1);
        }
        pawns_next = false;
        idx += s * groups.factor[i];
        i = end;
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_pairs_number_462_placements_once_each() {
        let mut seen = vec![false; 462];
        for row in KING_PAIRS.iter() {
            for &v in row.iter().filter(|&&v| v >= 0) {
                assert!(!seen[v as usize], "index {v} used twice");
                seen[v as usize] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn symmetry_tables_are_consistent() {
        // Every square maps into the triangle; the triangle's squares map to themselves.
        for (i, &sq) in TRIANGLE_SQUARES.iter().enumerate() {
            assert_eq!(TRIANGLE[sq], i);
        }
        // Squares below the diagonal are numbered 0..27 once each.
        let mut below: Vec<usize> = (0..64).filter(|&s| file_of(s) > rank_of(s)).map(|s| LOWER[s]).collect();
        below.sort_unstable();
        assert_eq!(below, (0..28).collect::<Vec<_>>());
        // Pawn places: 48 distinct values on ranks 2-7.
        let mut order: Vec<usize> = (8..56).map(|s| PAWN_ORDER[s]).collect();
        order.sort_unstable();
        assert_eq!(order, (0..48).collect::<Vec<_>>());
        assert_eq!(lead_pawns_size(1, 0), Some(6));
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(1, 2), 0);
        assert_eq!(binomial(-1, 1), 0);
    }
}
