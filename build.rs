//! Chooses the network built into the binary: `nets/default.nnue`, or the file named by the
//! `ARBITER_EVALFILE` environment variable (what `make EVALFILE=path` sets; OpenBench passes
//! `EVALFILE` for a test with a network). `src/engine/nnue/source.rs` embeds the file named by
//! `ARBITER_EMBEDDED_NET` and checks its header at compile time.

use std::path::{Path, PathBuf};

/// The network a build embeds: `ARBITER_EVALFILE` if set and not empty (relative paths are
/// relative to the package root, where cargo runs this script), else `nets/default.nnue`.
fn embedded_net(evalfile: Option<&str>, package_root: &Path) -> PathBuf {
    match evalfile.map(str::trim).filter(|s| !s.is_empty()) {
        Some(path) => package_root.join(path),
        None => package_root.join("nets").join("default.nnue"),
    }
}

fn main() {
    println!("cargo:rerun-if-env-changed=ARBITER_EVALFILE");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let evalfile = std::env::var("ARBITER_EVALFILE").ok();
    let net = embedded_net(evalfile.as_deref(), &root);
    if let Err(e) = std::fs::metadata(&net) {
        // A build script's panic message is what cargo shows: name the file and the variable.
        panic!("the network to embed, {} (ARBITER_EVALFILE / make EVALFILE=), cannot be read: {e}", net.display());
    }
    println!("cargo:rerun-if-changed={}", net.display());
    println!("cargo:rustc-env=ARBITER_EMBEDDED_NET={}", net.display());
}
