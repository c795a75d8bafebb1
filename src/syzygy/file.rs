//! A table file on disk: checked when found (name, size, magic number, the whole
//! header against the name, and the size the header lays out against the file's), then
//! read a page at a time as probes need it, through the page cache of its
//! [`Tablebases`](super::Tablebases) ([`super::cache`]).

use super::cache::{Cache, FileRef, ReadError};
use super::table::{Kind, Layout, Stored};
use super::{Bytes, Corrupt, ProbeError, Source, SHORT};
use crate::chess::Position;
use crate::syzygy::material::Material;
use once_cell::sync::OnceCell;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

pub(super) struct TableFile {
    path: PathBuf,
    /// Names the file in the cache.
    id: u32,
    len: u64,
    layout: Layout,
    /// Set when a probe found the file damaged: it is not used again.
    broken: OnceCell<String>,
    /// The damage has been reported once.
    reported: AtomicBool,
}

/// The size of a file whose header lays out `end` bytes: each value store is padded to
/// 64 bytes, and a 16-byte checksum follows.
fn expected_size(end: u64) -> u64 {
    end.next_multiple_of(64) + 16
}

impl TableFile {
    /// Checks the file at `path` as a `kind` table of `material`; the error says why not.
    /// `id` names it in the cache of the tables it joins.
    pub fn open(path: &Path, kind: Kind, material: Material, id: u32) -> Result<TableFile, String> {
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err("not a file".to_string());
        }
        let len = meta.len();
        // Every table ends in a 16-byte checksum after 64-byte aligned data.
        if len % 64 != 16 {
            return Err(format!("{len} bytes is not the size of a table (cut short?)"));
        }
        let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        // The header is usually a few KiB: read more only if it needs more.
        let mut prefix = Vec::new();
        let mut want = 16 * 1024u64;
        let layout = loop {
            let more = want.min(len) - prefix.len() as u64;
            (&mut file).take(more).read_to_end(&mut prefix).map_err(|e| e.to_string())?;
            if (prefix.len() as u64) < want.min(len) {
                return Err("the file shrank while it was read".to_string());
            }
            match Layout::parse(&Bytes(&prefix), kind, material) {
                Err(Corrupt(SHORT)) if want < len => want = want.saturating_mul(8),
                Err(Corrupt(e)) => return Err(e.to_string()),
                Ok(layout) => break layout,
            }
        };
        let expected = expected_size(layout.end);
        if expected != len {
            let why = if expected > len { "cut short?" } else { "padded, or its header damaged?" };
            return Err(format!("the header describes {expected} bytes, the file has {len} ({why})"));
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            id,
            len,
            layout,
            broken: OnceCell::new(),
            reported: AtomicBool::new(false),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where its sparse indices, block lengths and blocks begin (see `Layout::parts`).
    pub fn parts(&self) -> [u64; 3] {
        self.layout.parts
    }

    /// The stored value of `pos` (see `Layout::probe`), reading what it needs through
    /// `cache`; a file found damaged is marked so and fails from then on.
    pub fn probe(&self, cache: &Cache, pos: &Position, wdl: i32) -> Result<Stored, ProbeError> {
        if let Some(why) = self.broken.get() {
            return Err(self.damaged(why.clone()));
        }
        let source = FileSource { file: FileRef { id: self.id, path: &self.path, len: self.len }, cache };
        self.layout.probe(&source, pos, wdl).map_err(|e| self.mark_broken(e.0))
    }

    /// Marks the file damaged and returns the error to report.
    pub fn mark_broken(&self, why: &str) -> ProbeError {
        let why = self.broken.get_or_init(|| why.to_string());
        self.damaged(why.clone())
    }

    /// True the first time only: whether a damage found now still needs reporting.
    pub fn first_report(&self) -> bool {
        !self.reported.swap(true, Ordering::Relaxed)
    }

    fn damaged(&self, reason: String) -> ProbeError {
        ProbeError::Damaged { path: self.path.display().to_string(), reason }
    }
}

/// A table file read through the page cache.
struct FileSource<'a> {
    file: FileRef<'a>,
    cache: &'a Cache,
}

impl Source for FileSource<'_> {
    fn read(&self, at: u64, buf: &mut [u8]) -> Result<(), Corrupt> {
        self.cache.read(self.file, at, buf).map_err(|e| match e {
            ReadError::PastEnd => Corrupt(SHORT),
            ReadError::Shrunk => Corrupt("the file is shorter than when it was checked"),
            ReadError::SizeChanged => Corrupt("its size changed since it was checked"),
            ReadError::Io(e) => {
                log::warn!("Syzygy: reading {}: {e}", self.file.path.display());
                Corrupt("the file cannot be read")
            }
        })
    }
    fn len(&self) -> u64 {
        self.file.len
    }
}
