//! `arbiter rescore` as a user runs it: the positions of a self-play run's records searched
//! again, written as data lines `arbiter train` reads, the same bytes for any thread count, each
//! with its own game's result; bad command lines exit 2 with the reason.

use crate::common::{arbiter_in as arbiter, selfplay_data_dir, stderr_text as stderr};
use std::collections::HashMap;
use std::path::PathBuf;

fn setup(name: &str) -> PathBuf {
    selfplay_data_dir(&format!("rescore-{name}"), 4)
}

/// FEN -> result of each data line.
fn results(text: &str) -> HashMap<String, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 3, "{l}");
            f[1].parse::<i32>().unwrap_or_else(|_| panic!("score of {l}"));
            (f[0].to_string(), f[2].to_string())
        })
        .collect()
}

#[test]
fn rescored_positions_keep_their_games_results_for_any_thread_count() {
    let dir = setup("run");
    let one =
        arbiter(&["rescore", "--data", "data.games", "--nodes", "600", "--threads", "1", "--out", "one.txt"], &dir);
    let err = stderr(&one);
    assert!(one.status.success(), "{err}");
    assert!(one.stdout.is_empty());
    assert!(err.contains("positions read: ") && err.contains(" written to one.txt"), "{err}");
    let soft = |threads: &str, out: &str| {
        let o = arbiter(
            &[
                "rescore",
                "--data",
                "data.games",
                "--soft-nodes",
                "300",
                "--nodes",
                "600",
                "--threads",
                threads,
                "--out",
                out,
            ],
            &dir,
        );
        assert!(o.status.success(), "{}", stderr(&o));
    };
    soft("2", "two.txt");
    soft("3", "three.txt");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    assert_eq!(read("two.txt"), read("three.txt"), "the thread count changed the output");

    // Every written position is one of the run's, with its game's result; few are left out.
    let source = results(&read("data.txt"));
    let rescored = results(&read("one.txt"));
    assert!(rescored.len() * 10 >= source.len() * 9, "{} of {}", rescored.len(), source.len());
    for (fen, result) in &rescored {
        assert_eq!(source.get(fen), Some(result), "{fen}");
    }
    // Data lines rescore too, and the output trains.
    let again = arbiter(&["rescore", "--data", "data.txt", "--depth", "2", "--threads", "2", "--out", "d2.txt"], &dir);
    assert!(again.status.success(), "{}", stderr(&again));
    let train = arbiter(&["train", "--data", "one.txt", "--epochs", "1", "--batch", "64", "--threads", "1"], &dir);
    assert!(train.status.success(), "{}", stderr(&train));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_command_lines_exit_2_with_the_reason() {
    let dir = setup("errors");
    let cases: &[(&[&str], &str)] = &[
        (&["rescore", "--data", "missing.games", "--nodes", "100", "--out", "o.txt"], "cannot read missing.games"),
        (&["rescore", "--data", ".", "--nodes", "100", "--out", "o.txt"], "cannot read .: not a file"),
        (&["rescore", "--data", "data.games", "--out", "o.txt"], "give --nodes, --soft-nodes or --depth"),
        (&["rescore", "--data", "data.games", "--nodes", "0", "--out", "o.txt"], "--nodes"),
        (
            &["rescore", "--data", "data.games", "--soft-nodes", "500", "--nodes", "100", "--out", "o.txt"],
            "--soft-nodes",
        ),
        (
            &["rescore", "--data", "data.games", "--nodes", "100", "--option", "Hash", "--out", "o.txt"],
            "not NAME=VALUE",
        ),
        (&["rescore", "--data", "data.games", "--nodes", "100", "--option", "Hash=0", "--out", "o.txt"], "Hash=0"),
        (
            &["rescore", "--data", "data.games", "--nodes", "100", "--option", "EvalFile=none.nnue", "--out", "o.txt"],
            "none.nnue",
        ),
        (
            &["rescore", "--data", "data.games", "--nodes", "100", "--out", "no/such/dir/o.txt"],
            "cannot write no/such/dir/o.txt",
        ),
        (&["rescore", "--data", "data.games", "--nodes", "100", "--threads", "0", "--out", "o.txt"], "--threads"),
    ];
    std::fs::write(dir.join("o.txt"), "kept").unwrap();
    for (args, reason) in cases {
        let o = arbiter(args, &dir);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(reason), "{args:?}: expected {reason:?} in {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
        // A refused run leaves the output file as it was.
        assert_eq!(std::fs::read_to_string(dir.join("o.txt")).unwrap(), "kept", "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
