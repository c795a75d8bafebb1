//! Which network the engine evaluates with: the `EvalFile` option's values, and the network
//! built into the binary.

use super::{Network, Nnue};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The network built into the binary, used when `EvalFile` is [`EMBEDDED_NAME`] (the
/// default): `nets/default.nnue`, trained by `arbiter train` on the project's self-play data
/// and accepted by an SPRT against the hand-crafted evaluation (docs/nnue.md, which gives the
/// commands that reproduce it), or the file `make EVALFILE=path` names (`build.rs` chooses).
/// `None` here would build an engine that evaluates by hand.
pub const EMBEDDED: Option<&[u8]> = Some(EMBEDDED_BYTES);

const EMBEDDED_BYTES: &[u8] = include_bytes!(env!("ARBITER_EMBEDDED_NET"));

// A file that is not a network of this build's shape (nets/default.nnue or EVALFILE) fails
// the build, not the engine's start.
const _: () = match super::check_file(EMBEDDED_BYTES) {
    Ok(_) => {}
    Err(e) => panic!("{}", e.kind()),
};

/// The `EvalFile` value naming [`EMBEDDED`] (and the option's default).
pub const EMBEDDED_NAME: &str = "<embedded>";
/// The `EvalFile` value naming the hand-crafted evaluation (so does an empty value).
const NONE_NAME: &str = "<none>";

/// [`EMBEDDED`], read once.
static EMBEDDED_NET: Lazy<Option<Result<Arc<Nnue>, String>>> = Lazy::new(|| {
    EMBEDDED.map(|bytes| {
        Network::from_bytes(bytes).map(|n| Arc::new(Nnue::new(n))).map_err(|e| format!("embedded network: {e}"))
    })
});

/// The network an `EvalFile` value names, read and checked; `None` for the hand-crafted
/// evaluation. The error says which file and why (a [`super::NetworkError`] or an I/O error).
pub fn load(eval_file: &str) -> Result<Option<Arc<Nnue>>, String> {
    let name = eval_file.trim();
    if name.is_empty() || name.eq_ignore_ascii_case(NONE_NAME) {
        return Ok(None);
    }
    if name.eq_ignore_ascii_case(EMBEDDED_NAME) {
        return EMBEDDED_NET.clone().transpose();
    }
    Network::read(std::path::Path::new(name)).map(|n| Some(Arc::new(Nnue::new(n))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// build.rs's choice: the file `ARBITER_EVALFILE` names (relative to the package root), or,
    /// without it (every normal build), the committed network.
    #[test]
    fn the_built_in_network_is_the_file_the_build_was_given() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let expected = match option_env!("ARBITER_EVALFILE").map(str::trim).filter(|s| !s.is_empty()) {
            Some(path) => root.join(path),
            None => root.join("nets/default.nnue"),
        };
        let bytes = std::fs::read(&expected).expect("the network file");
        assert!(EMBEDDED == Some(&bytes[..]), "the embedded network is not {}", expected.display());
        assert!(load(EMBEDDED_NAME).is_ok_and(|n| n.is_some()));
    }
}
