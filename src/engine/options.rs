//! The engine's UCI options, declared once in [`OPTIONS`]: name, type, default, range
//! and the typed setter that stores a value in [`EngineOptions`]. The `uci` option
//! list, `setoption` checking, `EngineOptions::default()` and the README's option table
//! (checked by a test below) all come from that one list.
//!
//! Adding an option is one entry in [`OPTIONS`] (plus its field in [`EngineOptions`])
//! and its effect where the field is read. Options whose change needs work at once
//! (`Hash` reallocates, `Threads` resizes the pool) get it in `Engine::reconfigure`;
//! a button names an [`Action`] that `Engine::set_option` performs.

use super::tt::AllocError;
use std::fmt;
use std::time::Duration;

/// Current option values (see [`OPTIONS`] for their meaning and defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead: Duration,
    /// UCI_Chess960: castling moves are read and written as king takes own rook (`e1h1`).
    pub chess960: bool,
    /// Play at the level `elo` instead of full strength (see `strength`).
    pub limit_strength: bool,
    pub elo: u32,
    /// Add `wdl W D L` to `info` lines (see `wdl`).
    pub show_wdl: bool,
    /// The network to evaluate with, as the `EvalFile` option names it (see `nnue::source`).
    pub eval_file: String,
    /// Directories of Syzygy tables, `:`-separated; empty: none (see `crate::syzygy`).
    pub syzygy_path: String,
    /// Probe the tables in the search only at this depth or more (for tables of the
    /// `syzygy_probe_limit` size; smaller ones at any depth).
    pub syzygy_probe_depth: i32,
    /// Count the fifty-move rule: cursed wins and blessed losses are draws.
    pub syzygy_50_move_rule: bool,
    /// Probe positions of at most this many pieces.
    pub syzygy_probe_limit: u32,
}

impl Default for EngineOptions {
    /// Every option at the default its [`OPTIONS`] entry declares.
    fn default() -> Self {
        // Placeholders only: every field is overwritten by its option's default below.
        let mut o = EngineOptions {
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            ponder: false,
            move_overhead: Duration::ZERO,
            chess960: false,
            limit_strength: false,
            elo: 0,
            show_wdl: false,
            eval_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_50_move_rule: false,
            syzygy_probe_limit: 0,
        };
        for spec in OPTIONS {
            spec.apply(&mut o, spec.default_value());
        }
        o
    }
}

/// What a button does (performed by `Engine::set_option`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    ClearHash,
    /// Read the network `EvalFile` names (again, even if the name is unchanged: the file may be).
    LoadEvalFile,
    /// Load the tables in the directories `SyzygyPath` names (again, even if unchanged).
    LoadSyzygy,
}

/// An option's UCI type, with its default, range and typed setter.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut EngineOptions, i64),
    },
    Check {
        default: bool,
        set: fn(&mut EngineOptions, bool),
    },
    Button {
        action: Action,
    },
    /// A string; setting it also performs `action`, if any.
    Str {
        default: &'static str,
        set: fn(&mut EngineOptions, &str),
        action: Option<Action>,
    },
}

/// One UCI option.
#[derive(Clone, Copy, Debug)]
pub struct UciOption {
    pub name: &'static str,
    pub kind: OptionKind,
    /// One line for the README's option table.
    pub doc: &'static str,
}

/// Every option the engine announces, in the order `uci` lists them.
pub const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "Hash",
        kind: OptionKind::Spin { default: 16, min: 1, max: 65536, set: |o, v| o.hash_mb = v as usize },
        doc: "Transposition table size in MB; reallocated (and cleared) when set.",
    },
    UciOption {
        name: "Threads",
        kind: OptionKind::Spin { default: 1, min: 1, max: 256, set: |o, v| o.threads = v as usize },
        doc: "Search threads (Lazy SMP: all share the hash).",
    },
    UciOption {
        name: "MultiPV",
        kind: OptionKind::Spin { default: 1, min: 1, max: 256, set: |o, v| o.multipv = v as usize },
        doc: "Number of best lines reported (`info ... multipv K`).",
    },
    UciOption {
        name: "Ponder",
        kind: OptionKind::Check { default: false, set: |o, v| o.ponder = v },
        doc: "Announces pondering support; the engine always answers `go ponder`.",
    },
    UciOption {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5000,
            set: |o, v| o.move_overhead = Duration::from_millis(v as u64),
        },
        doc: "Milliseconds kept in reserve per move for GUI/transport lag.",
    },
    UciOption {
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false, set: |o, v| o.limit_strength = v },
        doc: "Play at the level `UCI_Elo` instead of full strength ([levels](docs/levels.md)).",
    },
    UciOption {
        name: "UCI_Elo",
        kind: OptionKind::Spin { default: 1500, min: 1000, max: 2800, set: |o, v| o.elo = v as u32 },
        doc: "The level, in Elo on the CCRL Blitz scale; 1400 to 2600 measured against rated engines within ±100 ([levels](docs/levels.md)).",
    },
    UciOption {
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false, set: |o, v| o.show_wdl = v },
        doc: "Adds `wdl W D L` (per mille, side to move) to `info` lines, from a model of Arbiter's own games.",
    },
    UciOption {
        name: "Clear Hash",
        kind: OptionKind::Button { action: Action::ClearHash },
        doc: "Empties the transposition table.",
    },
    UciOption {
        name: "EvalFile",
        kind: OptionKind::Str {
            default: super::nnue::source::EMBEDDED_NAME,
            set: |o, v| o.eval_file = v.to_string(),
            action: Some(Action::LoadEvalFile),
        },
        doc: "The evaluation: a network file's path, `<embedded>` for the network built into the binary (trained on Arbiter's own games), `<none>` or empty for the hand-crafted evaluation (strength levels always use it) ([NNUE](docs/nnue.md)).",
    },
    UciOption {
        name: "SyzygyPath",
        kind: OptionKind::Str {
            default: "<empty>",
            set: |o, v| o.syzygy_path = if v == "<empty>" { String::new() } else { v.to_string() },
            action: Some(Action::LoadSyzygy),
        },
        doc: "Directories of Syzygy endgame tables, `:`-separated (`;` on Windows); `<empty>`: none. Read when set; `info string` says what was found ([tablebases](docs/syzygy.md)).",
    },
    UciOption {
        name: "SyzygyProbeDepth",
        kind: OptionKind::Spin { default: 1, min: 1, max: 100, set: |o, v| o.syzygy_probe_depth = v as i32 },
        doc: "The search probes tables of `SyzygyProbeLimit` pieces only at this depth or more (smaller ones at any depth).",
    },
    UciOption {
        name: "Syzygy50MoveRule",
        kind: OptionKind::Check { default: true, set: |o, v| o.syzygy_50_move_rule = v },
        doc: "Count the fifty-move rule: a win or loss it would draw (cursed win, blessed loss) scores as a draw.",
    },
    UciOption {
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin { default: 7, min: 0, max: 7, set: |o, v| o.syzygy_probe_limit = v as u32 },
        doc: "Probe positions of at most this many pieces (0: never).",
    },
    UciOption {
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false, set: |o, v| o.chess960 = v },
        doc: "Chess960 (Fischer Random): castling is sent and read as king takes own rook (`e1h1`).",
    },
];

/// All options: [`OPTIONS`], then, in a build with the `tune` feature, each search
/// parameter of [`super::params::PARAMS`] as a spin option of the same name.
pub fn all() -> impl Iterator<Item = &'static UciOption> {
    OPTIONS.iter().chain(super::params::uci_options())
}

/// A checked option value, of the option's own type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    Button,
    Str(String),
}

impl UciOption {
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Check { default, .. } => OptionValue::Check(default),
            OptionKind::Button { .. } => OptionValue::Button,
            OptionKind::Str { default, .. } => OptionValue::Str(default.to_string()),
        }
    }

    /// Stores a value checked by [`parse_option`] for this option; a button returns the
    /// action to perform instead. A value of another option's type changes nothing.
    pub fn apply(&self, options: &mut EngineOptions, value: OptionValue) -> Option<Action> {
        match (self.kind, value) {
            (OptionKind::Spin { set, .. }, OptionValue::Spin(v)) => set(options, v),
            (OptionKind::Check { set, .. }, OptionValue::Check(v)) => set(options, v),
            (OptionKind::Button { action }, OptionValue::Button) => return Some(action),
            (OptionKind::Str { set, action, .. }, OptionValue::Str(v)) => {
                set(options, &v);
                return action;
            }
            _ => {}
        }
        None
    }

    /// Does `name` (any case, any inner whitespace) name this option?
    fn is_named(&self, name: &str) -> bool {
        let mut ours = self.name.split_whitespace();
        let mut theirs = name.split_whitespace();
        loop {
            match (ours.next(), theirs.next()) {
                (None, None) => return true,
                (Some(a), Some(b)) if a.eq_ignore_ascii_case(b) => {}
                _ => return false,
            }
        }
    }
}

impl fmt::Display for UciOption {
    /// The `option name ...` line for the `uci` command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            OptionKind::Spin { default, min, max, .. } => {
                write!(f, "option name {} type spin default {default} min {min} max {max}", self.name)
            }
            OptionKind::Check { default, .. } => write!(f, "option name {} type check default {default}", self.name),
            OptionKind::Button { .. } => write!(f, "option name {} type button", self.name),
            OptionKind::Str { default, .. } => write!(f, "option name {} type string default {default}", self.name),
        }
    }
}

/// The `option name ...` lines for the `uci` command.
pub fn uci_option_lines() -> Vec<String> {
    all().map(|o| o.to_string()).collect()
}

/// Why a `setoption` was refused (the option keeps its value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue {
        name: &'static str,
    },
    NotAnInteger {
        name: &'static str,
        value: String,
    },
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
    NotABool {
        name: &'static str,
        value: String,
    },
    Alloc(AllocError),
    /// A search thread could not be started.
    Threads(String),
    /// The network `EvalFile` names cannot be used (which file, and why).
    EvalFile(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::MissingValue { name } => write!(f, "option '{name}' needs a value"),
            OptionError::NotAnInteger { name, value } => write!(f, "option '{name}': '{value}' is not an integer"),
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "option '{name}': {value} is out of range {min}..{max}")
            }
            OptionError::NotABool { name, value } => {
                write!(f, "option '{name}': '{value}' is not true or false")
            }
            OptionError::Alloc(e) => write!(f, "{e}; the hash keeps its size"),
            OptionError::Threads(e) => write!(f, "cannot start the search threads: {e}"),
            OptionError::EvalFile(e) => write!(f, "EvalFile {e}; the evaluation is unchanged"),
        }
    }
}

impl std::error::Error for OptionError {}

/// Finds the option (case-insensitively, inner whitespace normalised) and checks `value`.
pub fn parse_option(name: &str, value: Option<&str>) -> Result<(&'static UciOption, OptionValue), OptionError> {
    let spec = all().find(|o| o.is_named(name)).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    let v = match spec.kind {
        OptionKind::Button { .. } => OptionValue::Button,
        // UCI's `<empty>` (some GUIs send it for an empty string) is the empty string.
        OptionKind::Str { .. } => OptionValue::Str(value.filter(|v| *v != "<empty>").unwrap_or("").to_string()),
        OptionKind::Spin { min, max, .. } => {
            let text = value.ok_or(OptionError::MissingValue { name: spec.name })?;
            let n: i64 =
                text.parse().map_err(|_| OptionError::NotAnInteger { name: spec.name, value: text.to_string() })?;
            if n < min || n > max {
                return Err(OptionError::OutOfRange { name: spec.name, value: n, min, max });
            }
            OptionValue::Spin(n)
        }
        OptionKind::Check { .. } => {
            let text = value.ok_or(OptionError::MissingValue { name: spec.name })?;
            match text.to_ascii_lowercase().as_str() {
                "true" => OptionValue::Check(true),
                "false" => OptionValue::Check(false),
                _ => return Err(OptionError::NotABool { name: spec.name, value: text.to_string() }),
            }
        }
    };
    Ok((spec, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(name: &str, value: Option<&str>) -> Result<(&'static str, OptionValue), OptionError> {
        parse_option(name, value).map(|(o, v)| (o.name, v))
    }

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        assert_eq!(parsed("hash", Some("64")), Ok(("Hash", OptionValue::Spin(64))));
        assert_eq!(parsed("move  OVERHEAD", Some("30")), Ok(("Move Overhead", OptionValue::Spin(30))));
        assert_eq!(parsed("Clear Hash", None), Ok(("Clear Hash", OptionValue::Button)));
        assert!(matches!(parsed("Hash", Some("0")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(parsed("Hash", Some("lots")), Err(OptionError::NotAnInteger { .. })));
        assert!(matches!(parsed("Ponder", Some("maybe")), Err(OptionError::NotABool { .. })));
        assert!(matches!(parsed("Style", Some("1")), Err(OptionError::Unknown(_))));
        assert!(matches!(parsed("Threads", None), Err(OptionError::MissingValue { .. })));
        assert!(matches!(parsed("Move", Some("1")), Err(OptionError::Unknown(_))));
    }

    #[test]
    fn defaults_come_from_the_table() {
        let o = EngineOptions::default();
        assert_eq!((o.hash_mb, o.threads, o.multipv, o.ponder), (16, 1, 1, false));
        assert_eq!(o.move_overhead, Duration::from_millis(30));
        // Every setter writes something: applying a non-default value changes the options.
        // (A `tune` build's search parameters live outside `EngineOptions`.)
        for spec in OPTIONS {
            let other = match spec.kind {
                OptionKind::Spin { default, min, max, .. } => OptionValue::Spin(if default == max { min } else { max }),
                OptionKind::Check { default, .. } => OptionValue::Check(!default),
                OptionKind::Button { .. } => continue,
                OptionKind::Str { .. } => OptionValue::Str("some/other.nnue".to_string()),
            };
            let mut changed = o.clone();
            spec.apply(&mut changed, other);
            assert_ne!(changed, o, "{} has no effect on EngineOptions", spec.name);
        }
    }

    #[test]
    fn names_are_unique_and_lines_well_formed() {
        let names: std::collections::HashSet<String> = all().map(|o| o.name.to_ascii_lowercase()).collect();
        assert_eq!(names.len(), all().count());
        assert_eq!(uci_option_lines()[0], "option name Hash type spin default 16 min 1 max 65536");
        assert!(uci_option_lines().contains(&"option name Clear Hash type button".to_string()));
    }

    /// The README's option table lists exactly these options, with their type, default,
    /// range and description.
    #[test]
    fn readme_table_matches_the_options() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        let readme = std::fs::read_to_string(path).expect("README.md");
        let rows: Vec<Vec<String>> = readme
            .lines()
            .skip_while(|l| !l.starts_with("| Option | Type | Default | Range | Effect |"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
            .collect();
        // The standard build's options (a `tune` build adds its parameters: docs/strength.md).
        let expected: Vec<Vec<String>> = OPTIONS
            .iter()
            .map(|o| {
                let (kind, default, range) = match o.kind {
                    OptionKind::Spin { default, min, max, .. } => {
                        ("spin", default.to_string(), format!("{min}..{max}"))
                    }
                    OptionKind::Check { default, .. } => ("check", default.to_string(), String::new()),
                    OptionKind::Button { .. } => ("button", String::new(), String::new()),
                    OptionKind::Str { default, .. } => ("string", format!("`{default}`"), String::new()),
                };
                vec![format!("`{}`", o.name), kind.to_string(), default, range, o.doc.to_string()]
            })
            .collect();
        assert_eq!(rows, expected, "README.md's option table differs from engine::options::OPTIONS");
    }
}
