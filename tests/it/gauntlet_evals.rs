//! `scripts/gauntlet_evals.py`: where a gauntlet's games turn and the scale of Arbiter's scores
//! against the opponent's, on a PGN in fastchess's form whose figures are worked out by hand.
//! Skipped with a message where python3 is missing.

use crate::common::have_python;
use std::process::Command;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/gauntlet_evals.py");

/// Arbiter (White) loses the first game: the opponent's turning point is ply 4 (+1.60, never
/// below +0.75 after), Arbiter then says -0.40 and reaches -1.50 three plies later. Arbiter
/// (Black) wins the second with a mate score at ply 4, the loser saying nothing after it.
const PGN: &str = r#"[Event "Fastchess Tournament"]
[Round "1"]
[White "Arbiter-x"]
[Black "Ethereal-12"]
[Result "0-1"]

1. e4 {+0.10/10 0.100s} e5 {-0.10/10 0.100s} 2. Nf3 {+0.20/10 0.100s}
Nc6 {+1.60/10 0.100s} 3. Bb5 {-0.40/10 0.100s} Nf6 {+1.80/10 0.100s}
4. Bxc6 {-1.70/10 0.100s} dxc6 {+2.00/10 0.100s, White resigns} 0-1

[Event "Fastchess Tournament"]
[Round "1"]
[White "Ethereal-12"]
[Black "Arbiter-x"]
[Result "0-1"]

1. f3 {+0.00/5 0.100s} e5 {+0.30/5 0.100s} 2. g4 {-0.50/5 0.100s} Qh4# {+M1/5 0.100s, Black mates} 0-1
"#;

#[test]
fn turning_points_and_the_score_scale_are_read_from_the_comments() {
    if !have_python() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("arbiter-gauntlet-evals-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("ethereal.pgn"), PGN).expect("pgn");
    let out = Command::new("python3").arg(SCRIPT).arg(&dir).output().expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    for expected in [
        "Arbiter's losses: 1, a turning point in 1: ply 4, pieces 32 (<= 12: 0, 13-20: 0, > 20: 1); \
         the lead as Arbiter saw it: 40 cp; Arbiter at -150 after 3 plies (never: 0)",
        "Arbiter's wins: 1, a turning point in 1: ply 4, pieces 32",
        "the opponent at -150 after - plies (never: 1)",
        // (e5, g4): Arbiter -30, the opponent -50 from White's view.
        "opponent |score| 50-100 cp: 1 pairs, same sign 1.00, median Arbiter / opponent 0.60",
        // (Nf3, Nc6) disagree on the sign; (Nc6, Bb5) 0.25, (Bb5, Nf6) 0.22, (Nf6, Bxc6) 0.94.
        "opponent |score| 100-200 cp: 4 pairs, same sign 0.75, median Arbiter / opponent 0.25",
        // (Bxc6, dxc6): -170 against -200; the mate score is left out.
        "opponent |score| 200-400 cp: 1 pairs, same sign 1.00, median Arbiter / opponent 0.85",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let bad = Command::new("python3").arg(SCRIPT).arg(dir.join("missing")).output().expect("run");
    assert_eq!(bad.status.code(), Some(2), "{}", String::from_utf8_lossy(&bad.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
