//! `scripts/openbench_local.py`, the OpenBench chain on one machine, where it needs neither
//! OpenBench nor fastchess: the SPSA input block it makes from `params.rs` (what an OpenBench tune is
//! given), and the checks it makes before it starts anything (a tune commit without the parameters as
//! options or with another bench than its README's, a missing `--selfplay` binary, commit, OpenBench
//! or fastchess). The chain itself needs OpenBench and minutes of builds: run by hand,
//! docs/openbench.md. Skipped without python3 or git.

use arbiter::engine::params::PARAMS;
use std::process::{Command, Output};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/openbench_local.py");

fn script(args: &[&str]) -> Option<Output> {
    let have = |tool: &str| Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success());
    let in_a_clone = Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !(have("python3") && in_a_clone) {
        eprintln!("SKIPPED: needs python3 and a git clone");
        return None;
    }
    Some(Command::new("python3").arg(SCRIPT).args(args).output().expect("run python3"))
}

#[test]
fn the_spsa_input_block_is_params_rs_with_openbenchs_defaults() {
    let Some(out) = script(&["spsa-input"]) else { return };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    // Every parameter of this build's params.rs, in order: name, int, default, min, max, C_end
    // ((max - min) / 20, at least 0.5, as scripts/spsa.py), R_end 0.002.
    let expected: Vec<String> = PARAMS
        .iter()
        .map(|p| {
            let c_end = (f64::from(p.max - p.min) / 20.0).max(0.5);
            format!("{}, int, {}, {}, {}, {c_end}, 0.002", p.name, p.default, p.min, p.max)
        })
        .collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    let Some(out) = script(&["spsa-input", "--params", "fp_base,rfp_margin", "--r-end", "0.01"]) else { return };
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "fp_base, int, 100, 0, 300, 15, 0.01\nrfp_margin, int, 75, 20, 200, 9, 0.01\n"
    );
    let Some(out) = script(&["spsa-input", "--params", "rfp_margin,no_such_param"]) else { return };
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_such_param is not a parameter"));
}

/// fastchess only warns about an option an engine lacks, so a tune of a build without the
/// parameters as options would move them by noise: the script refuses such a commit before
/// it starts anything.
#[test]
fn a_tune_of_a_commit_without_the_tune_feature_is_refused() {
    let missing = "/nonexistent/openbench";
    let Some(out) =
        script(&["--openbench", missing, "--fastchess", missing, "spsa", "--ref", "HEAD", "--params", "rfp_margin"])
    else {
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("Cargo.toml's default features do not include \"tune\""), "{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
}

/// Issue #64: `--selfplay ./arbiter` was used only after the whole run (no step built it, nothing
/// checked it), and a missing OpenBench or fastchess showed as a bare git error. Every path and
/// commit is checked before anything starts, each with what to do.
#[test]
fn paths_and_commits_are_checked_before_anything_starts() {
    let missing = "/nonexistent/openbench";
    let run = |extra: &[&str]| {
        let args = [&["--openbench", missing, "--fastchess", missing, "sprt", "--dev", "HEAD"][..], extra].concat();
        script(&args).map(|out| (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()))
    };
    let Some((code, stderr)) = run(&["--base", "HEAD", "--selfplay", "/nonexistent/arbiter"]) else { return };
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--selfplay /nonexistent/arbiter: no such program"), "{stderr}");
    assert!(stderr.contains("cargo build --release"), "{stderr}");
    let Some((code, stderr)) = run(&["--base", "HEAD", "--selfplay", "/bin/sh"]) else { return };
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("not an arbiter with selfplay"), "{stderr}");
    let Some((code, stderr)) = run(&["--base", "no_such_branch_of_arbiter"]) else { return };
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("no_such_branch_of_arbiter: no such commit or branch"), "{stderr}");
    let Some((code, stderr)) = run(&["--base", "HEAD", "--selfplay", env!("CARGO_BIN_EXE_arbiter")]) else { return };
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains(&format!("--openbench {missing}: not a git directory or clone")), "{stderr}");
    assert!(!stderr.contains("Traceback"), "{stderr}");
}

/// Issue #64: the tune branch's commit message carries the bench OpenBench checks; the page's
/// example had a stale one, which stopped the run only at the client's bench check, after the
/// builds. A tune commit whose message disagrees with its README's `Bench:` (the tune feature
/// changes no node count) is refused before anything starts.
#[test]
fn a_tune_commit_with_another_bench_than_its_readme_is_refused() {
    let dir = std::env::temp_dir().join(format!("arbiter-openbench-tune-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("Cargo.toml"), "[features]\ndefault = [\"tune\"]\ntune = []\n").expect("write");
    std::fs::write(dir.join("README.md"), "Bench: 2716417\n").expect("write");
    let git = |args: &[&str]| {
        let ok = Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(["-c", "user.name=test", "-c", "user.email=test@example.org"])
            .args(args)
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "tune: search parameters as UCI options. Bench: 2872112"]);
    let missing = "/nonexistent/openbench";
    let repo = dir.to_string_lossy().into_owned();
    let tune =
        ["--repo", &repo, "--openbench", missing, "--fastchess", missing, "spsa", "--ref", "HEAD", "--params", "x"];
    let Some(out) = script(&tune) else { return };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the commit message says Bench: 2872112, but README.md there says Bench: 2716417"),
        "{stderr}"
    );
    // With the README's bench the tune commit passes, and the next check speaks.
    git(&["commit", "-q", "--amend", "-m", "tune: search parameters as UCI options. Bench: 2716417"]);
    let Some(out) = script(&tune) else { return };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--openbench /nonexistent/openbench: not a git directory"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
