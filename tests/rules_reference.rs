//! The rules reference under `docs/rules/` against the engine and the repository:
//! - `docs/rules/fan-table.md` is exactly what `mahjong-referee rules --fans --markdown`
//!   prints from the engine's fan table;
//! - `docs/rules/fans.md` lists every fan once, under the heading of its points;
//! - every `docs/rules/…#anchor` cited in the repository's files, and every link between the
//!   reference's pages, leads to a page and an anchor that exist.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

use mcr::fan::FAN_TABLE;

#[allow(dead_code)] // the helpers this test does not use
#[path = "support/cli.rs"]
mod cli_support;

use cli_support::{referee, stdout};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const FAN_TABLE_PAGE: &str = "docs/rules/fan-table.md";
const REGENERATE: &str = "cargo run -q -- rules --fans --markdown > docs/rules/fan-table.md";

fn read(relative: &str) -> String {
    fs::read_to_string(Path::new(ROOT).join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

#[test]
fn the_fan_table_page_is_what_the_command_prints() {
    let out = referee(&["rules", "--fans", "--markdown"]);
    assert_eq!(out.status.code(), Some(0));
    let printed = stdout(&out);
    let committed = read(FAN_TABLE_PAGE);
    if printed != committed {
        let line = printed
            .lines()
            .zip(committed.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| printed.lines().count().min(committed.lines().count()));
        panic!(
            "{FAN_TABLE_PAGE} differs from `mahjong-referee rules --fans --markdown` \
             from line {}:\n  committed: {:?}\n  printed:   {:?}\n\
             The page is generated from the engine's fan table: regenerate it with\n  {REGENERATE}",
            line + 1,
            committed.lines().nth(line).unwrap_or("<end of file>"),
            printed.lines().nth(line).unwrap_or("<end of output>"),
        );
    }
}

#[test]
fn the_fan_table_page_has_a_row_and_an_anchor_per_fan() {
    let page = read(FAN_TABLE_PAGE);
    for spec in &FAN_TABLE {
        let id = spec.fan.id();
        let row = format!(
            "| <a id=\"fan-{id}\"></a>{id} | {} | {} | {} |",
            spec.points, spec.name_zh, spec.name_en
        );
        assert!(page.contains(&row), "no row `{row}` in {FAN_TABLE_PAGE}");
    }
}

/// The rows of `fans.md`: fan id → (the points of the heading above it, its Chinese name).
fn fans_page_rows() -> BTreeMap<u8, Vec<(u16, String)>> {
    let page = read("docs/rules/fans.md");
    let mut points = None;
    let mut rows: BTreeMap<u8, Vec<(u16, String)>> = BTreeMap::new();
    for line in page.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            points = heading
                .strip_suffix(" points")
                .or_else(|| heading.strip_suffix(" point"))
                .map(|n| n.parse::<u16>().expect("a points heading"));
            continue;
        }
        let Some(rest) = line.strip_prefix("| [") else {
            continue;
        };
        let (id, rest) = rest.split_once(']').expect("a fan link");
        let id: u8 = id.parse().expect("a fan id");
        assert!(
            rest.starts_with(&format!("(fan-table.md#fan-{id}) |")),
            "fans.md: the row of fan {id} links elsewhere: {line}"
        );
        let name = rest.split('|').nth(1).expect("a name cell").trim();
        let points =
            points.unwrap_or_else(|| panic!("fans.md: fan {id} is under no points heading"));
        rows.entry(id).or_default().push((points, name.to_owned()));
    }
    rows
}

#[test]
fn the_fans_page_lists_every_fan_once_under_its_points() {
    let rows = fans_page_rows();
    for spec in &FAN_TABLE {
        let id = spec.fan.id();
        let found = rows.get(&id).map_or(&[][..], Vec::as_slice);
        assert_eq!(
            found,
            [(spec.points, spec.name_zh.to_owned())],
            "fans.md: fan {id} ({}) should be listed once, under `## {} points`",
            spec.name_zh,
            spec.points
        );
    }
    assert_eq!(rows.len(), FAN_TABLE.len(), "fans.md lists unknown fans");
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a Markdown page: explicit `<a id="…">` and the slugs of its headings.
fn anchors(page: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut in_code = false;
    for line in page.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#')));
        }
        let mut rest = line;
        while let Some(at) = rest.find("<a id=\"") {
            let after = &rest[at + 7..];
            let end = after.find('"').expect("a closed id");
            out.insert(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    out
}

fn is_anchor_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'
}

/// The files of the repository that may cite the reference (sources, docs, protos, the
/// client and kiosk, scripts), without build output and dependencies.
fn repository_files() -> Vec<PathBuf> {
    const SKIP: [&str; 5] = [
        "target",
        "node_modules",
        ".git",
        "dist",
        "proptest-regressions",
    ];
    const EXTENSIONS: [&str; 12] = [
        "rs", "md", "proto", "ts", "mjs", "js", "html", "css", "toml", "yaml", "sh", "py",
    ];
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::from(ROOT)];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if (!SKIP.contains(&name) && !name.starts_with('.')) || name == ".ci" {
                    stack.push(path);
                }
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTENSIONS.contains(&e))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The citations `docs/rules/PAGE.md` or `docs/rules/PAGE.md#ANCHOR` in a text.
fn citations(text: &str) -> Vec<(String, Option<String>)> {
    const PREFIX: &str = "docs/rules/";
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(PREFIX) {
        let after = &rest[at + PREFIX.len()..];
        let page_len = after
            .find(|c: char| !(is_anchor_char(c) || c == '.'))
            .unwrap_or(after.len());
        let page = after[..page_len].trim_end_matches('.').to_owned();
        let mut anchor = None;
        if let Some(tail) = after[page_len..].strip_prefix('#') {
            let len = tail.find(|c| !is_anchor_char(c)).unwrap_or(tail.len());
            anchor = Some(tail[..len].to_owned());
        }
        if !page.is_empty() {
            out.push((page, anchor));
        }
        rest = &after[page_len..];
    }
    out
}

/// The relative links `](target)` of a Markdown page: (path, anchor).
fn links(page: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = &after[..end];
        rest = &after[end..];
        if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p.to_owned(), Some(a.to_owned())),
            None => (target.to_owned(), None),
        };
        out.push((path, anchor));
    }
    out
}

/// What is wrong with a citation of `page` (a path from the root) at `anchor`, if anything.
fn check(
    page: &Path,
    anchor: Option<&str>,
    cache: &mut BTreeMap<PathBuf, String>,
) -> Option<String> {
    let full = Path::new(ROOT).join(page);
    if !full.exists() {
        return Some(format!("{} does not exist", page.display()));
    }
    let anchor = anchor?;
    if full.extension().and_then(|e| e.to_str()) != Some("md") {
        return None;
    }
    let text = cache
        .entry(full.clone())
        .or_insert_with(|| fs::read_to_string(&full).expect("a readable page"));
    if anchors(text).contains(anchor) {
        None
    } else {
        Some(format!("{} has no anchor #{anchor}", page.display()))
    }
}

#[test]
fn every_cited_anchor_of_the_reference_exists() {
    let mut cache = BTreeMap::new();
    let mut problems = Vec::new();
    let mut cited = 0;
    for file in repository_files() {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let shown = file
            .strip_prefix(ROOT)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (page, anchor) in citations(&text) {
            cited += 1;
            let path = Path::new("docs/rules").join(&page);
            if let Some(problem) = check(&path, anchor.as_deref(), &mut cache) {
                problems.push(format!("{shown}: docs/rules/{page}: {problem}"));
            }
        }
        // Markdown links: every link of the reference's pages, and the links of other pages
        // into the reference.
        if file.extension().and_then(|e| e.to_str()) != Some("md") {
            continue;
        }
        let relative = file.strip_prefix(ROOT).expect("under the root").to_owned();
        let dir = relative.parent().unwrap_or(Path::new("")).to_owned();
        let in_reference = dir == Path::new("docs/rules");
        for (target, anchor) in links(&text) {
            let path = normalise(&if target.is_empty() {
                relative.clone()
            } else {
                dir.join(&target)
            });
            if !in_reference && !path.starts_with("docs/rules") {
                continue;
            }
            cited += 1;
            if let Some(problem) = check(&path, anchor.as_deref(), &mut cache) {
                problems.push(format!("{shown}: link ({target}): {problem}"));
            }
        }
    }
    assert!(
        cited > 100,
        "only {cited} citations found: is the walk broken?"
    );
    assert!(
        problems.is_empty(),
        "citations that lead nowhere:\n{}",
        problems.join("\n")
    );
}

/// `docs/rules/../notation.md` → `docs/notation.md`.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            Component::Prefix(_) | Component::RootDir | Component::Normal(_) => out.push(part),
        }
    }
    out
}

#[test]
fn the_fan_table_as_text_and_its_conflicts() {
    let out = referee(&["rules", "--fans"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1 + FAN_TABLE.len(), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("53  6 ") && l.contains("Green Book: 8 points"))
    );
    // The table is the same for every ruleset: a ruleset, house rules or --json are refused,
    // and --markdown needs --fans.
    for args in [
        &["rules", "--fans", "--ruleset", "mil"][..],
        &["rules", "--fans", "--json"],
        &["rules", "--fans", "--overrides", "{}"],
        &["rules", "--markdown"],
    ] {
        assert_eq!(referee(args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn every_acceptance_case_has_its_anchor() {
    let cases = read("crates/mcr/tests/rulebook.rs");
    let page = anchors(&read("docs/rules/examples.md"));
    let mut ids = BTreeSet::new();
    let mut rest = cases.as_str();
    while let Some(at) = rest.find("id: \"") {
        let after = &rest[at + 5..];
        let end = after.find('"').expect("a closed id");
        // `E45 (LAST)` is a variant of E45.
        let id = after[..end].split(' ').next().unwrap_or_default();
        ids.insert(id.to_lowercase());
        rest = &after[end..];
    }
    assert!(ids.len() > 40, "only {} cases found", ids.len());
    let missing: Vec<_> = ids.iter().filter(|id| !page.contains(*id)).collect();
    assert!(
        missing.is_empty(),
        "docs/rules/examples.md has no row for the cases {missing:?} of crates/mcr/tests/rulebook.rs"
    );
}

#[test]
fn the_play_codes_cite_anchors_of_the_reference() {
    let mut cache = BTreeMap::new();
    for code in mcr::play::PlayCode::ALL {
        let rule = code.rule();
        let cited = citations(rule);
        assert!(
            !cited.is_empty() && cited.iter().all(|(_, anchor)| anchor.is_some()),
            "{code}: `{rule}` cites no section of docs/rules"
        );
        for (page, anchor) in cited {
            let path = Path::new("docs/rules").join(&page);
            if let Some(problem) = check(&path, anchor.as_deref(), &mut cache) {
                panic!("{code}: `{rule}`: {problem}");
            }
        }
    }
}
