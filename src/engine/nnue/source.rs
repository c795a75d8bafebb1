//! Which network the engine evaluates with: the `EvalFile` option's values, and the network
//! built into the binary.

use super::{Network, Nnue};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// The network built into the binary, used when `EvalFile` is [`EMBEDDED_NAME`] (the
/// default): `nets/default.nnue`, trained by `arbiter train` on the project's self-play data
/// and accepted by an SPRT against the hand-crafted evaluation (docs/nnue.md, which gives the
/// commands that reproduce it). `None` here would build an engine that evaluates by hand.
pub const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../../nets/default.nnue"));

/// The `EvalFile` value naming [`EMBEDDED`] (and the option's default).
pub const EMBEDDED_NAME: &str = "<embedded>";
/// The `EvalFile` value naming the hand-crafted evaluation (so does an empty value).
pub const NONE_NAME: &str = "<none>";

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
