//! The project's self-play data, `nets/data/*.games.xz` (game records, docs/nnue.md): each file
//! is the one `nets/data/MD5SUMS` names and none is unlisted; the current code reads its records
//! and expands them to training data.
//!
//! CI checks every file's checksum (the whole file, so damage anywhere is caught) and expands the
//! first [`SAMPLE_GAMES`] records of each, so CI time does not grow with the data. Expanding every
//! record is the ignored test, run by hand after a shard is added:
//! `cargo test --release --test it selfplay_data:: -- --ignored --nocapture`.

use arbiter::data::records;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Records expanded per file in CI: enough to meet every kind of line the writer produces
/// (decisive and drawn games, scores, promotions), a second of work.
const SAMPLE_GAMES: usize = 500;

fn output(cmd: &str, args: &[&str]) -> Option<Vec<u8>> {
    let o = Command::new(cmd).args(args).output().ok()?;
    o.status.success().then_some(o.stdout)
}

/// The files MD5SUMS lists, checked against the directory; `None` (with a note) when the tools
/// to read them are missing.
fn listed_files() -> Option<Vec<(String, PathBuf)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/data");
    let sums = std::fs::read_to_string(dir.join("MD5SUMS")).expect("nets/data/MD5SUMS");
    let listed: Vec<(&str, &str)> = sums.lines().filter_map(|l| l.split_once("  ")).collect();
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("nets/data")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".games.xz"))
        .collect();
    on_disk.sort();
    let mut names: Vec<String> = listed.iter().map(|(_, n)| n.to_string()).collect();
    names.sort();
    assert_eq!(on_disk, names, "every nets/data/*.games.xz has one MD5SUMS line, and no other file");
    if output("xz", &["--version"]).is_none() || output("md5sum", &["--version"]).is_none() {
        eprintln!("SKIPPED: xz or md5sum not found (apt-get install xz-utils coreutils)");
        return None;
    }
    Some(listed.iter().map(|(md5, name)| (md5.to_string(), dir.join(name))).collect())
}

/// The first `limit` lines of an xz file (all of them for `usize::MAX`), decompressing no more
/// than that needs.
fn records_of(path: &Path, limit: usize) -> String {
    let mut xz = Command::new("xz").arg("-dc").arg(path).stdout(Stdio::piped()).spawn().expect("xz -dc");
    let reader = BufReader::new(xz.stdout.take().expect("xz stdout"));
    let mut text = String::new();
    for line in reader.lines().take(limit) {
        text.push_str(&line.expect("UTF-8 records"));
        text.push('\n');
    }
    // Stopping early closes the pipe: xz then ends on SIGPIPE, which is expected.
    let _ = xz.kill();
    let _ = xz.wait();
    text
}

fn check_records(name: &str, text: &str) -> (usize, usize) {
    let (lines, bad) = records::expand(text, records::DEFAULT_SKIP_PLIES);
    assert_eq!(bad, 0, "{name}: {bad} lines are not game records");
    let games = text.lines().count();
    let positions = lines.lines().count();
    assert!(games > 0 && positions > 20 * games, "{name}: {games} games, {positions} positions");
    (games, positions)
}

#[test]
fn committed_game_records_are_whole_and_readable() {
    arbiter::chess::attacks::init();
    let Some(listed) = listed_files() else { return };
    for (md5, path) in listed {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a UTF-8 name").to_string();
        let sum = output("md5sum", &[path.to_str().expect("a UTF-8 path")]).expect("md5sum");
        assert!(String::from_utf8_lossy(&sum).starts_with(&md5), "{name}: md5 is not {md5}");
        let text = records_of(&path, SAMPLE_GAMES);
        assert_eq!(text.lines().count(), SAMPLE_GAMES, "{name}: fewer than {SAMPLE_GAMES} records");
        check_records(&name, &text);
    }
}

#[test]
#[ignore = "expands every committed record (minutes); run by hand after adding a shard"]
fn every_committed_game_record_expands() {
    arbiter::chess::attacks::init();
    let Some(listed) = listed_files() else { return };
    for (_, path) in listed {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a UTF-8 name").to_string();
        let (games, positions) = check_records(&name, &records_of(&path, usize::MAX));
        eprintln!("{name}: {games} games, {positions} positions");
    }
}
