//! The repository as a user clones it: no command or path names a file of a development machine,
//! every link between the Markdown pages leads to a file and a heading that exist, the source
//! layout of docs/engine.md describes src/ as it is, and every script of scripts/ has its row in
//! docs/scripts.md (the one-off rigs of scripts/lab/ a line in its README).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// What a user's clone cannot have: the development machine's work tree, scratch space, home
/// directories, and the material beside the project (tests alone may read it; see the brief).
const MACHINE_PATHS: [&str; 5] = ["/work/", "/tmp/", "../shared", "/root/", "/home/"];

/// Where no such path may stand: everything a user reads or runs. tests/ may read the shared
/// material when it is there, and CHANGELOG.md is history.
const USER_FACING: [&str; 11] = [
    "README.md",
    "Makefile",
    "Cargo.toml",
    "build.rs",
    ".ci",
    "bench",
    "docs",
    "nets",
    "scripts",
    "src",
    "uci-scripts",
];

/// The files under `roots` (files or directories, relative to the repository): those git tracks
/// when this is a git checkout, else every file below them (a source archive, say).
fn repo_files(roots: &[&str]) -> Vec<PathBuf> {
    let listed = Command::new("git").arg("-C").arg(ROOT).args(["ls-files", "-z", "--"]).args(roots).output();
    if let Ok(out) = listed {
        if out.status.success() && !out.stdout.is_empty() {
            let text = String::from_utf8(out.stdout).expect("git ls-files prints UTF-8 names here");
            // A tracked file deleted in the working tree is gone for the user too.
            return text
                .split('\0')
                .filter(|p| !p.is_empty() && Path::new(ROOT).join(p).exists())
                .map(PathBuf::from)
                .collect();
        }
    }
    let mut files = Vec::new();
    for root in roots {
        walk(Path::new(ROOT), Path::new(root), &mut files);
    }
    files
}

fn walk(base: &Path, rel: &Path, files: &mut Vec<PathBuf>) {
    let full = base.join(rel);
    if full.is_file() {
        files.push(rel.to_path_buf());
    } else if let Ok(entries) = fs::read_dir(&full) {
        for entry in entries.flatten().filter(|e| e.file_name() != "target" && e.file_name() != ".git") {
            walk(base, &rel.join(entry.file_name()), files);
        }
    }
}

fn read(rel: &Path) -> String {
    fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{}: {e}", rel.display()))
}

#[test]
fn no_path_of_a_development_machine() {
    let mut found = Vec::new();
    let files = repo_files(&USER_FACING);
    assert!(files.iter().any(|f| f.starts_with("docs")), "no files listed under docs/");
    for file in &files {
        // Binary files (the network, compressed records) are not read by people.
        let Ok(text) = fs::read_to_string(Path::new(ROOT).join(file)) else { continue };
        for (n, line) in text.lines().enumerate() {
            if let Some(p) = MACHINE_PATHS.iter().find(|p| line.contains(*p)) {
                found.push(format!("{}:{}: {p}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "paths a clone does not have:\n{}", found.join("\n"));
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers (from 1).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((n + 1, line));
        }
    }
    lines
}

/// GitHub's anchor of a heading: its text (code, emphasis and link markup dropped) in lower case,
/// every character but letters, digits, '_', '-' and spaces removed, each space a '-'.
fn anchor(heading: &str) -> String {
    let text = without_link_targets(heading);
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `[text](target)` becomes `text`.
fn without_link_targets(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find("](") {
        let Some(close) = rest[at..].find(')') else { break };
        out.push_str(&rest[..at]);
        rest = &rest[at + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The anchors of a Markdown file's headings, duplicates numbered as GitHub numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let level = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&level) || !line[level..].starts_with(' ') {
            continue;
        }
        let base = anchor(line[level..].trim());
        let mut name = base.clone();
        let mut k = 0;
        while seen.contains(&name) {
            k += 1;
            name = format!("{base}-{k}");
        }
        seen.insert(name);
    }
    seen
}

/// The targets of inline links, `[text](target)`, outside code.
fn link_targets(line: &str) -> Vec<String> {
    // Code spans are not links (a link's text may hold one: it is dropped with the span).
    let mut prose = String::new();
    for (i, part) in line.split('`').enumerate() {
        if i % 2 == 0 {
            prose.push_str(part);
        }
    }
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        if let Some(target) = rest[..end].split_whitespace().next() {
            targets.push(target.to_string());
        }
        rest = &rest[end..];
    }
    targets
}

#[test]
fn every_link_between_the_pages_resolves() {
    let pages: Vec<PathBuf> =
        repo_files(&["."]).into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    assert!(pages.iter().any(|p| p == Path::new("README.md")), "README.md not found");
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = read(page);
        for (n, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, heading) = match target.split_once('#') {
                    Some((f, h)) => (f, Some(h)),
                    None => (target.as_str(), None),
                };
                let dir = page.parent().unwrap_or(Path::new(""));
                let path = if file.is_empty() { page.clone() } else { normalise(&dir.join(file)) };
                let full = Path::new(ROOT).join(&path);
                let problem = if !full.exists() {
                    Some(format!("{} does not exist", path.display()))
                } else if let Some(h) = heading.filter(|_| path.extension().is_some_and(|e| e == "md")) {
                    let found = anchors(&read(&path));
                    (!found.contains(h)).then(|| format!("{} has no heading #{h}", path.display()))
                } else {
                    None
                };
                if let Some(p) = problem {
                    broken.push(format!("{}:{n}: ({target}): {p}", page.display()));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} links found: is the link reader broken?");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// `a/b/../c` as `a/c`, so that a link leaving the repository is seen to.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Path-like words of a line: ending in '/' or in a file extension of the repository.
fn path_words(line: &str) -> Vec<&str> {
    const EXTENSIONS: [&str; 8] = [".rs", ".py", ".sh", ".md", ".txt", ".epd", ".nnue", ".toml"];
    line.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | ')' | '`' | '+'))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')))
        .filter(|w| w.ends_with('/') || EXTENSIONS.iter().any(|e| w.ends_with(e) && w.len() > e.len()))
        .collect()
}

/// Every path named by docs/engine.md's source layout, resolved as the tree reads: a line that
/// starts with `name/` opens that directory inside the nearest less indented one, and the other
/// paths of a line are inside the directory it opens or, else, the nearest less indented one. A
/// path with a '/' inside that starts at a top-level directory is from the repository's root.
fn layout_paths(section: &str, top_level: &BTreeSet<String>) -> Vec<(String, PathBuf)> {
    let mut open: Vec<(usize, PathBuf)> = Vec::new();
    let mut named = Vec::new();
    for line in section.lines() {
        let indent = line.len() - line.trim_start().len();
        let words = path_words(line);
        if words.is_empty() {
            continue;
        }
        while open.last().is_some_and(|(i, _)| *i >= indent) {
            open.pop();
        }
        let parent = open.last().map(|(_, p)| p.clone()).unwrap_or_default();
        let mut here = parent.clone();
        for (k, word) in words.iter().enumerate() {
            let inner = word.trim_end_matches('/');
            let from_root = inner.contains('/') && top_level.contains(inner.split('/').next().unwrap_or(""));
            let path = if from_root { PathBuf::from(inner) } else { here.join(inner) };
            named.push((word.to_string(), path.clone()));
            if k == 0 && word.ends_with('/') && line.trim_start().starts_with(word) {
                open.push((indent, path.clone()));
                here = path;
            }
        }
    }
    named
}

/// The fenced block under docs/engine.md's "## Source layout".
fn source_layout() -> String {
    let text = read(Path::new("docs/engine.md"));
    let start = text.find("\n## Source layout").expect("docs/engine.md has a \"## Source layout\" section");
    let section = &text[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let open = section.find("```").expect("the source layout is a fenced block");
    let body = &section[open + 3..];
    let body = &body[body.find('\n').unwrap_or(0)..];
    body[..body.find("```").expect("the fenced block ends")].to_string()
}

#[test]
fn the_source_layout_describes_the_tree() {
    let layout = source_layout();
    let top_level: BTreeSet<String> = fs::read_dir(ROOT)
        .expect("the repository")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let named = layout_paths(&layout, &top_level);
    let missing: Vec<String> = named
        .iter()
        .filter(|(_, path)| !Path::new(ROOT).join(path).exists())
        .map(|(word, path)| format!("{word} (read as {})", path.display()))
        .collect();
    assert!(missing.is_empty(), "docs/engine.md's source layout names what does not exist:\n{}", missing.join("\n"));

    let named: BTreeSet<&PathBuf> = named.iter().map(|(_, p)| p).collect();
    let module_dirs: BTreeSet<PathBuf> = repo_files(&["src"])
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
        .flat_map(|f| f.ancestors().skip(1).map(Path::to_path_buf).collect::<Vec<_>>())
        .filter(|d| d.starts_with("src"))
        .collect();
    assert!(module_dirs.len() > 5, "only {} module directories found under src/", module_dirs.len());
    let unnamed: Vec<String> =
        module_dirs.iter().filter(|d| !named.contains(d)).map(|d| format!("{}/", d.display())).collect();
    assert!(unnamed.is_empty(), "docs/engine.md's source layout does not name:\n{}", unnamed.join("\n"));
}

#[test]
fn the_layout_reader_resolves_as_the_tree_reads() {
    let layout = "src/\n  chess/   board: types.rs, fen.rs\n    movegen.rs   see tests/it/perft.rs\n  \
                  engine/  search.rs;  nnue/: the network\n           tt.rs (docs/nnue.md)\n  main.rs\ntests/   all\n";
    let top: BTreeSet<String> = ["src", "tests", "docs"].iter().map(|s| s.to_string()).collect();
    let got: Vec<String> = layout_paths(layout, &top).into_iter().map(|(_, p)| p.display().to_string()).collect();
    let want = [
        "src",
        "src/chess",
        "src/chess/types.rs",
        "src/chess/fen.rs",
        "src/chess/movegen.rs",
        "tests/it/perft.rs",
        "src/engine",
        "src/engine/search.rs",
        "src/engine/nnue",
        "src/engine/tt.rs",
        "docs/nnue.md",
        "src/main.rs",
        "tests",
    ];
    assert_eq!(got, want);
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(anchor("The built-in network (N5)"), "the-built-in-network-n5");
    assert_eq!(
        anchor("Judging finished games: `arbiter referee GAMES.pgn [--json]`"),
        "judging-finished-games-arbiter-referee-gamespgn---json"
    );
    assert_eq!(anchor("Win, draw, loss"), "win-draw-loss");
    assert_eq!(anchor("Resource limits (`tests/it/resource_limits.rs`)"), "resource-limits-testsitresource_limitsrs");
    assert_eq!(anchor("See [the page](x.md) now"), "see-the-page-now");
    let text = "# A\n```\n# not a heading\n```\n## A\n#not\n";
    assert_eq!(anchors(text), ["a", "a-1"].iter().map(|s| s.to_string()).collect());
    assert_eq!(link_targets("a [x](b.md#c) `[y](z.md)` [`e/`](e/) [w](u \"t\")"), ["b.md#c", "e/", "u"]);
}

/// The first cells of a Markdown table's rows, from the named file.
fn first_cells(page: &str) -> Vec<String> {
    prose_lines(&read(Path::new(page)))
        .into_iter()
        .filter_map(|(_, l)| l.strip_prefix('|'))
        .filter_map(|l| l.split('|').next())
        .map(|c| c.trim().to_string())
        .collect()
}

#[test]
fn every_script_has_its_line() {
    let mut unlisted = Vec::new();
    for (dir, page) in [("scripts", "docs/scripts.md"), ("scripts/lab", "scripts/lab/README.md")] {
        let cells = first_cells(page);
        // A script's row starts with its name in code (`name` or `name ARGS`); a directory of
        // files that go with a script (scripts/openbench/) is named in code in that row.
        let listed = |name: &str| {
            cells.iter().any(|c| {
                c.starts_with(&format!("`{name}`"))
                    || c.starts_with(&format!("`{name} "))
                    || (name.ends_with('/') && c.contains(&format!("`{name}`")))
            })
        };
        let mut names = BTreeSet::new();
        for file in repo_files(&[dir]) {
            let rel = file.strip_prefix(dir).expect("listed under its directory");
            let top = rel.components().next().expect("a name").as_os_str().to_string_lossy().into_owned();
            if (dir == "scripts" && top == "lab") || rel == Path::new("README.md") {
                continue;
            }
            names.insert(if rel.components().count() > 1 { format!("{top}/") } else { top });
        }
        assert!(!names.is_empty(), "no scripts found in {dir}");
        for name in names {
            if !listed(&name) {
                unlisted.push(format!("{dir}/{name} has no row in {page}"));
            }
        }
    }
    assert!(unlisted.is_empty(), "{}", unlisted.join("\n"));
}

/// The layers of the crate, bottom up (docs/engine.md, "Source layout"): a module names
/// (`crate::x`) only modules of a lower layer, and the front ends' subcommands name no other
/// subcommand — what they share lives in `data/`.
const LAYERS: [&[&str]; 7] = [
    &["rng"],
    &["chess"],
    &["rules", "syzygy"],
    &["explain"],
    &["engine"],
    &["protocol", "data"],
    &["uci", "tools", "serve"],
];

/// Rust source with comments, string and character literals blanked out (so that a path in
/// a doc comment or in generated text is not read as an import); lines are kept.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && at(i + 1) == '/') {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (at(i + 1) == '"' || (at(i + 1) == '#' && !at(i.wrapping_sub(1)).is_alphanumeric())) {
            // A raw string: r"...", r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) != '"' {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            while j < chars.len() && !chars[j..].iter().collect::<String>().starts_with(&close) {
                if chars[j] == '\n' {
                    out.push('\n');
                }
                j += 1;
            }
            i = j + close.len();
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            // A character literal ('"', '\'', '\n'); a lifetime ('a) has no closing quote.
            i += if at(i + 1) == '\\' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The names a path continues with at the start of `rest`: one (`chess::Move` gives `chess`),
/// or each of a group (`{data::in_order, explain::Lang}` gives `data`, `explain`).
fn first_names(rest: &str) -> Vec<String> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let Some(group) = rest.strip_prefix('{') else { return vec![ident(rest)] };
    let mut names = Vec::new();
    let mut depth = 0;
    let mut item_start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            c if c.is_whitespace() => {}
            _ if item_start => {
                names.push(ident(&group[i..]));
                item_start = false;
            }
            _ => {}
        }
    }
    names
}

/// The modules a piece of code names through `prefix` (`crate::`, `super::super::`), where the
/// prefix is a path's first step.
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (start, _) in code.match_indices(prefix) {
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // `foo::crate::` or the second step of `super::super::`
        }
        names.extend(first_names(&code[start + prefix.len()..]));
    }
    names.retain(|n| !n.is_empty() && n != "self" && n != "super");
    names
}

#[test]
fn the_reader_of_imports_sees_paths_not_text() {
    let code = code_only(
        "use crate::chess::Move; // crate::tools\n/* crate::uci */ let s = \"crate::engine\";\n\
         let r = r#\"use super::eval\"#; let q = '\"'; fn f<'a>(x: &'a str) { crate::rules::x(); }\n\
         use crate::{data::in_order, explain::{Lang, Wording}, self};\nsuper::super::selfplay_finals();\n",
    );
    assert_eq!(code.lines().count(), 5, "{code}");
    assert_eq!(named_after(&code, "crate::"), ["chess", "rules", "data", "explain"]);
    assert_eq!(named_after(&code, "super::"), Vec::<String>::new());
    assert_eq!(named_after("use super::in_order;", "super::"), ["in_order"]);
    assert_eq!(named_after("use crate::tools::{explain, referee::judge};", "crate::tools::"), ["explain", "referee"]);
    assert_eq!(named_after("super::super::selfplay::run(); super::x();", "super::super::"), ["selfplay"]);
}

#[test]
fn every_layer_names_only_the_layers_below_and_no_subcommand_another() {
    let rank = |module: &str| LAYERS.iter().position(|layer| layer.contains(&module));
    let mut wrong = Vec::new();
    let files = repo_files(&["src"]);
    assert!(files.len() > 50, "only {} files under src/", files.len());
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "rs")) {
        let parts: Vec<String> = file.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let Some(top) = parts.get(1).map(|p| p.trim_end_matches(".rs").to_string()) else { continue };
        if matches!(top.as_str(), "lib" | "main") {
            continue;
        }
        let Some(own) = rank(&top) else {
            wrong.push(format!("{}: src/{top} is in no layer of this test (add it where it belongs)", file.display()));
            continue;
        };
        let code = code_only(&read(file));
        for name in named_after(&code, "crate::") {
            match rank(&name) {
                Some(r) if name == top || r < own => {}
                Some(_) => wrong.push(format!("{}: crate::{name} (a layer not below {top})", file.display())),
                None => {}
            }
        }
        if top == "tools" {
            // The subcommand this file belongs to, and how `super::` reaches the tools module.
            let sub = parts.get(2).map_or(String::new(), |p| p.trim_end_matches(".rs").to_string());
            let depth = parts.len() - 3;
            let up = "super::".repeat(depth + 1);
            let mut names = named_after(&code, "crate::tools::");
            if sub != "mod" {
                names.extend(named_after(&code, &up));
            }
            for name in names.into_iter().filter(|n| *n != sub) {
                wrong.push(format!("{}: names the subcommand module tools::{name}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "layering broken (see docs/engine.md's source layout):\n{}", wrong.join("\n"));
}
