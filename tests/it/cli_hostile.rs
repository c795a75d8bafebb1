//! `arbiter explain` run as a process with hostile arguments (issue 6, item 1): random bytes
//! (non-UTF-8 included), token soups of real flags and values, hostile `--fen` / `--moves` /
//! MOVE / `--lang`, very long arguments, an SVG path that cannot be written. The contract
//! (src/rules/cli.rs): exit 0 with output on stdout, 2 with a reason on stderr and nothing
//! on stdout, 1 when the SVG cannot be written; clap's own usage errors also exit 2.
//! Never a panic (exit 101) or a signal.
//!
//! CI: 300 invocations. Long run: `ARBITER_CLI_FUZZ=5000 cargo test --release --test it cli_hostile:: -- --ignored`.

use crate::common::hostile::{self, Rng};
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::process::Command;

const TOKENS: &[&str] = &[
    "--fen",
    "--moves",
    "--lang",
    "--json",
    "--svg",
    "--",
    "-",
    "--fen=",
    "--lang=zh",
    "en",
    "zh",
    "fr",
    "e4",
    "exd6",
    "e.p.",
    "O-O",
    "e2e4",
    "Nf3",
    "e8=Q",
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
    "e2e4 e7e5 g1f3",
    "e4 e5 Nf3 Nc6 Bb5",
];
const MOVES: &[&str] = &["e4", "Nf3", "exd6 e.p.", "O-O", "e8=Q", "e2e4", "Ke2", "bxc6"];

fn argv(rng: &mut Rng, i: usize, svg_dir: &std::path::Path) -> Vec<OsString> {
    let mut v: Vec<OsString> = vec!["explain".into()];
    match i % 6 {
        0 => {
            for _ in 0..1 + rng.below(4) {
                v.push(OsString::from_vec(hostile::random_bytes(rng, 24)));
            }
        }
        1 => {
            for _ in 0..rng.below(7) {
                v.push(rng.pick(TOKENS).into());
            }
        }
        2 => {
            let fen = hostile::mutate(rng, "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2", "pnbrqkPNBRQK12345678/ wb-");
            let moves = hostile::token_soup(rng, MOVES, 4);
            v.extend(["--fen".into(), fen.into(), "--moves".into(), moves.into(), "bxc6".into()]);
        }
        3 => {
            let k = rng.below(hostile::KINDS);
            let mv = hostile::hostile(rng, k, MOVES, MOVES, "KQRBNabcdefgh12345678x=+#-O");
            v.extend(["--json".into(), "--lang".into(), (*rng.pick(&["en", "zh", "xx"])).into(), mv.into()]);
        }
        4 => {
            // An SVG into a directory that does not exist (exit 1), or a good one (exit 0).
            let path = if rng.one_in(2) { svg_dir.join("x.svg") } else { svg_dir.join("missing/dir/x.svg") };
            v.extend(["--svg".into(), path.into_os_string(), rng.pick(MOVES).to_string().into()]);
        }
        _ => {
            let long = hostile::long_line(rng, MOVES, MOVES);
            v.extend([OsString::from("--moves"), long.into()]);
        }
    }
    v
}

fn run(n: usize, seed: u64) {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng::new(seed);
    let mut codes = [0usize; 3];
    for i in 0..n {
        // An argument cannot hold a NUL byte (execve): those become 0x01.
        let args: Vec<OsString> = argv(&mut rng, i, &dir)
            .into_iter()
            .map(|a| OsString::from_vec(a.into_vec().into_iter().map(|b| b.max(1)).collect()))
            .collect();
        // In the scratch directory: a soup may contain `--svg <word>`, a relative file.
        let out =
            Command::new(env!("CARGO_BIN_EXE_arbiter")).args(&args).current_dir(&dir).output().expect("run arbiter");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let Some(code) = out.status.code() else { panic!("killed by a signal: {:?} {args:?}", out.status) };
        assert!(!stderr.contains("panicked"), "panic for {args:?}:\n{stderr}");
        match code {
            0 => assert!(!out.stdout.is_empty(), "exit 0 without output for {args:?}"),
            1 => assert!(stderr.contains("cannot write"), "exit 1 without the reason for {args:?}:\n{stderr}"),
            2 => {
                assert!(!stderr.trim().is_empty(), "exit 2 without a reason for {args:?}");
                assert!(out.stdout.is_empty(), "exit 2 with output on stdout for {args:?}");
            }
            c => panic!("exit status {c} for {args:?}:\n{stderr}"),
        }
        codes[code as usize] += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("cli_hostile: {n} invocations, exit 0/1/2: {codes:?}");
    assert!(codes[0] > 0 && codes[2] > 0, "the generators reach only one outcome: {codes:?}");
}

#[test]
fn explain_cli_survives_hostile_arguments() {
    run(300, 0xC11_0001);
}

#[test]
#[ignore = "long run: ARBITER_CLI_FUZZ invocations (default 5,000)"]
fn explain_cli_survives_hostile_arguments_long() {
    let n = std::env::var("ARBITER_CLI_FUZZ").ok().and_then(|s| s.parse().ok()).unwrap_or(5_000);
    run(n, 0xC11_0002);
}
