//! A table file on disk: checked when found (name, size, magic number, the whole
//! header against the name and the size), its bytes read on the first probe.
//!
//! Why read the whole file then rather than map it: mapping a file needs `unsafe` (or
//! a crate that wraps it), and the tables this is for are small (all 3-4-piece tables
//! are 4.2 MiB, a 5-piece file a few MiB). Each file is read at most once, under its
//! own lock, by whichever search thread needs it first; the others wait for it.

use super::table::{Kind, Layout};
use super::{Bytes, Corrupt, ProbeError, SHORT};
use crate::syzygy::material::Material;
use once_cell::sync::OnceCell;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

pub(super) struct TableFile {
    path: PathBuf,
    len: u64,
    layout: Layout,
    /// The file's bytes, read on first use (or why they could not be).
    bytes: OnceCell<Result<Box<[u8]>, String>>,
    /// Set when a probe found the file damaged: it is not used again.
    broken: OnceCell<String>,
    /// The damage has been reported once.
    reported: AtomicBool,
}

impl TableFile {
    /// Checks the file at `path` as a `kind` table of `material`; the error says why not.
    pub fn open(path: &Path, kind: Kind, material: Material) -> Result<TableFile, String> {
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
        if layout.end > len {
            return Err(format!("the header describes {} bytes, the file has {len} (cut short?)", layout.end));
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            len,
            layout,
            bytes: OnceCell::new(),
            broken: OnceCell::new(),
            reported: AtomicBool::new(false),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header and the bytes, reading the file if this is its first use.
    pub fn get(&self) -> Result<(&Layout, Bytes<'_>), ProbeError> {
        if let Some(why) = self.broken.get() {
            return Err(self.damaged(why.clone()));
        }
        let bytes = self.bytes.get_or_init(|| {
            let data = std::fs::read(&self.path).map_err(|e| e.to_string())?;
            if data.len() as u64 != self.len {
                return Err(format!("its size changed from {} to {} bytes since it was checked", self.len, data.len()));
            }
            Ok(data.into_boxed_slice())
        });
        match bytes {
            Ok(b) => Ok((&self.layout, Bytes(b))),
            Err(e) => Err(self.mark_broken(e)),
        }
    }

    /// Marks the file damaged (a probe found it so) and returns the error to report.
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
