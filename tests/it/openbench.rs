//! `scripts/openbench_local.py`, the OpenBench chain on one machine, where it needs neither
//! OpenBench nor fastchess: the SPSA input block it makes from `params.rs` (what an OpenBench tune is
//! given) and its refusal to tune a commit whose build has no parameters as options. The chain itself
//! needs OpenBench and minutes of builds: run by hand, docs/openbench.md. Skipped without python3 or git.

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
