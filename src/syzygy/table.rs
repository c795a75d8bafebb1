//! One table file: its header read into a [`Layout`] (which pieces, how they are grouped,
//! where each value store lies), checked against the file's name and size; and the
//! look-up of one position's stored value.
//!
//! A WDL file (`.rtbw`) stores win/draw/loss for both sides to move; a DTZ file
//! (`.rtbz`) stores the distance to zeroing for one side to move only. Tables with
//! pawns have four sub-tables, one for each file (a-d) of the leading pawn.

use super::encode::{self, Groups, PieceEncoding};
use super::material::{Material, Side};
use super::pairs::{Pairs, Store};
use super::{Bytes, Corrupt, Source};
use crate::chess::{Color, PieceType, Position};

pub(super) const WDL_MAGIC: [u8; 4] = [0x71, 0xE8, 0x23, 0x5D];
pub(super) const DTZ_MAGIC: [u8; 4] = [0xD7, 0x66, 0x0C, 0xA5];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Wdl,
    Dtz,
}

impl Kind {
    fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => WDL_MAGIC,
            Kind::Dtz => DTZ_MAGIC,
        }
    }
}

/// One value store with the piece order it was written in.
#[derive(Clone, Debug)]
struct SideTable {
    /// Piece codes in index order: 1..6 White's pawn..king, 9..14 Black's (the table's colours).
    pieces: Vec<u8>,
    groups: Groups,
    pairs: Pairs,
}

/// A DTZ map: stored values are indices into it (one map for each kind of result).
#[derive(Clone, Copy, Debug, Default)]
struct DtzMap {
    at: u64,
    len: u64,
    wide: bool,
}

#[derive(Clone, Debug)]
struct FileTable {
    /// Side to move 0 (the table's White) and, in split WDL tables, 1.
    sides: Vec<SideTable>,
    maps: Option<[DtzMap; 4]>,
}

/// Everything the header says, checked.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    kind: Kind,
    /// The table's White (the side its piece codes 1..6 describe).
    white: Side,
    symmetric: bool,
    pieces: usize,
    encoding: PieceEncoding,
    lead_pawns: usize,
    other_pawns: usize,
    files: Vec<FileTable>,
    /// Where the sparse indices, the block lengths and the blocks begin (the header is
    /// all before the first).
    pub parts: [u64; 3],
    /// Where the last store ends: the file must be at least this long.
    pub end: u64,
}

/// A position's stored value, as the table gives it.
pub(super) enum Stored {
    Value(i32),
    /// A DTZ table that has only the other side to move.
    OtherSide,
}

impl Layout {
    /// Reads and checks the header of a `kind` file for `material` (in the orientation
    /// of the table's name).
    pub fn parse(b: &Bytes, kind: Kind, material: Material) -> Result<Layout, Corrupt> {
        if b.slice(0, 4)? != kind.magic() {
            return Err(Corrupt("not a Syzygy table of this kind (wrong magic number)"));
        }
        let flags = b.u8(4)?;
        let has_pawns = material.has_pawns();
        if (flags & 2 != 0) != has_pawns {
            return Err(Corrupt("the header's pawn flag does not match the table's name"));
        }
        let split = kind == Kind::Wdl && flags & 1 != 0;
        let symmetric = material.white == material.black;
        let n = material.pieces() as usize;
        let (wp, bp) = (material.white.pawns() as usize, material.black.pawns() as usize);
        // The leading pawns are those of the side with fewer (but some) pawns.
        let (lead_pawns, other_pawns) = if wp > 0 && bp > 0 { (wp.min(bp), wp.max(bp)) } else { (wp + bp, 0) };
        let unique = [material.white, material.black].iter().flat_map(|s| s.0.iter()).filter(|&&c| c == 1).count() + 2;
        let encoding = if unique >= 3 { PieceEncoding::ThreeUnique } else { PieceEncoding::KingsOnly };
        let num_files = if has_pawns { 4 } else { 1 };
        let num_sides = if split { 2 } else { 1 };

        // Piece orders (and group orders) of every file and side.
        let mut at = 5u64;
        let mut headers: Vec<Vec<(Vec<u8>, u8, u8)>> = Vec::new();
        let order_bytes = if other_pawns > 0 { 2 } else { 1 };
        for _ in 0..num_files {
            let mut sides = Vec::new();
            // A DTZ file has one side to move: the other half of each byte is unused.
            for side in 0..if kind == Kind::Dtz { 1 } else { 2 } {
                let nib = |x: u8| if side == 0 { x & 0xF } else { x >> 4 };
                let order = nib(b.u8(at)?);
                let order2 = if other_pawns > 0 { nib(b.u8(at + 1)?) } else { 0xF };
                let pieces: Vec<u8> =
                    (0..n as u64).map(|i| b.u8(at + order_bytes + i).map(nib)).collect::<Result<_, _>>()?;
                sides.push((pieces, order, order2));
            }
            headers.push(sides);
            at += n as u64 + order_bytes;
        }
        at += at & 1;

        // The header's pieces must be the name's, in one orientation or the other.
        let white = side_of(&headers[0][0].0, 0)?;
        let black = side_of(&headers[0][0].0, 8)?;
        let stored = Material { white, black };
        if stored != material && stored != material.flipped() {
            return Err(Corrupt("the header's pieces do not match the table's name"));
        }
        for sides in &headers {
            for (pieces, _, _) in sides {
                if side_of(pieces, 0)? != white || side_of(pieces, 8)? != black {
                    return Err(Corrupt("the header's piece lists disagree"));
                }
            }
        }

        let mut files = Vec::new();
        for (f, sides) in headers.iter().enumerate().take(num_files) {
            let mut tables = Vec::new();
            for (pieces, order, order2) in sides.iter().take(num_sides) {
                let (groups, size) = if has_pawns {
                    pawn_groups(pieces, *order, *order2, lead_pawns, other_pawns, f)?
                } else {
                    piece_groups(pieces, *order, encoding)?
                };
                let (pairs, next) = Pairs::parse(b, at, size, kind == Kind::Dtz)?;
                at = next;
                tables.push(SideTable { pieces: pieces.clone(), groups, pairs });
            }
            files.push(FileTable { sides: tables, maps: None });
        }
        if kind == Kind::Dtz {
            for file in files.iter_mut() {
                let flags = file.sides[0].pairs.flags;
                if flags & 2 == 0 {
                    continue;
                }
                let wide = flags & 16 != 0;
                let mut maps = [DtzMap::default(); 4];
                for m in maps.iter_mut() {
                    if wide {
                        at += at & 1;
                        let len = b.u16_le(at)? as u64;
                        *m = DtzMap { at: at + 2, len, wide };
                        at += 2 + 2 * len;
                    } else {
                        let len = b.u8(at)? as u64;
                        *m = DtzMap { at: at + 1, len, wide };
                        at += 1 + len;
                    }
                }
                file.maps = Some(maps);
            }
            at += at & 1;
        }
        // Then the sparse indices, the block lengths and the blocks, in that order.
        let mut parts = [0; 3];
        for (part, begins) in parts.iter_mut().enumerate() {
            *begins = if part == 2 { at.next_multiple_of(64) } else { at };
            for file in files.iter_mut() {
                for side in file.sides.iter_mut() {
                    let Store::Coded(c) = &mut side.pairs.store else { continue };
                    match part {
                        0 => {
                            c.index_at = at;
                            at += c.index_len();
                        }
                        1 => {
                            c.sizes_at = at;
                            at += c.sizes_len();
                        }
                        _ => {
                            at = at.next_multiple_of(64);
                            c.data_at = at;
                            at += c.data_len();
                        }
                    }
                }
            }
        }
        Ok(Layout { kind, white, symmetric, pieces: n, encoding, lead_pawns, other_pawns, files, parts, end: at })
    }

    /// The stored value of `pos` (whose material is this table's, in either colour):
    /// for WDL -2..2; for DTZ the distance in plies as the table counts it, given the
    /// position's `wdl`.
    pub fn probe(&self, b: &impl Source, pos: &Position, wdl: i32) -> Result<Stored, Corrupt> {
        let stm = pos.side_to_move();
        let dtz = self.kind == Kind::Dtz;
        // Map the position's colours onto the table's.
        let flip = if self.symmetric { stm == Color::Black } else { Material::of(pos).white != self.white };
        let side = if self.symmetric { 0 } else { ((stm == Color::Black) != flip) as usize };
        let (color_flip, square_flip) = if flip { (8u8, 0x38usize) } else { (0, 0) };
        let mut squares = [0usize; 8];
        let n = self.pieces;
        let squares = &mut squares[..n];
        let collect = |code: u8, into: &mut [usize], from: usize, mirror: usize| -> Result<usize, Corrupt> {
            let code = code ^ color_flip;
            let color = if code & 8 == 0 { Color::White } else { Color::Black };
            let pt = PieceType::from_index(((code & 7) as usize).saturating_sub(1));
            let mut i = from;
            for sq in pos.pieces_of(color, pt) {
                *into.get_mut(i).ok_or(Corrupt("position does not fit the table"))? = sq.index() ^ mirror;
                i += 1;
            }
            Ok(i)
        };
        let (file, idx) = if self.lead_pawns > 0 {
            let lead_code = self.files[0].sides[0].pieces[0];
            let mut i = collect(lead_code, squares, 0, square_flip)?;
            if i != self.lead_pawns {
                return Err(Corrupt("position does not fit the table"));
            }
            let f = encode::pawn_file(squares, self.lead_pawns);
            let file = &self.files[f];
            if dtz && (file.sides[0].pairs.flags & 1) as usize != side {
                return Ok(Stored::OtherSide);
            }
            let st = file.sides.get(if dtz { 0 } else { side }).ok_or(Corrupt(NO_SIDE))?;
            while i < n {
                i = collect(st.pieces[i], squares, i, square_flip)?;
            }
            let idx = encode::encode_pawns(&st.groups, squares, self.lead_pawns, self.other_pawns > 0);
            (f, idx)
        } else {
            let file = &self.files[0];
            if dtz && !self.symmetric && (file.sides[0].pairs.flags & 1) as usize != side {
                return Ok(Stored::OtherSide);
            }
            let st = file.sides.get(if dtz { 0 } else { side }).ok_or(Corrupt(NO_SIDE))?;
            let mut i = 0;
            while i < n {
                let next = collect(st.pieces[i], squares, i, 0)?;
                if next == i {
                    return Err(Corrupt("position does not fit the table"));
                }
                i = next;
            }
            let idx = encode::encode_pieces(self.encoding, &st.groups, squares)
                .ok_or(Corrupt("position cannot be indexed (kings touch)"))?;
            (0, idx)
        };
        let file = &self.files[file];
        let st = &file.sides[if dtz { 0 } else { side }];
        let raw = st.pairs.value(b, idx, dtz)?;
        match self.kind {
            Kind::Wdl => {
                if raw > 4 {
                    return Err(Corrupt("WDL value out of range"));
                }
                Ok(Stored::Value(raw as i32 - 2))
            }
            Kind::Dtz => {
                let flags = st.pairs.flags;
                let mut v = raw as u64;
                if let Some(maps) = &file.maps {
                    // Maps by result: win, loss, cursed win, blessed loss.
                    let which = match wdl {
                        -2 => 1,
                        -1 => 3,
                        1 => 2,
                        _ => 0,
                    };
                    let m = maps[which];
                    if v >= m.len {
                        return Err(Corrupt("DTZ value outside its map"));
                    }
                    v = if m.wide { b.u16_le(m.at + 2 * v)? as u64 } else { b.u8(m.at + v)? as u64 };
                }
                // Stored in plies only where the flag for this result says so, else in moves.
                let in_plies = match wdl {
                    2 => flags & 4 != 0,
                    -2 => flags & 8 != 0,
                    _ => false,
                };
                if !in_plies {
                    v *= 2;
                }
                Ok(Stored::Value(v as i32))
            }
        }
    }
}

const NO_SIDE: &str = "table has no values for this side to move";

/// One colour's pieces in a header's piece list (`color_bit` 0: codes 1..6, 8: 9..14).
fn side_of(pieces: &[u8], color_bit: u8) -> Result<Side, Corrupt> {
    let mut s = [0u8; 5];
    let mut kings = 0;
    for &code in pieces {
        if !matches!(code & 7, 1..=6) {
            return Err(Corrupt("unknown piece code in the header"));
        }
        if code & 8 != color_bit {
            continue;
        }
        match code & 7 {
            6 => kings += 1,
            t => s[(t - 1) as usize] += 1,
        }
    }
    if kings != 1 {
        return Err(Corrupt("the header's pieces do not match the table's name"));
    }
    Ok(Side(s))
}

/// Group lengths at each group's first piece: `lead` pieces first, then runs of like pieces.
fn group_lengths(pieces: &[u8], lead: &[usize]) -> Groups {
    let mut g = Groups::default();
    let mut i = 0;
    for &len in lead {
        g.group_len[i] = len;
        i += len;
    }
    while i < pieces.len() {
        let mut j = i;
        while j < pieces.len() && pieces[j] == pieces[i] {
            j += 1;
        }
        g.group_len[i] = j - i;
        i = j;
    }
    g
}

/// Groups and index size of a table without pawns; `order` is where the leading group
/// comes among the groups.
fn piece_groups(pieces: &[u8], order: u8, enc: PieceEncoding) -> Result<(Groups, u64), Corrupt> {
    let (lead, placings) = match enc {
        PieceEncoding::ThreeUnique => (3, encode::THREE_UNIQUE_SIZE),
        PieceEncoding::KingsOnly => (2, encode::KINGS_ONLY_SIZE),
    };
    let mut g = group_lengths(pieces, &[lead]);
    let size = place_groups(&mut g, pieces.len(), lead, &[(order, 0, placings)])?;
    Ok((g, size))
}

/// Groups and index size of one file's sub-table of a pawn table; `order` and `order2`
/// are where the leading pawns and the other side's pawns come among the groups.
fn pawn_groups(
    pieces: &[u8],
    order: u8,
    order2: u8,
    lead: usize,
    other: usize,
    file: usize,
) -> Result<(Groups, u64), Corrupt> {
    let leads: Vec<usize> = if other > 0 { vec![lead, other] } else { vec![lead] };
    let mut g = group_lengths(pieces, &leads);
    let leading = [
        (order, 0, encode::lead_pawns_size(lead, file).ok_or(Corrupt("too many pawns"))?),
        (order2, lead, encode::binomial(48 - lead as i64, other)),
    ];
    let size = place_groups(&mut g, pieces.len(), lead + other, &leading[..1 + (other > 0) as usize])?;
    Ok((g, size))
}

/// Sets the index factor of every group and returns the table's index size. The groups
/// take places 0, 1, ... in turn: a leading group the place its `(order, first piece,
/// placings)` in `leading` names, the others (from piece `first_other` on) the places
/// left, in piece order, each placed on the squares the groups before it left free.
fn place_groups(
    g: &mut Groups,
    pieces: usize,
    first_other: usize,
    leading: &[(u8, usize, u64)],
) -> Result<u64, Corrupt> {
    let mut i = first_other;
    let mut free = 64 - i as u64;
    let mut size = 1u64;
    let mut placed = 0;
    // More places than pieces only with a damaged order.
    for k in 0..=16u8 {
        if let Some(&(_, first, placings)) = leading.iter().find(|l| l.0 == k) {
            g.factor[first] = size;
            size = size.saturating_mul(placings);
            placed += 1;
        } else if i < pieces {
            let len = g.group_len[i];
            g.factor[i] = size;
            size = size.saturating_mul(encode::binomial(free as i64, len));
            free -= len as u64;
            i += len;
        } else {
            break;
        }
    }
    if placed != leading.len() {
        return Err(Corrupt("group order out of range"));
    }
    Ok(size)
}
