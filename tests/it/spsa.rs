//! `scripts/spsa.py`, the SPSA tuner of the search parameters, as a user runs it.
//!
//! The fast tests give it a stand-in tune build (tests/fixtures/spsa_fake_engine.py) whose
//! `selfplay` reports chosen results as the real `selfplay --json` does (written here by
//! `summary_json`), and check the state file against SPSA's definition
//! (tests/fixtures/spsa_check.py). The test against a real tune build is ignored: it needs a
//! second release build with `--features tune` (about as long as the first); run it with
//! `cargo test --release --test it spsa:: -- --ignored` (ARBITER_TUNE=path skips that build).
//! Skipped with a message where python3 is missing.

use crate::common::have_python;
use arbiter::tools::selfplay::runner::{Incidents, MatchSummary};
use arbiter::tools::selfplay::stats::Tally;
use arbiter::tools::selfplay::summary_json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/spsa.py");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/spsa_fake_engine.py");
const CHECK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/spsa_check.py");
const OPENINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.epd");

/// A fresh scratch directory holding the summaries the fake's `selfplay` prints: one per
/// pentanomial count with every pair alike (1 to 3 pairs), as `arbiter selfplay --json` prints it.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-spsa-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("summaries")).expect("scratch dir");
    for pairs in 1..=3u64 {
        for score in 0..5 {
            let mut penta = [0u64; 5];
            penta[score] = pairs;
            // Pair scores in half points: 4 = two wins, 3 = win + draw, 2 = two draws, ...
            let [w, d, l] = [[0, 0, 2], [0, 1, 1], [0, 2, 0], [1, 1, 0], [2, 0, 0]][score].map(|x| x * pairs);
            let summary = MatchSummary {
                a_name: "Fake tune build".into(),
                b_name: "Fake tune build".into(),
                tally: Tally { wins: w, draws: d, losses: l, penta },
                incidents: Incidents::default(),
                sprt: None,
                decided_on: None,
                elapsed: std::time::Duration::from_secs(1),
                records: Vec::new(),
                interrupted: false,
            };
            let key = penta.map(|x| x.to_string()).join("-");
            std::fs::write(dir.join("summaries").join(format!("{key}.json")), summary_json(&summary, None))
                .expect("write summary");
        }
    }
    dir
}

/// Runs the script with the fake as engine; `fake` is SPSA_FAKE_SCORES=... or SPSA_FAKE_OPTIMUM=...
fn spsa(dir: &Path, fake: (&str, &str), args: &[&str]) -> Output {
    let defaults = ["--engine", FAKE, "--nodes", "100", "--openings", OPENINGS, "--quiet"];
    run_with_fake(dir, fake, &[&defaults, args].concat())
}

/// Runs the script with exactly `args`, the fake's log and summaries in `dir`.
fn run_with_fake(dir: &Path, fake: (&str, &str), args: &[&str]) -> Output {
    Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .env("SPSA_FAKE_LOG", dir.join("log"))
        .env("SPSA_FAKE_SUMMARIES", dir.join("summaries"))
        .env(fake.0, fake.1)
        .output()
        .expect("run python3")
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

fn check(state: &Path, log: Option<&Path>) -> String {
    let out = Command::new("python3").arg(CHECK).arg(state).args(log).output().expect("run python3");
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    text(&out.stdout)
}

/// The value `setoption name NAME value V` lines of the last report give NAME.
fn reported(stdout: &str, name: &str) -> i64 {
    let prefix = format!("setoption name {name} value ");
    let line =
        stdout.lines().rev().find(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("no {prefix}:\n{stdout}"));
    line[prefix.len()..].parse().unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn every_iteration_follows_the_update_rule_on_the_results_reported() {
    if !have_python() {
        return;
    }
    let dir = scratch("rule");
    let state = dir.join("state.json");
    let s = state.to_str().unwrap();
    // Two pairs per iteration: 2 wins + 2 wins, then 0 + 0, then win-draw twice.
    let args = ["--iterations", "3", "--pairs-per-iteration", "2", "--c-end", "see_y=3", "--seed", "7", "--out", s];
    let out = spsa(&dir, ("SPSA_FAKE_SCORES", "4,0,3"), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(check(&state, Some(&dir.join("log"))), "ok 3 iterations\n");
    // The last report: theta as setoption lines and as OpenBench's SPSA input (C_end: the range
    // / 20 unless given; R_end 0.002), the Hash, UCI_Elo options of the fake left out.
    let stdout = text(&out.stdout);
    assert!(stdout.contains("# theta after 3/3 iterations (seed 7)\n"), "{stdout}");
    let x = reported(&stdout, "lmr_x");
    let y = reported(&stdout, "see_y");
    assert!(
        stdout.contains(&format!("\nlmr_x, int, {x}, 0, 100, 5, 0.002\nsee_y, int, {y}, 0, 40, 3, 0.002\n")),
        "{stdout}"
    );
    assert!(!stdout.contains("Hash") && !stdout.contains("UCI_Elo"), "{stdout}");

    // The same run stopped by a failing match after two iterations and resumed plays the same
    // games (same values, same opening seeds) and ends in the same state.
    let dir2 = scratch("resume");
    let state2 = dir2.join("state.json");
    let s2 = state2.to_str().unwrap();
    let args2 = ["--iterations", "3", "--pairs-per-iteration", "2", "--c-end", "see_y=3", "--seed", "7", "--out", s2];
    let stopped = spsa(&dir2, ("SPSA_FAKE_SCORES", "4,0"), &args2);
    assert_eq!(stopped.status.code(), Some(1), "{}", text(&stopped.stderr));
    assert!(text(&stopped.stderr).starts_with("spsa: error: "), "{}", text(&stopped.stderr));
    assert_eq!(check(&state2, None), "ok 2 iterations\n");
    let resumed = spsa(&dir2, ("SPSA_FAKE_SCORES", "4,0,3"), &["--out", s2, "--resume"]);
    // --resume takes the run's settings from the state: the --nodes and --openings spsa() passes
    // are refused, so resume without them.
    assert_eq!(resumed.status.code(), Some(2), "{}", text(&resumed.stderr));
    assert!(text(&resumed.stderr).contains("drop --nodes --openings"), "{}", text(&resumed.stderr));
    let resumed = run_with_fake(&dir2, ("SPSA_FAKE_SCORES", "4,0,3"), &["--out", s2, "--resume", "--quiet"]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(check(&state2, Some(&dir2.join("log"))), "ok 3 iterations\n");
    assert_eq!(std::fs::read_to_string(dir.join("log")).unwrap(), std::fs::read_to_string(dir2.join("log")).unwrap());
    assert_eq!(reported(&text(&resumed.stdout), "lmr_x"), x);
    assert_eq!(reported(&text(&resumed.stdout), "see_y"), y);
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(dir2);
}

#[test]
fn theta_climbs_to_the_value_that_wins() {
    if !have_python() {
        return;
    }
    // The fake's player nearer lmr_x = 90 wins both games; from 50, with a large R_end, theta
    // reaches 90 in about ten iterations and stays within a step of it (a wrong sign would drive
    // it to 0).
    let dir = scratch("climb");
    let state = dir.join("state.json");
    let args = ["--params", "lmr_x", "--iterations", "30", "--r-end", "0.2", "--out", state.to_str().unwrap()];
    let out = spsa(&dir, ("SPSA_FAKE_OPTIMUM", "lmr_x=90"), &args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    check(&state, Some(&dir.join("log")));
    let x = reported(&text(&out.stdout), "lmr_x");
    assert!((88..=92).contains(&x), "lmr_x ended at {x}, not near 90:\n{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mistakes_are_one_line_on_stderr_and_a_failure_status() {
    if !have_python() {
        return;
    }
    let dir = scratch("mistakes");
    let out = dir.join("state.json");
    let o = out.to_str().unwrap();
    std::fs::write(dir.join("exists.json"), "{}").unwrap();
    let exists = dir.join("exists.json");
    let normal_build = env!("CARGO_BIN_EXE_arbiter");
    let cases: &[(&[&str], &str)] = &[
        (&["--engine", "/nonexistent/arbiter-tune", "--nodes", "100", "--out", o], "no such file"),
        (&["--engine", normal_build, "--nodes", "100", "--out", o], "lists no search parameters"),
        (
            &["--engine", FAKE, "--nodes", "100", "--params", "lmr_x,nope", "--out", o],
            "not a parameter being tuned: nope",
        ),
        (&["--engine", FAKE, "--nodes", "100", "--c-end", "see_y=2", "--params", "lmr_x", "--out", o], "see_y"),
        (&["--engine", FAKE, "--nodes", "100", "--tc", "1+0.01", "--out", o], "exactly one of --nodes and --tc"),
        (&["--engine", FAKE, "--out", o], "exactly one of --nodes and --tc"),
        (&["--engine", FAKE, "--nodes", "100", "--out", exists.to_str().unwrap()], "--resume continues it"),
        (&["--out", exists.to_str().unwrap(), "--resume"], "not a state file"),
        (&["--out", o, "--resume"], "cannot read"),
        (&["--engine", FAKE, "--nodes", "0", "--out", o], "must be positive"),
        (&["--engine", FAKE, "--nodes", "100", "--c-end", "lmr_x", "--out", o], "expected name=positive number"),
        (&["--engine", FAKE, "--nodes", "100", "--iterations", "ten", "--out", o], "not a number"),
    ];
    for (args, says) in cases {
        let mut cmd = Command::new("python3");
        cmd.arg(SCRIPT).args(*args);
        if args.contains(&"--nodes") {
            cmd.args(["--openings", OPENINGS]);
        }
        let r = cmd.output().expect("run python3");
        let err = text(&r.stderr);
        assert!(matches!(r.status.code(), Some(1 | 2)), "{args:?}: {:?} {err}", r.status);
        assert!(err.contains(says) && !err.contains("Traceback"), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} wrote a state file");
    }
    let missing = Command::new("python3")
        .args([SCRIPT, "--engine", FAKE, "--nodes", "100", "--openings", "/nonexistent.epd", "--out", o])
        .output()
        .expect("run python3");
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("no such openings file"), "{}", text(&missing.stderr));
    let _ = std::fs::remove_dir_all(dir);
}

/// The tune build: $ARBITER_TUNE, or built here into target/tune.
fn tune_build() -> PathBuf {
    if let Some(path) = std::env::var_os("ARBITER_TUNE") {
        return PathBuf::from(path);
    }
    let target = concat!(env!("CARGO_MANIFEST_DIR"), "/target/tune");
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--features", "tune", "--bin", "arbiter", "--target-dir", target])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo");
    assert!(status.success(), "cargo build --features tune failed");
    Path::new(target).join("release/arbiter")
}

#[test]
#[ignore = "builds the engine a second time with --features tune; run with --ignored"]
fn tunes_a_real_tune_build() {
    if !have_python() {
        return;
    }
    let engine = tune_build();
    let dir = scratch("real");
    let state = dir.join("state.json");
    let out = Command::new("python3")
        .arg(SCRIPT)
        .arg("--engine")
        .arg(&engine)
        .args(["--params", "rfp_margin,lmr_base,nmp_base", "--iterations", "3", "--nodes", "300"])
        .args(["--openings", OPENINGS, "--concurrency", "2", "--quiet", "--out", state.to_str().unwrap()])
        .output()
        .expect("run python3");
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The results parsed from the real summary add up (W + D + L, the pairs, W - L against the
    // pentanomial counts) and theta moved as the rule says.
    assert_eq!(check(&state, None), "ok 3 iterations\n");
    let stdout = text(&out.stdout);
    for (name, lo, hi) in [("rfp_margin", 20, 200), ("lmr_base", 0, 200), ("nmp_base", 1, 6)] {
        assert!((lo..=hi).contains(&reported(&stdout, name)), "{stdout}");
        assert!(stdout.contains(&format!("{name}, int, ")), "{stdout}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
