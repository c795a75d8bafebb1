//! Syzygy endgame tablebases: our own reader of the `.rtbw` (win/draw/loss) and
//! `.rtbz` (distance to zeroing) files, written from the public description of the
//! format; it depends on [`crate::chess`] only.
//!
//! - [`file`]: finding and checking a file;
//! - [`cache`]: reading files by page, through a cache of bounded size;
//! - [`table`]: the header (pieces, groups, where the values are) and one look-up;
//! - [`encode`]: a position's index in a table;
//! - [`pairs`]: the compressed values (Huffman-coded recursive pairs);
//! - [`probe`]: win/draw/loss and distance to zeroing of any position, resolving
//!   captures and en passant, which the tables leave out;
//! - [`root`]: ranking the moves of a position by their tablebase result;
//! - [`report`]: a position's tablebase value in words.
//!
//! Nothing here panics on a damaged or wrong file: a file that fails its checks is
//! reported and skipped when the tables are loaded, and one found damaged by a probe
//! makes that probe (and later ones of that table) fail with an error, never return a
//! value. [`Tablebases`] is shared freely between threads.

pub mod cache;
mod encode;
mod file;
pub mod material;
mod pairs;
mod probe;
pub mod report;
pub mod root;
mod table;

pub use probe::Wdl;
pub use root::{rank_moves, RankedMove};

use file::TableFile;
use material::Material;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;
use std::sync::Mutex;
use table::Kind;

/// The largest tables the format has (7 pieces).
pub const MAX_PIECES: u32 = 7;

/// A probe could not give a value: the position is left to the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// No table (of this kind) for this material is loaded.
    Missing { table: String, dtz: bool },
    /// The file is damaged: it is not used again.
    Damaged { path: String, reason: String },
    /// Tables hold no positions where castling is still possible.
    CastlingRights,
    /// The tables of a material give a position a value that no move of it has (a
    /// damaged header can do that without failing any check): they are not used again.
    Inconsistent { table: String, fen: String, value: Wdl, best: Wdl, files: String },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Missing { table, dtz } => {
                write!(f, "no {} table {table}", if *dtz { "DTZ" } else { "WDL" })
            }
            ProbeError::Damaged { path, reason } => write!(f, "{path} is damaged ({reason}); it is no longer used"),
            ProbeError::CastlingRights => f.write_str("tables hold no positions with castling rights"),
            ProbeError::Inconsistent { table, fen, value, best, files } => write!(
                f,
                "the {table} tables contradict themselves: {fen} is a {} but its best move a {}; \
                 {files} are damaged and no longer used",
                value.name(),
                best.name()
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

/// What went wrong inside a file (a fixed description; the file is named by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Corrupt(pub &'static str);

/// Reading past the end of the bytes at hand.
pub(crate) const SHORT: &str = "file ends too early";

/// Where a table's bytes come from: its file through the page cache ([`file::FileSource`])
/// or bytes in memory (a header being checked; tests). Every read is checked.
pub(crate) trait Source {
    /// The bytes at `at..at + buf.len()`; an error if they are not all there.
    fn read(&self, at: u64, buf: &mut [u8]) -> Result<(), Corrupt>;
    /// How many bytes there are.
    fn len(&self) -> u64;

    fn u8(&self, at: u64) -> Result<u8, Corrupt> {
        let mut b = [0u8; 1];
        self.read(at, &mut b)?;
        Ok(b[0])
    }
    fn u16_le(&self, at: u64) -> Result<u16, Corrupt> {
        let mut b = [0u8; 2];
        self.read(at, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
    fn u32_le(&self, at: u64) -> Result<u32, Corrupt> {
        let mut b = [0u8; 4];
        self.read(at, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }
}

/// Bytes in memory, every read checked.
#[derive(Clone, Copy)]
pub(crate) struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn slice(&self, at: u64, n: u64) -> Result<&'a [u8], Corrupt> {
        let start = usize::try_from(at).map_err(|_| Corrupt(SHORT))?;
        let end = start.checked_add(n as usize).ok_or(Corrupt(SHORT))?;
        self.0.get(start..end).ok_or(Corrupt(SHORT))
    }
}

impl Source for Bytes<'_> {
    fn read(&self, at: u64, buf: &mut [u8]) -> Result<(), Corrupt> {
        buf.copy_from_slice(self.slice(at, buf.len() as u64)?);
        Ok(())
    }
    fn len(&self) -> u64 {
        self.0.len() as u64
    }
    fn u8(&self, at: u64) -> Result<u8, Corrupt> {
        Ok(self.slice(at, 1)?[0])
    }
}

/// One material's files.
#[derive(Default)]
struct Entry {
    wdl: Option<TableFile>,
    dtz: Option<TableFile>,
}

/// The tables found in the directories of a `SyzygyPath`.
#[derive(Default)]
pub struct Tablebases {
    entries: Vec<Entry>,
    /// Both colourings of each table's material, to its entry.
    by_material: HashMap<Material, usize>,
    max_pieces: u32,
    /// Damaged files found by probes and not yet reported (see [`Tablebases::take_problems`]).
    problems: Mutex<Vec<String>>,
    /// Files checked so far: each one's number names it in the cache.
    files_checked: u32,
    /// The pages of the files read lately (all files together; see [`cache`]).
    cache: cache::Cache,
}

/// What loading a `SyzygyPath` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    pub wdl: usize,
    pub dtz: usize,
    /// Tables (with a WDL file) by number of pieces.
    pub by_pieces: BTreeMap<u32, usize>,
    /// Directories that could not be read and files that were skipped, with why.
    pub problems: Vec<String>,
}

impl fmt::Display for LoadReport {
    /// One line: `35 WDL and 35 DTZ tables (3-piece: 5, 4-piece: 30)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} WDL and {} DTZ tables", self.wdl, self.dtz)?;
        if !self.by_pieces.is_empty() {
            let parts: Vec<String> = self.by_pieces.iter().map(|(p, n)| format!("{p}-piece: {n}")).collect();
            write!(f, " ({})", parts.join(", "))?;
        }
        Ok(())
    }
}

impl Tablebases {
    /// No tables.
    pub fn empty() -> Tablebases {
        Tablebases::default()
    }

    /// Loads the tables in the directories of `path` (`:`-separated, `;` on Windows).
    /// Only headers are read now; every file is checked and skipped, with a line in the
    /// report, when it is not a sound table of its name.
    pub fn load(path: &str) -> (Tablebases, LoadReport) {
        Tablebases::load_while(path, &|| true)
    }

    /// [`Tablebases::load`], given up (with the tables found so far) as soon as `go_on`
    /// says no: it is asked before each file.
    pub fn load_while(path: &str, go_on: &dyn Fn() -> bool) -> (Tablebases, LoadReport) {
        let mut tb = Tablebases::empty();
        let mut report = LoadReport::default();
        let separator = if cfg!(windows) { ';' } else { ':' };
        let mut read: Vec<std::path::PathBuf> = Vec::new();
        // Tables skipped as found first elsewhere: counted by (directory, where found first).
        let mut shadowed: BTreeMap<(String, String), usize> = BTreeMap::new();
        for dir in path.split(separator).map(str::trim).filter(|d| !d.is_empty()) {
            let same = std::fs::canonicalize(dir).unwrap_or_else(|_| Path::new(dir).to_path_buf());
            if read.contains(&same) {
                report.problems.push(format!("directory '{dir}' is listed more than once: read once"));
                continue;
            }
            read.push(same);
            tb.add_directory(Path::new(dir), &mut report, &mut shadowed, go_on);
        }
        for ((dir, first), n) in shadowed {
            report
                .problems
                .push(format!("skipped {n} files in '{dir}': tables of the same name were found first in '{first}'"));
        }
        // A DTZ file is probed only after its WDL file: alone it is of no use.
        for entry in tb.entries.iter_mut().filter(|e| e.wdl.is_none()) {
            if let Some(dtz) = entry.dtz.take() {
                report.dtz -= 1;
                report.problems.push(format!("'{}' is unusable without its WDL file (.rtbw)", dtz.path().display()));
            }
        }
        (tb, report)
    }

    fn add_directory(
        &mut self,
        dir: &Path,
        report: &mut LoadReport,
        shadowed: &mut BTreeMap<(String, String), usize>,
        go_on: &dyn Fn() -> bool,
    ) {
        let listing = match std::fs::read_dir(dir) {
            Ok(l) => l,
            Err(e) => {
                report.problems.push(format!("cannot read directory '{}': {e}", dir.display()));
                return;
            }
        };
        let mut names: Vec<_> = listing.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        names.sort();
        for path in names {
            if !go_on() {
                return;
            }
            let Some(name) = path.file_stem().and_then(|s| s.to_str()) else { continue };
            let kind = match path.extension().and_then(|e| e.to_str()) {
                Some("rtbw") => Kind::Wdl,
                Some("rtbz") => Kind::Dtz,
                _ => continue,
            };
            let Some(material) = Material::parse_name(name).filter(|m| m.pieces() <= MAX_PIECES) else {
                report.problems.push(format!("skipped '{}': not a table name", path.display()));
                continue;
            };
            let id = self.files_checked;
            self.files_checked += 1;
            let table = match TableFile::open(&path, kind, material, id) {
                Ok(t) => t,
                Err(e) => {
                    report.problems.push(format!("skipped '{}': {e}", path.display()));
                    continue;
                }
            };
            let index = *self.by_material.entry(material).or_insert_with(|| {
                self.entries.push(Entry::default());
                self.entries.len() - 1
            });
            self.by_material.insert(material.flipped(), index);
            let slot = match kind {
                Kind::Wdl => &mut self.entries[index].wdl,
                Kind::Dtz => &mut self.entries[index].dtz,
            };
            if let Some(old) = slot.as_ref() {
                let first = old.path().parent().unwrap_or(Path::new("")).display().to_string();
                *shadowed.entry((dir.display().to_string(), first)).or_default() += 1;
                continue;
            }
            *slot = Some(table);
            match kind {
                Kind::Wdl => {
                    report.wdl += 1;
                    *report.by_pieces.entry(material.pieces()).or_default() += 1;
                    self.max_pieces = self.max_pieces.max(material.pieces());
                }
                Kind::Dtz => report.dtz += 1,
            }
        }
    }

    /// The most pieces of any loaded WDL table (0 when none is loaded).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Where the parts of the loaded WDL (`dtz` false) or DTZ file of `material` begin:
    /// its sparse indices, block lengths and compressed blocks (the header is all before
    /// the first). For measurements of what damage goes undetected.
    pub fn file_parts(&self, material: Material, dtz: bool) -> Option<[u64; 3]> {
        let entry = &self.entries[*self.by_material.get(&material)?];
        let file = if dtz { entry.dtz.as_ref() } else { entry.wdl.as_ref() }?;
        Some(file.parts())
    }

    /// Bytes of table data kept in memory now (at most [`cache::CACHE_BYTES`]).
    pub fn cached_bytes(&self) -> usize {
        self.cache.kept().1
    }

    pub fn is_empty(&self) -> bool {
        self.max_pieces == 0
    }

    /// Damaged files that probes found since the last call, one line each.
    pub fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut *self.problems.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Marks the tables of `pos`'s material damaged, as its value `value` contradicts the
    /// best of its moves' `best`; the error, reported once, says so.
    fn contradiction(&self, pos: &crate::chess::Position, value: Wdl, best: Wdl) -> ProbeError {
        let material = Material::of(pos);
        let entry = self.by_material.get(&material).map(|&i| &self.entries[i]);
        let files: Vec<&TableFile> =
            entry.into_iter().flat_map(|e| [e.wdl.as_ref(), e.dtz.as_ref()]).flatten().collect();
        let names: Vec<String> = files.iter().map(|f| f.path().display().to_string()).collect();
        let error = ProbeError::Inconsistent {
            table: material.canonical().to_string(),
            fen: pos.to_fen(),
            value,
            best,
            files: names.join(" and "),
        };
        // Said once, as this error, however many files it stops.
        let first = files.iter().fold(false, |any, f| {
            f.mark_broken("its values contradict each other");
            f.first_report() || any
        });
        if first {
            self.problems.lock().unwrap_or_else(|e| e.into_inner()).push(error.to_string());
        }
        error
    }

    /// The stored value of `pos` in its WDL (`dtz` false) or DTZ table; see `Layout::probe`.
    fn stored(&self, pos: &crate::chess::Position, dtz: bool, wdl: i32) -> Result<table::Stored, ProbeError> {
        let material = Material::of(pos);
        let missing = || ProbeError::Missing { table: material.canonical().to_string(), dtz };
        let entry = self.by_material.get(&material).map(|&i| &self.entries[i]).ok_or_else(missing)?;
        let file = if dtz { entry.dtz.as_ref() } else { entry.wdl.as_ref() }.ok_or_else(missing)?;
        let result = file.probe(&self.cache, pos, wdl);
        if let Err(e @ ProbeError::Damaged { .. }) = &result {
            if file.first_report() {
                self.problems.lock().unwrap_or_else(|e| e.into_inner()).push(e.to_string());
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::table::{Kind, Layout};
    use super::*;
    use crate::chess::Position;

    /// Random legal positions of `material` (White has the first side).
    fn positions(material: Material, n: usize, seed: &mut u64) -> Vec<Position> {
        let mut next = move || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        };
        let mut out = Vec::new();
        while out.len() < n {
            let mut board = [None; 64];
            let mut letters = vec!['K', 'k'];
            for (side, upper) in [(material.white, true), (material.black, false)] {
                for (i, &c) in side.0.iter().enumerate() {
                    let l = ['p', 'n', 'b', 'r', 'q'][i];
                    letters.extend(std::iter::repeat_n(if upper { l.to_ascii_uppercase() } else { l }, c as usize));
                }
            }
            for l in letters {
                loop {
                    let sq = (next() % 64) as usize;
                    let pawn_on_back_rank = l.eq_ignore_ascii_case(&'p') && !(8..56).contains(&sq);
                    if board[sq].is_none() && !pawn_on_back_rank {
                        board[sq] = Some(l);
                        break;
                    }
                }
            }
            let rows: Vec<String> =
                (0..8).rev().map(|r| (0..8).map(|f| board[r * 8 + f].unwrap_or('1')).collect::<String>()).collect();
            let stm = if next() % 2 == 0 { "w" } else { "b" };
            if let Ok(p) = Position::from_fen(&format!("{} {stm} - - 0 1", rows.join("/"))) {
                out.push(p);
            }
        }
        out
    }

    /// Damaged bytes anywhere in a table give errors or (undetectably) other values, never
    /// a panic or a hang: every read and every loop is bounded by the file.
    #[test]
    fn damaged_bytes_never_panic() {
        crate::chess::attacks::init();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy/");
        let mut seed = 0x0BAD_5EED_u64;
        for (name, kind) in [("KQvKR", Kind::Wdl), ("KQvKR", Kind::Dtz), ("KPvK", Kind::Wdl), ("KPvK", Kind::Dtz)] {
            let material = Material::parse_name(name).expect("name");
            let ext = if kind == Kind::Wdl { "rtbw" } else { "rtbz" };
            let good = std::fs::read(format!("{dir}{name}.{ext}")).expect("table");
            let probes = positions(material, 40, &mut seed);
            let (mut errors, mut parsed) = (0, 0);
            for round in 0..300 {
                let mut bytes = good.clone();
                for _ in 0..1 + round % 8 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Mostly in the header and the indices, where damage is worst.
                    let span = if round % 2 == 0 { bytes.len().min(4096) } else { bytes.len() };
                    let at = (seed >> 8) as usize % span;
                    bytes[at] ^= (seed as u8) | 1;
                }
                let b = Bytes(&bytes);
                match Layout::parse(&b, kind, material) {
                    Err(_) => errors += 1,
                    Ok(layout) => {
                        parsed += 1;
                        for p in &probes {
                            let _ = layout.probe(&b, p, 2);
                        }
                    }
                }
            }
            assert!(errors > 0 && parsed > 0, "{name}.{ext}: {errors} rejected, {parsed} parsed");
        }
    }
}
