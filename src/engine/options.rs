//! The engine's UCI options: one table used both to announce them (`uci`) and to
//! check `setoption` values.

use super::tt::AllocError;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
}

#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec { name: "Hash", kind: OptionKind::Spin { default: 16, min: 1, max: 65536 } },
    OptionSpec { name: "Threads", kind: OptionKind::Spin { default: 1, min: 1, max: 256 } },
    OptionSpec { name: "MultiPV", kind: OptionKind::Spin { default: 1, min: 1, max: 256 } },
    OptionSpec { name: "Ponder", kind: OptionKind::Check { default: false } },
    OptionSpec { name: "Move Overhead", kind: OptionKind::Spin { default: 30, min: 0, max: 5000 } },
    OptionSpec { name: "Clear Hash", kind: OptionKind::Button },
];

/// The `option name ...` lines for the `uci` command.
pub fn uci_option_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .map(|o| match o.kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {} type spin default {default} min {min} max {max}", o.name)
            }
            OptionKind::Check { default } => format!("option name {} type check default {default}", o.name),
            OptionKind::Button => format!("option name {} type button", o.name),
        })
        .collect()
}

/// Why a `setoption` was refused (the option keeps its value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    MissingValue { name: &'static str },
    NotAnInteger { name: &'static str, value: String },
    OutOfRange { name: &'static str, value: i64, min: i64, max: i64 },
    NotABool { name: &'static str, value: String },
    Alloc(AllocError),
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
        }
    }
}

impl std::error::Error for OptionError {}

/// A validated option value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    Button,
}

/// Finds the option (case-insensitively, inner whitespace normalised) and checks `value`.
pub fn parse_option(name: &str, value: Option<&str>) -> Result<(&'static str, OptionValue), OptionError> {
    let wanted: Vec<String> = name.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
    let spec = OPTIONS
        .iter()
        .find(|o| {
            let words: Vec<String> = o.name.split_whitespace().map(|w| w.to_ascii_lowercase()).collect();
            words == wanted
        })
        .ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
    let value = value.map(str::trim).filter(|v| !v.is_empty());
    let v = match spec.kind {
        OptionKind::Button => OptionValue::Button,
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
    Ok((spec.name, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_case_insensitive_and_values_checked() {
        assert_eq!(parse_option("hash", Some("64")), Ok(("Hash", OptionValue::Spin(64))));
        assert_eq!(parse_option("move  OVERHEAD", Some("30")), Ok(("Move Overhead", OptionValue::Spin(30))));
        assert_eq!(parse_option("Clear Hash", None), Ok(("Clear Hash", OptionValue::Button)));
        assert!(matches!(parse_option("Hash", Some("0")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(parse_option("Hash", Some("lots")), Err(OptionError::NotAnInteger { .. })));
        assert!(matches!(parse_option("Ponder", Some("maybe")), Err(OptionError::NotABool { .. })));
        assert!(matches!(parse_option("Style", Some("1")), Err(OptionError::Unknown(_))));
        assert!(matches!(parse_option("Threads", None), Err(OptionError::MissingValue { .. })));
    }
}
