//! The project's self-play data, `nets/data/*.games.xz` (game records, docs/nnue.md): each file
//! is the one `nets/data/MD5SUMS` names, none is unlisted, and every line of it is a game record
//! the current code reads and expands to training data.

use arbiter::tools::selfplay::records;
use std::path::Path;
use std::process::Command;

fn output(cmd: &str, args: &[&str]) -> Option<Vec<u8>> {
    let o = Command::new(cmd).args(args).output().ok()?;
    o.status.success().then_some(o.stdout)
}

#[test]
fn committed_game_records_are_whole_and_readable() {
    arbiter::chess::attacks::init();
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
        return;
    }
    for (md5, name) in listed {
        let path = dir.join(name);
        let path = path.to_str().expect("a UTF-8 path");
        let sum = output("md5sum", &[path]).expect("md5sum");
        assert!(String::from_utf8_lossy(&sum).starts_with(md5), "{name}: md5 is not {md5}");
        let text = String::from_utf8(output("xz", &["-dc", path]).expect("xz -dc")).expect("UTF-8 records");
        let (lines, bad) = records::expand(&text, records::DEFAULT_SKIP_PLIES);
        assert_eq!(bad, 0, "{name}: {bad} lines are not game records");
        let games = text.lines().count();
        let positions = lines.lines().count();
        assert!(games > 0 && positions > 20 * games, "{name}: {games} games, {positions} positions");
        eprintln!("{name}: {games} games, {positions} positions");
    }
}
