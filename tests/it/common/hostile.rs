//! Generators of hostile input shared by the fuzz tests (`fuzz_parsers`, `uci_hostile`):
//! random bytes, soups of real tokens, mutated valid samples, boundary numbers in valid
//! samples, very long lines. Deterministic (seeded), so a failure names its seed.
#![allow(dead_code)]

pub use super::rng::Rng;

/// Numbers at the edges of every integer type a parser might use, and almost-numbers.
pub const BOUNDARY_NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "-0",
    "+1",
    "-5",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "-9223372036854775808",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999",
    "99999999999999999999999999999999",
    "1e3",
    "0x10",
    "1.5",
    "NaN",
    "",
];

/// Odd characters: NUL, control characters, replacement character, wide CJK, emoji,
/// right-to-left mark, combining accent.
pub const ODD_CHARS: &[&str] =
    &["\0", "\x07", "\x1b", "\r", "\t", "\u{FFFD}", "象", "棋", "😀", "\u{200F}", "e\u{301}", "\u{a0}"];

/// Raw random bytes (any byte, NUL and invalid UTF-8 included).
pub fn random_bytes(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| rng.next() as u8).collect()
}

/// Random bytes decoded the way the UCI loop decodes a line (lossily).
pub fn random_text(rng: &mut Rng, max_len: usize) -> String {
    String::from_utf8_lossy(&random_bytes(rng, max_len)).into_owned()
}

/// Up to `max_tokens` tokens drawn from `tokens`, boundary numbers and odd characters,
/// joined by random separators (none, spaces, tabs).
pub fn token_soup(rng: &mut Rng, tokens: &[&str], max_tokens: usize) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(max_tokens + 1) {
        let t = match rng.below(10) {
            0 => rng.pick(BOUNDARY_NUMBERS),
            1 => rng.pick(ODD_CHARS),
            _ => rng.pick(tokens),
        };
        s.push_str(t);
        s.push_str(match rng.below(8) {
            0 => "",
            1 => "  ",
            2 => "\t",
            _ => " ",
        });
    }
    s
}

/// `base` with 1..=4 characters replaced, inserted or removed (from `alphabet` or odd characters).
pub fn mutate(rng: &mut Rng, base: &str, alphabet: &str) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    let alpha: Vec<char> = alphabet.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let c = if rng.one_in(8) || alpha.is_empty() {
            rng.pick(ODD_CHARS).chars().next().unwrap_or('\0')
        } else {
            *rng.pick(&alpha)
        };
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = rng.below(chars.len());
        match rng.below(3) {
            0 => chars[i] = c,
            1 => chars.insert(i, c),
            _ => {
                chars.remove(i);
            }
        }
    }
    chars.into_iter().collect()
}

/// `base` with each whitespace-separated number replaced, with probability 1/2, by a
/// boundary number.
pub fn boundary_numbers(rng: &mut Rng, base: &str) -> String {
    base.split(' ')
        .map(|w| {
            if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) && rng.one_in(2) {
                *rng.pick(BOUNDARY_NUMBERS)
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A very long line: a valid sample repeated, or one token repeated up to ~100 KB.
pub fn long_line(rng: &mut Rng, valid: &[&str], tokens: &[&str]) -> String {
    if rng.one_in(2) {
        let v = rng.pick(valid);
        let sep = if rng.one_in(2) { " " } else { "" };
        vec![*v; 1 + rng.below(200)].join(sep)
    } else {
        let t = rng.pick(tokens);
        let n = 1 + rng.below(100_000 / t.len().max(1));
        t.repeat(n)
    }
}

/// Number of generator kinds of [`hostile`].
pub const KINDS: usize = 5;

/// One hostile input of kind `kind` (0..KINDS): random bytes (lossily decoded), a soup of
/// `tokens`, a mutated `valid` sample, a `valid` sample with boundary numbers, a very long line.
pub fn hostile(rng: &mut Rng, kind: usize, valid: &[&str], tokens: &[&str], alphabet: &str) -> String {
    match kind {
        0 => random_text(rng, 100),
        1 => token_soup(rng, tokens, 30),
        2 => {
            let v = rng.pick(valid).to_string();
            mutate(rng, &v, alphabet)
        }
        3 => {
            let v = rng.pick(valid).to_string();
            boundary_numbers(rng, &v)
        }
        _ => long_line(rng, valid, tokens),
    }
}
