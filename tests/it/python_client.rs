//! Runs scripts/python_client_check.py (python-chess as a real UCI client) against the
//! built binary. Skipped, with a message, when python3 or python-chess is missing;
//! CI needs `pip install chess` in .ci/setup for it to run.

use std::process::Command;

#[test]
fn python_chess_client_session() {
    let have = Command::new("python3").args(["-c", "import chess.engine"]).output();
    if !matches!(have, Ok(ref o) if o.status.success()) {
        eprintln!("SKIPPED: python3 with python-chess not found (add `pip install chess` to .ci/setup)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/python_client_check.py");
    let out = Command::new("python3").args([script, env!("CARGO_BIN_EXE_arbiter")]).output().expect("run python3");
    let text = format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    assert!(out.status.success(), "python-chess session failed:\n{text}");
    assert!(text.contains("python-chess session OK"));
}
