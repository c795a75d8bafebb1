//! The value store of one (sub-)table: a canonical Huffman code over symbols that each
//! stand for a pair of symbols ("recursive pairing"), in blocks of a fixed size with
//! an index to find the block of a position quickly.
//!
//! Layout, as the generator writes it (all offsets from the start of the file):
//! a header (flags, block size, index granularity, block count, code lengths, the
//! lowest code of each length and the pair of every symbol), later a sparse index
//! (6 bytes an entry: block number and offset every 2^idxbits positions), the lengths
//! of the blocks (2 bytes a block: values in it minus one) and the blocks themselves.
//! Every read is checked against the file: a damaged file gives an error, not a value.

use super::{Bytes, Corrupt, Source};

/// Where a value store's parts are, and its decoding tables.
#[derive(Clone, Debug)]
pub(super) struct Pairs {
    pub flags: u8,
    pub store: Store,
}

#[derive(Clone, Debug)]
pub(super) enum Store {
    /// Every position of the table has this value.
    Single(u16),
    Coded(Box<Coded>),
}

#[derive(Clone, Debug)]
pub(super) struct Coded {
    block_size_log: u32,
    idx_bits: u32,
    real_blocks: u64,
    /// Entries in the block-length table (real blocks plus padding).
    blocks: u64,
    /// The shortest code's length (the longest is `min_len + base.len() - 1`).
    min_len: u32,
    /// The lowest symbol of each code length, from `min_len` up.
    lowest: Vec<u16>,
    /// The first code of each length, left-aligned in 64 bits (descending; the longest
    /// length's is 0).
    base: Vec<u64>,
    /// (left, right) symbols of each symbol; right 0xFFF marks a leaf whose left is its value.
    pairs: Vec<(u16, u16)>,
    /// How many values each symbol stands for, minus one.
    symlen: Vec<u32>,
    num_indices: u64,
    pub index_at: u64,
    pub sizes_at: u64,
    pub data_at: u64,
}

impl Coded {
    pub fn index_len(&self) -> u64 {
        6 * self.num_indices
    }
    pub fn sizes_len(&self) -> u64 {
        2 * self.blocks
    }
    pub fn data_len(&self) -> u64 {
        self.real_blocks << self.block_size_log
    }
}

impl Pairs {
    /// Reads the header at `at` for a table of `tb_size` positions; returns it and the
    /// offset after it. `dtz_single_zero`: a DTZ store with a single value means 0 (the
    /// generator writes no value byte that counts there).
    pub fn parse(b: &Bytes, at: u64, tb_size: u64, dtz: bool) -> Result<(Pairs, u64), Corrupt> {
        let flags = b.u8(at)?;
        if flags & 0x80 != 0 {
            let value = if dtz { 0 } else { b.u8(at + 1)? as u16 };
            return Ok((Pairs { flags, store: Store::Single(value) }, at + 2));
        }
        let block_size_log = b.u8(at + 1)? as u32;
        let idx_bits = b.u8(at + 2)? as u32;
        let padding = b.u8(at + 3)? as u64;
        let real_blocks = b.u32_le(at + 4)? as u64;
        let max_len = b.u8(at + 8)? as u32;
        let min_len = b.u8(at + 9)? as u32;
        // The generator's blocks are at most 1 KiB; 64 KiB bounds what one probe reads.
        if !(1..=16).contains(&block_size_log) || !(1..=40).contains(&idx_bits) {
            return Err(Corrupt("block size or index granularity out of range"));
        }
        // The decoder keeps at least 32 bits in hand: no code may be longer.
        if min_len == 0 || max_len > 32 || min_len > max_len {
            return Err(Corrupt("code lengths out of range"));
        }
        let h = (max_len - min_len + 1) as u64;
        let lowest: Vec<u16> = (0..h).map(|i| b.u16_le(at + 10 + 2 * i)).collect::<Result<_, _>>()?;
        let num_syms = b.u16_le(at + 10 + 2 * h)? as u64;
        if num_syms == 0 || num_syms > 4096 {
            return Err(Corrupt("symbol count out of range"));
        }
        let pairs_at = at + 12 + 2 * h;
        let mut pairs = Vec::with_capacity(num_syms as usize);
        for s in 0..num_syms {
            let w = pairs_at + 3 * s;
            let (b0, b1, b2) = (b.u8(w)? as u16, b.u8(w + 1)? as u16, b.u8(w + 2)? as u16);
            pairs.push((((b1 & 0xF) << 8) | b0, (b2 << 4) | (b1 >> 4)));
        }
        let next = pairs_at + 3 * num_syms + (num_syms & 1);
        let symlen = symbol_lengths(&pairs)?;
        // base[i]: the first code of length min_len + i, computed from the lowest symbols
        // (longer codes have lower values), then left-aligned.
        let mut base = vec![0u64; h as usize];
        for i in (0..h as usize - 1).rev() {
            let sum = base[i + 1] + lowest[i] as u64;
            base[i] = sum.checked_sub(lowest[i + 1] as u64).ok_or(Corrupt("code table inconsistent"))? / 2;
        }
        for (i, v) in base.iter_mut().enumerate() {
            let shift = 64 - (min_len + i as u32);
            *v = v.checked_shl(shift).filter(|_| shift < 64).ok_or(Corrupt("code table inconsistent"))?;
        }
        let num_indices = tb_size.div_ceil(1 << idx_bits);
        let coded = Coded {
            block_size_log,
            idx_bits,
            real_blocks,
            blocks: real_blocks + padding,
            min_len,
            lowest,
            base,
            pairs,
            symlen,
            num_indices,
            index_at: 0,
            sizes_at: 0,
            data_at: 0,
        };
        Ok((Pairs { flags, store: Store::Coded(Box::new(coded)) }, next))
    }

    /// The value stored for position `idx`.
    pub fn value(&self, b: &impl Source, idx: u64, dtz: bool) -> Result<u16, Corrupt> {
        match &self.store {
            Store::Single(v) => Ok(*v),
            Store::Coded(c) => c.value(b, idx, dtz),
        }
    }
}

/// For every symbol, how many base values it stands for minus one; rejects pair trees
/// that point outside the table or into themselves.
fn symbol_lengths(pairs: &[(u16, u16)]) -> Result<Vec<u32>, Corrupt> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; pairs.len()];
    let mut len = vec![0u32; pairs.len()];
    let child = |s: u16| -> Result<usize, Corrupt> {
        let s = s as usize;
        if s < pairs.len() {
            Ok(s)
        } else {
            Err(Corrupt("pair refers to a missing symbol"))
        }
    };
    for root in 0..pairs.len() {
        if state[root] == DONE {
            continue;
        }
        // Depth-first without recursion: a damaged tree could be thousands deep.
        let mut stack = vec![root];
        while let Some(&s) = stack.last() {
            let (l, r) = pairs[s];
            if r == 0xFFF {
                state[s] = DONE;
                stack.pop();
                continue;
            }
            let (l, r) = (child(l)?, child(r)?);
            if state[s] == NEW {
                state[s] = OPEN;
                for c in [l, r] {
                    match state[c] {
                        NEW => stack.push(c),
                        OPEN => return Err(Corrupt("pair tree has a cycle")),
                        _ => {}
                    }
                }
            } else {
                len[s] = len[l]
                    .checked_add(len[r])
                    .and_then(|x| x.checked_add(1))
                    .ok_or(Corrupt("symbol expands too far"))?;
                state[s] = DONE;
                stack.pop();
            }
        }
    }
    Ok(len)
}

/// Block lengths read at a time (2 bytes each): the walk from a sparse index entry to
/// its block rarely passes more.
const SIZES_AT_ONCE: usize = 8;

impl Coded {
    fn value(&self, b: &impl Source, idx: u64, dtz: bool) -> Result<u16, Corrupt> {
        let main = idx >> self.idx_bits;
        if main >= self.num_indices {
            return Err(Corrupt("position index beyond the table"));
        }
        let mut entry = [0u8; 6];
        b.read(self.index_at + 6 * main, &mut entry)?;
        let mut block = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) as u64;
        let half = 1i64 << (self.idx_bits - 1);
        let mut lit =
            (idx & ((1 << self.idx_bits) - 1)) as i64 - half + u16::from_le_bytes([entry[4], entry[5]]) as i64;
        // The lengths of blocks `first..first + n`, read together (one look-up, not one a
        // block): those from `block` on, or when the walk goes `back`, those up to it.
        let mut sizes = [0u8; 2 * SIZES_AT_ONCE];
        let mut first = u64::MAX;
        let mut block_len = |block: u64, back: bool| -> Result<i64, Corrupt> {
            if block >= self.blocks {
                return Err(Corrupt("block number beyond the table"));
            }
            if !(first..first.saturating_add(SIZES_AT_ONCE as u64)).contains(&block) {
                first = if back { block.saturating_sub(SIZES_AT_ONCE as u64 - 1) } else { block };
                let n = (self.blocks - first).min(SIZES_AT_ONCE as u64) as usize;
                b.read(self.sizes_at + 2 * first, &mut sizes[..2 * n])?;
            }
            let at = 2 * (block - first) as usize;
            Ok(u16::from_le_bytes([sizes[at], sizes[at + 1]]) as i64)
        };
        while lit < 0 {
            block = block.checked_sub(1).ok_or(Corrupt("block number beyond the table"))?;
            lit += block_len(block, true)? + 1;
        }
        loop {
            let len = block_len(block, false)?;
            if lit <= len {
                break;
            }
            lit -= len + 1;
            block += 1;
        }
        if block >= self.real_blocks {
            return Err(Corrupt("block number beyond the data"));
        }
        // The block, copied out once (onto the stack for the blocks the generator writes:
        // 64 bytes in WDL files, at most 1 KiB in DTZ files), then 8 + 4 bytes of zeros or
        // of what follows it: the decoder reads ahead, and past the end of the file reads
        // zeros.
        let start = self.data_at + (block << self.block_size_log);
        let block_end = 1usize << self.block_size_log;
        let want = (block_end + 8).min(b.len().saturating_sub(start) as usize);
        let (sym, mut lit) = if block_end <= 64 {
            let mut block = [0u8; 64 + 12];
            b.read(start, &mut block[..want])?;
            self.decode(&block, lit, block_end)?
        } else if block_end <= 1024 {
            let mut block = [0u8; 1024 + 12];
            b.read(start, &mut block[..want])?;
            self.decode(&block, lit, block_end)?
        } else {
            let mut block = vec![0u8; block_end + 12];
            b.read(start, &mut block[..want])?;
            self.decode(&block, lit, block_end)?
        };
        // Walk down the pair tree to the value at offset `lit` within the symbol.
        let mut sym = sym;
        while self.symlen[sym] != 0 {
            let (l, r) = self.pairs[sym];
            let left_n = self.symlen[l as usize] as i64 + 1;
            if lit < left_n {
                sym = l as usize;
            } else {
                lit -= left_n;
                sym = r as usize;
            }
        }
        let value = self.pairs[sym].0;
        Ok(if dtz { value } else { value & 0xFF })
    }

    /// The symbol at offset `lit` of a block of `block_end` bytes (at the start of
    /// `bytes`, which has 12 bytes more), and the offset of the value within that symbol.
    fn decode(&self, bytes: &[u8], mut lit: i64, block_end: usize) -> Result<(usize, i64), Corrupt> {
        let be32 = |at: usize| bytes.get(at..at + 4).map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        let mut code = (be32(0) as u64) << 32 | be32(4) as u64;
        let mut ptr = 8;
        let mut bits_used = 0u32;
        loop {
            // The code's length: the first whose first code is not above it (the longest
            // codes' first code is 0, so the search ends there at the latest).
            let mut k = 0;
            while self.base.get(k).is_some_and(|&first| code < first) {
                k += 1;
            }
            let (Some(&first), Some(&lowest)) = (self.base.get(k), self.lowest.get(k)) else {
                return Err(Corrupt("invalid code"));
            };
            let l = self.min_len + k as u32;
            let sym = lowest as u64 + ((code - first) >> (64 - l));
            let sym = usize::try_from(sym).ok().filter(|&s| s < self.pairs.len()).ok_or(Corrupt("invalid code"))?;
            let n = self.symlen[sym] as i64 + 1;
            if lit < n {
                return Ok((sym, lit));
            }
            lit -= n;
            code <<= l;
            bits_used += l;
            if bits_used >= 32 {
                bits_used -= 32;
                if ptr >= block_end + 8 {
                    return Err(Corrupt("code runs past its block"));
                }
                code |= (be32(ptr) as u64) << bits_used;
                ptr += 4;
            }
        }
    }
}
