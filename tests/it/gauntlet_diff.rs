//! `scripts/gauntlet_diff.py`, the bar's arithmetic: Elo of each gauntlet pairing and the
//! difference between two builds' gauntlets, on PGN files in cutechess-cli's form written here.
//! Skipped with a message where python3 is missing.

use crate::common::have_python;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gauntlet_diff.py");

/// The record's header line (`bench/gauntlets.tsv`).
const RECORD_HEADER: &str = "date\tbuild\topponent\ttc\tgames\twins\tdraws\tlosses\tpairs\tendings\tpgn_md5\n";

/// Runs the script with `args` and the record file `record`; its stdout (it must succeed).
fn run_script(args: &[&std::ffi::OsStr], record: &Path) -> String {
    let out = Command::new("python3").arg(SCRIPT).args(args).env("GAUNTLET_RECORD", record).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    text
}

/// One game in cutechess-cli's PGN form: `ours` is Arbiter's score (1, 0.5, 0) and
/// `white` whether Arbiter had White; `ending` the result comment.
fn game(out: &mut String, label: &str, round: u32, white: bool, ours: f64, ending: &str) {
    let (w, b) = if white { (label, "Opponent") } else { ("Opponent", label) };
    let white_score = if white { ours } else { 1.0 - ours };
    let result = match white_score {
        1.0 => "1-0",
        0.0 => "0-1",
        _ => "1/2-1/2",
    };
    let _ = write!(
        out,
        "[Event \"?\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{result}\"]\n\n\
         1. e4 {{+0.20/10 0.1s}} e5 {{-0.10/9 0.1s}} {{{ending}}} {result}\n\n"
    );
}

/// A gauntlet directory `gauntlet-LABEL` with one opponent file of the given pairs (Arbiter's
/// scores with White and with Black).
fn gauntlet(root: &Path, label: &str, pairs: &[(f64, f64)], ending: &str) -> PathBuf {
    let dir = root.join(format!("gauntlet-{label}"));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut pgn = String::new();
    for (i, &(a, b)) in pairs.iter().enumerate() {
        game(&mut pgn, &format!("Arbiter-{label}"), i as u32 + 1, true, a, "White mates");
        game(&mut pgn, &format!("Arbiter-{label}"), i as u32 + 1, false, b, ending);
    }
    std::fs::write(dir.join("ethereal.pgn"), pgn).expect("pgn");
    dir
}

#[test]
fn the_difference_of_two_gauntlets_is_new_minus_old_with_its_interval() {
    if !have_python() {
        return;
    }
    let root = std::env::temp_dir().join(format!("arbiter-gauntlet-diff-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    // Old: 10 pairs scoring 25 % (pairs of 0, 0.5 and 1 point); new: 10 pairs scoring 50 %.
    let old_pairs: Vec<(f64, f64)> = (0..10).map(|i| [(0.0, 0.0), (0.5, 0.0), (0.5, 0.5)][i % 3]).collect();
    let new_pairs: Vec<(f64, f64)> = (0..10).map(|i| [(1.0, 0.5), (0.0, 0.5)][i % 2]).collect();
    let old = gauntlet(&root, "old", &old_pairs, "Black loses on time");
    let new = gauntlet(&root, "new", &new_pairs, "Draw by adjudication");
    let out = Command::new("python3").arg(SCRIPT).arg(&old).arg(&new).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));

    let score_old: f64 = old_pairs.iter().map(|(a, b)| a + b).sum::<f64>() / 20.0;
    let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
    let line = |key: &str| text.lines().find(|l| l.contains(key)).unwrap_or_else(|| panic!("{key}: {text}"));
    // Old: W-D-L counted from the pairs; the time losses (Black games: Arbiter's) counted.
    let (w, d, l) = old_pairs.iter().flat_map(|&(a, b)| [a, b]).fold((0, 0, 0), |(w, d, l), s| match s {
        1.0 => (w + 1, d, l),
        0.5 => (w, d + 1, l),
        _ => (w, d, l + 1),
    });
    let old_line = text.lines().skip_while(|l| !l.contains("gauntlet-old")).nth(1).unwrap_or_default();
    assert!(old_line.contains(&format!("W-D-L {w}-{d}-{l}")), "{text}");
    assert!(old_line.contains(&format!("Elo {:+.1}", elo(score_old))), "{text}");
    assert!(old_line.contains("on time 10"), "{text}");
    let new_line = text.lines().skip_while(|l| !l.contains("gauntlet-new")).nth(1).unwrap_or_default();
    assert!(new_line.contains("Elo +0.0") && new_line.contains("pairs (0 .. 2 points) 0 5 0 5 0"), "{text}");
    assert!(new_line.contains("none"), "{text}");
    // The difference is new minus old, and its interval contains it.
    let diff = line("ethereal: +");
    assert!(diff.contains(&format!("{:+.1} [", -elo(score_old))), "{text}");
    let nums: Vec<f64> = diff
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .filter_map(|t| t.parse().ok())
        .collect();
    assert!(nums.len() >= 3 && nums[1] < nums[0] && nums[0] < nums[2], "{diff}");
    assert!(line("mean over 1 opponents").contains(&format!("{:+.1}", -elo(score_old))), "{text}");
    let _ = std::fs::remove_dir_all(&root);
}

/// A gauntlet recorded with `--record` (a row a pairing in `bench/gauntlets.tsv`'s form) gives
/// the same figures as its PGNs, so a bar measured once stays comparable once the PGNs are gone.
#[test]
fn a_recorded_gauntlet_stands_in_for_its_pgns() {
    if !have_python() {
        return;
    }
    let root = std::env::temp_dir().join(format!("arbiter-gauntlet-record-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let pairs: Vec<(f64, f64)> = (0..12).map(|i| [(0.0, 0.0), (1.0, 0.5), (0.5, 0.0), (1.0, 1.0)][i % 4]).collect();
    let dir = gauntlet(&root, "rec", &pairs, "Black loses on time");
    let record = root.join("gauntlets.tsv");
    let rows = run_script(&["--record".as_ref(), dir.as_os_str()], &record);
    assert_eq!(rows.lines().count(), 1, "{rows}");
    assert!(rows.starts_with("?\trec\tethereal\t?\t24\t"), "{rows}");
    std::fs::write(&record, format!("# a comment\n{RECORD_HEADER}{rows}")).expect("record");

    let from_pgns = run_script(&[dir.as_os_str()], &record);
    let from_record = run_script(&["rec".as_ref()], &record);
    let figures = |text: &str| text.lines().nth(1).map(|l| l.to_string()).unwrap_or_default();
    assert!(figures(&from_pgns).contains("on time 12"), "{from_pgns}");
    assert_eq!(figures(&from_pgns), figures(&from_record), "{from_pgns}{from_record}");
    // A label the record lacks is an error, not an empty gauntlet.
    let out = Command::new("python3").arg(SCRIPT).arg("nosuch").env("GAUNTLET_RECORD", &record).output().expect("run");
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("nosuch"));
    let _ = std::fs::remove_dir_all(&root);
}

/// A fault is charged to the side the result comment names: the opponent's time losses are
/// counted apart from Arbiter's (the bar requires none of Arbiter's), in the PGNs and the record.
#[test]
fn the_opponents_time_losses_are_counted_apart_from_ours() {
    if !have_python() {
        return;
    }
    let root = std::env::temp_dir().join(format!("arbiter-gauntlet-fault-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    // Arbiter has Black in the second game of every pair; there White (the opponent) loses on time.
    let pairs = [(0.5, 1.0), (0.0, 1.0), (1.0, 1.0)];
    let dir = gauntlet(&root, "fault", &pairs, "White loses on time");
    let record = root.join("gauntlets.tsv");
    let run = |args: &[&std::ffi::OsStr]| run_script(args, &record);
    let text = run(&[dir.as_os_str()]);
    assert!(text.contains("disconnections: opponent on time 3"), "{text}");
    let rows = run(&["--record".as_ref(), dir.as_os_str()]);
    assert!(rows.contains("\topponent on time 3\t"), "{rows}");
    std::fs::write(&record, format!("{RECORD_HEADER}{rows}")).expect("record");
    assert!(run(&["fault".as_ref()]).contains("disconnections: opponent on time 3"));
    let _ = std::fs::remove_dir_all(&root);
}

/// The committed record is well formed and reproduces the bar's figures in docs/strength.md.
#[test]
fn the_committed_record_gives_the_documented_difference() {
    if !have_python() {
        return;
    }
    let out = Command::new("python3").arg(SCRIPT).args(["a0accca", "16b65be"]).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("mean over 2 opponents: +215.1 [+152.8, +277.4]"), "{text}");
}
