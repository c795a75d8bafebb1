//! `arbiter train` as a user runs it: on positions `arbiter selfplay --datagen` wrote (plus
//! damaged lines), it writes a network file the engine reads, the same bytes for any thread
//! count; a checkpoint resumes; the run's game records (`--records`) train the same network as
//! its data lines; bad command lines exit 2 with the reason on stderr.

use crate::common::{arbiter_in as arbiter, selfplay_data_dir, stderr_text as stderr};
use arbiter::engine::nnue::{file_bytes, layout, Network, FILE_BYTES};
use std::path::PathBuf;

/// A fresh directory with a data file from a short node-limited self-play run, three damaged
/// lines in it and a last line cut short, as in a file still being written.
fn setup(name: &str) -> PathBuf {
    let dir = selfplay_data_dir(&format!("train-{name}"), 6);
    let text = std::fs::read_to_string(dir.join("data.txt")).unwrap();
    std::fs::write(dir.join("clean.txt"), &text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 150, "too little data: {} lines", lines.len());
    let mut damaged = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        damaged.push(l.to_string());
        match i {
            10 => damaged.push("8/8/8/8 w - - 0 1 | 12 | 0.5".into()),
            20 => damaged.push("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | twelve | 0.5".into()),
            30 => damaged.push("\u{fffd}\u{fffd} | | |".into()),
            _ => {}
        }
    }
    let mut out = damaged.join("\n");
    out.push_str("\nrnbqkbnr/pppppppp/8/8/8/8/PPPP");
    std::fs::write(dir.join("data.txt"), out).unwrap();
    dir
}

const TRAIN: [&str; 10] =
    ["train", "--data", "data.txt", "--batch", "64", "--seed", "7", "--validation", "0.2", "--threads"];

#[test]
fn trains_a_network_the_engine_reads_the_same_for_any_thread_count() {
    let dir = setup("run");
    let mut one = TRAIN.to_vec();
    one.extend(["1", "--epochs", "3", "--out", "one.nnue", "--checkpoint", "one.ckpt"]);
    let o = arbiter(&one, &dir);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(o.stdout.is_empty());
    assert!(err.contains("skipped 4 malformed lines"), "{err}");
    assert!(
        err.contains("win probability sigmoid(cp / ") && err.contains("fitted to the training positions' results"),
        "{err}"
    );
    // No epoch on the quantisation grid by default: the output layer is fitted afterwards.
    for epoch in 1..=3 {
        assert!(err.contains(&format!("epoch {epoch:3}/3: training ")), "{err}");
    }
    assert!(err.contains("validation 0.") && err.contains("positions/s"), "{err}");
    assert!(err.contains("quantised (fitted): |float - quantised| mean "), "{err}");
    let bytes = std::fs::read(dir.join("one.nnue")).unwrap();
    assert_eq!(bytes.len(), FILE_BYTES);
    let net = Network::read(&dir.join("one.nnue")).expect("the engine reads the network");
    assert_ne!(net, Network::zeroed());

    let mut two = TRAIN.to_vec();
    two.extend(["2", "--epochs", "3", "--out", "two.nnue"]);
    let o = arbiter(&two, &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("two.nnue")).unwrap(), bytes, "2 threads trained another network");

    // Resuming from the checkpoint continues from the trained weights, not from scratch.
    let mut resumed = TRAIN.to_vec();
    resumed.extend(["2", "--resume", "one.ckpt", "--epochs", "1", "--lr", "1e-9", "--out", "resumed.nnue"]);
    let o = arbiter(&resumed, &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let again = Network::read(&dir.join("resumed.nnue")).unwrap();
    let differing = again.ft_weights.iter().zip(net.ft_weights.iter()).filter(|(a, b)| a != b).count();
    assert!(differing < net.ft_weights.len() / 100, "{differing} feature weights moved at lr 1e-9");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The trainer's own check of the fitted quantised network against the float one, on
/// held-out positions: a mean difference under 3 cp and the largest under 20 cp.
fn quantised_within_the_float_model(err: &str) {
    let line = err.lines().find(|l| l.starts_with("quantised (fitted): ")).unwrap_or_else(|| panic!("{err}"));
    let figures: Vec<f64> =
        line.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter_map(|w| w.parse().ok()).collect();
    assert!(figures.len() >= 2 && figures[0] < 3.0 && figures[1] < 20.0, "{line}");
}

/// `--input-layout mirror4`: a version 2 file with four king buckets that `EvalFile` loads,
/// its quantised evaluation within the trainer's float model's, no mirror images added; a
/// checkpoint of one layout does not resume another.
#[test]
fn a_king_bucket_network_trains_and_loads() {
    let dir = setup("buckets");
    let args: Vec<&str> =
        "--batch 64 --seed 5 --threads 1 --input-layout mirror4 --epochs 2 --qat-epochs 1".split(' ').collect();
    let o = arbiter(
        &[&["train", "--data", "data.games"][..], &args, &["--out", "b.nnue", "--checkpoint", "b.ckpt"]].concat(),
        &dir,
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("input layout mirror4: no mirror images of positions added"), "{err}");
    assert!(
        err.contains("epoch   1/2: training ") && err.contains("epoch   2/2 (on the quantisation grid): "),
        "{err}"
    );
    let bytes = std::fs::read(dir.join("b.nnue")).unwrap();
    assert_eq!(bytes.len(), file_bytes(4, true));
    assert_eq!(bytes[8..12], 2u32.to_le_bytes(), "format version");
    let net = Network::read(&dir.join("b.nnue")).expect("the engine reads the network");
    assert_eq!(net.layout, layout::MIRROR4);
    quantised_within_the_float_model(&err);
    // The engine evaluates with it.
    let mut engine = arbiter::engine::Engine::new(arbiter::engine::EngineOptions {
        hash_mb: 1,
        ..arbiter::engine::EngineOptions::default()
    })
    .expect("engine");
    engine.set_option("EvalFile", Some(&dir.join("b.nnue").to_string_lossy())).expect("a valid network file");
    assert_eq!(engine.network().map(|n| n.network()), Some(&net));
    // Resuming its checkpoint needs its layout.
    let o = arbiter(&["train", "--data", "data.games", "--epochs", "1", "--resume", "b.ckpt", "--out", "r.nnue"], &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("checkpoint is of another input layout than --input-layout flat"), "{}", stderr(&o));
    let o = arbiter(
        &[&["train", "--data", "data.games", "--resume", "b.ckpt"][..], &args, &["--out", "r.nnue"]].concat(),
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--factorise`: a factorised king-bucket run writes an ordinary `mirror4` file the engine
/// loads, its quantised evaluation within the float model's; its checkpoint resumes.
#[test]
fn a_factorised_king_bucket_network_trains_and_loads() {
    let dir = setup("factorised");
    let args: Vec<&str> =
        "--batch 64 --seed 5 --threads 1 --input-layout mirror4 --factorise --epochs 2".split(' ').collect();
    let o = arbiter(
        &[&["train", "--data", "data.games"][..], &args, &["--out", "f.nnue", "--checkpoint", "f.ckpt"]].concat(),
        &dir,
    );
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("factorised: each feature's weights are a part shared by the 4 king buckets"), "{err}");
    assert!(err.contains("epoch   2/2: training "), "{err}");
    let net = Network::read(&dir.join("f.nnue")).expect("the engine reads the network");
    assert_eq!(net.layout, layout::MIRROR4);
    quantised_within_the_float_model(&err);
    let o = arbiter(
        &[&["train", "--data", "data.games", "--resume", "f.ckpt"][..], &args, &["--out", "r.nnue"]].concat(),
        &dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game records of a self-play run train the same network as the data lines it wrote.
#[test]
fn game_records_train_what_their_data_lines_train() {
    let dir = setup("records");
    let run = |data: &str, out: &str| {
        let o = arbiter(
            &["train", "--data", data, "--batch", "64", "--seed", "3", "--epochs", "2", "--threads", "1", "--out", out],
            &dir,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read(dir.join(out)).unwrap()
    };
    assert_eq!(run("data.games", "from-games.nnue"), run("clean.txt", "from-lines.nnue"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_command_lines_exit_2_with_the_reason() {
    let dir = setup("errors");
    std::fs::write(dir.join("junk.txt"), "no positions here\nnone at all\n").unwrap();
    std::fs::write(dir.join("junk.ckpt"), "not a checkpoint").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["train", "--data", "missing.txt"], "cannot read missing.txt"),
        (&["train", "--data", "data.txt", "--lambda", "1.5"], "--lambda"),
        (&["train", "--data", "data.txt", "--epochs", "0"], "--epochs"),
        (&["train", "--data", "data.txt", "--validation", "0.9"], "--validation"),
        (&["train", "--data", "data.txt", "--power", "9"], "--power"),
        (&["train", "--data", "data.txt", "--sigmoid-cp", "0"], "--sigmoid-cp"),
        (&["train", "--data", "data.txt", "--lr=-1"], "--lr"),
        (&["train", "--data", "data.txt", "--out", "no/such/dir/net.nnue"], "no directory no/such/dir"),
        (&["train", "--data", "data.txt", "--resume", "junk.ckpt"], "cannot resume from junk.ckpt"),
        (&["train", "--data", "junk.txt"], "no usable training positions"),
        (&["train", "--data", "data.txt", "--valid-data", "data.txt"], "data.txt is both --data and --valid-data"),
        (&["train", "--data", "data.txt", "--valid-data", "missing.txt"], "cannot read missing.txt"),
        (&["train", "--data", "data.txt", "--batch", "many"], "invalid value 'many'"),
        (
            &["train", "--data", "data.txt", "--input-layout", "mirror9"],
            "unknown input layout 'mirror9' (one of: flat, mirror, mirror4)",
        ),
        (
            &["train", "--data", "data.txt", "--factorise"],
            "--factorise needs king buckets (--input-layout flat has one)",
        ),
        (
            &["train", "--data", "data.txt", "--input-layout", "mirror4", "--factorise", "--qat-epochs", "1"],
            "--factorise does not combine with --qat-epochs",
        ),
        (&["train", "--data", "data.txt", "--frobnicate"], "--frobnicate"),
        (&["train"], "--data"),
    ];
    for (args, reason) in cases {
        let o = arbiter(args, &dir);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(reason), "{args:?}: expected {reason:?} in {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
