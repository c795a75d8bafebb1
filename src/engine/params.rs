//! Every numeric constant of the search, named in one place.
//!
//! Without the `tune` cargo feature each parameter is a constant function (inlined, no
//! speed cost). With `cargo build --release --features tune` each one is also a UCI
//! `spin` option of the same name (listed by `uci` with its range, set with `setoption`),
//! so an SPSA tuner (OpenBench's, or `scripts/spsa.py`) can move them. Names are lower
//! snake_case: that is how `scripts/spsa.py` tells them from the engine's own options.

#[cfg(feature = "tune")]
use super::options::OptionKind;
use super::options::UciOption;

/// One tunable parameter: its name (also the UCI option name with `tune`), default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

macro_rules! params {
    ($($(#[doc = $doc:expr])+ $name:ident = $default:expr, $min:expr, $max:expr;)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Id { $($name),* }

        /// All parameters, in declaration order.
        pub const PARAMS: &[Param] = &[$(Param { name: stringify!($name), default: $default, min: $min, max: $max }),*];

        #[cfg(feature = "tune")]
        static VALUES: [std::sync::atomic::AtomicI32; PARAMS.len()] =
            [$(std::sync::atomic::AtomicI32::new($default)),*];

        /// With `tune`, every parameter as a UCI spin option; setting one stores the value
        /// where the search reads it (not in `EngineOptions`).
        #[cfg(feature = "tune")]
        static UCI_OPTIONS: [UciOption; PARAMS.len()] = [$(UciOption {
            name: stringify!($name),
            kind: OptionKind::Spin {
                default: $default,
                min: $min,
                max: $max,
                set: |_, v| VALUES[Id::$name as usize].store(v as i32, std::sync::atomic::Ordering::Relaxed),
            },
            doc: concat!($($doc),+),
        }),*];

        $(
            $(#[doc = $doc])+
            #[inline(always)]
            pub fn $name() -> i32 {
                #[cfg(feature = "tune")]
                {
                    VALUES[Id::$name as usize].load(std::sync::atomic::Ordering::Relaxed)
                }
                #[cfg(not(feature = "tune"))]
                {
                    let _ = Id::$name;
                    $default
                }
            }
        )*
    };
}

params! {
    /// Late-move reductions: `base/100 + ln(depth) * ln(move number) / (divisor/100)`.
    lmr_base = 75, 0, 200;
    /// See `lmr_base`.
    lmr_divisor = 225, 100, 400;
    /// Quiet-move history that cancels one ply of reduction.
    lmr_history_divisor = 8000, 1000, 30000;

    /// Aspiration window: first half-width around the previous score (centipawns).
    aspiration_delta = 18, 5, 60;
    /// Aspiration windows from this iteration on.
    aspiration_min_depth = 5, 1, 10;

    /// Reverse futility pruning up to this depth ...
    rfp_max_depth = 7, 1, 12;
    /// ... when the static evaluation beats beta by this much per ply ...
    rfp_margin = 75, 20, 200;
    /// ... less this when the position is improving.
    rfp_improving = 50, 0, 150;

    /// Null move from this depth on.
    nmp_min_depth = 3, 1, 6;
    /// Null-move reduction: base ...
    nmp_base = 3, 1, 6;
    /// ... plus depth / this ...
    nmp_depth_divisor = 4, 2, 8;
    /// ... plus (eval - beta) / this, at most `nmp_eval_max`.
    nmp_eval_divisor = 200, 50, 600;
    /// See `nmp_eval_divisor`.
    nmp_eval_max = 3, 0, 6;

    /// Internal iterative reduction from this depth on.
    iir_min_depth = 6, 2, 12;

    /// Late-move pruning up to this depth, after `(lmp_base + depth^2) / (improving ? 1 : 2)` quiets.
    lmp_max_depth = 6, 1, 12;
    /// See `lmp_max_depth`.
    lmp_base = 3, 0, 10;

    /// Futility pruning of quiet moves up to this depth when eval + base + per_depth * depth <= alpha.
    fp_max_depth = 6, 1, 12;
    /// See `fp_max_depth`.
    fp_base = 100, 0, 300;
    /// See `fp_max_depth`.
    fp_per_depth = 90, 20, 200;

    /// SEE pruning up to this depth: quiets losing more than `see_quiet * depth^2` ...
    see_max_depth = 6, 1, 12;
    /// See `see_max_depth`.
    see_quiet = 25, 5, 100;
    /// ... and losing captures losing more than `see_tactical * depth`.
    see_tactical = 90, 20, 200;

    /// Razoring up to this depth, when eval + razor_margin * depth <= alpha.
    razor_max_depth = 3, 1, 6;
    /// See `razor_max_depth`.
    razor_margin = 250, 50, 600;

    /// ProbCut from this depth on, for captures beating beta + probcut_margin.
    probcut_min_depth = 5, 3, 10;
    /// See `probcut_min_depth`.
    probcut_margin = 200, 50, 500;

    /// History pruning of quiet moves up to this depth, when their history < -hp_margin * depth.
    hp_max_depth = 3, 1, 8;
    /// See `hp_max_depth`.
    hp_margin = 2048, 256, 16384;

    /// Singular extensions from this depth on (TT move with a lower bound at most 3 plies shallower).
    se_min_depth = 6, 4, 12;
    /// Singular beta: TT score minus `depth * se_beta_margin / 16`.
    se_beta_margin = 16, 4, 64;
    /// Double extension when the other moves stay this far below singular beta ...
    se_double_margin = 20, 0, 100;
    /// ... at most this many times on one path.
    se_double_max = 6, 0, 20;

    /// Quiescence delta pruning: skip a capture that cannot bring the score within this of alpha.
    qs_delta_margin = 200, 0, 500;

    /// Time management: the moves still to play when `go` gives none (the soft limit is the
    /// clock over this, plus 3/4 of the increment; `src/engine/time.rs`).
    tm_moves_to_go = 20, 10, 50;

    /// History bonus for a cutoff at `depth`: `hist_mul * depth^2 + hist_add * depth`, at most `hist_max`.
    hist_mul = 16, 0, 64;
    /// See `hist_mul`.
    hist_add = 32, 0, 128;
    /// See `hist_mul`.
    hist_max = 1600, 200, 4000;
}

/// The parameters as UCI options: all of them in a `tune` build, none otherwise.
pub fn uci_options() -> std::slice::Iter<'static, UciOption> {
    #[cfg(feature = "tune")]
    return UCI_OPTIONS.iter();
    #[cfg(not(feature = "tune"))]
    return [].iter();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(PARAMS[..i].iter().all(|q| q.name != p.name), "{p:?}");
            // scripts/spsa.py tells the parameters from the engine's own options (Hash, UCI_Elo) so.
            assert!(p.name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'), "{p:?}");
        }
        assert_eq!(rfp_margin(), PARAMS.iter().find(|p| p.name == "rfp_margin").map_or(0, |p| p.default));
    }

    #[cfg(feature = "tune")]
    #[test]
    fn tune_builds_expose_every_parameter_as_a_uci_option() {
        let lines = crate::engine::options::uci_option_lines();
        for p in PARAMS {
            let line = format!("option name {} type spin default {} min {} max {}", p.name, p.default, p.min, p.max);
            assert!(lines.contains(&line), "{line}");
        }
        let mut engine = crate::engine::Engine::new(crate::engine::EngineOptions::default()).unwrap();
        engine.set_option("HIST_MAX", Some("1700")).unwrap();
        assert_eq!(hist_max(), 1700);
        assert!(engine.set_option("hist_max", Some("99999")).is_err());
        assert_eq!(hist_max(), 1700);
        engine.set_option("hist_max", Some("1600")).unwrap();
    }
}
