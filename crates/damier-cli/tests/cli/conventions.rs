//! Issue 21, "the conventions of a command-line tool": shell completions and manual pages
//! generated from the parser's own definitions, and each problem group's --help stating its
//! rule.

use super::util::{damier, fails_with};

fn stdout_of(args: &[&str]) -> String {
    let out = damier().args(args).output().expect("runs");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn completions_for_each_shell_name_the_commands_and_hide_the_internal_one() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        for word in ["queens", "lights", "walk", "automaton", "--json", "--seed"] {
            assert!(script.contains(word), "{shell}: {word} missing");
        }
        assert!(!script.contains("__api"), "{shell} offers the web lab's internal command");
    }
    // bash really completes: `damier queens co<TAB>` offers count and corners.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("damier.bash");
    std::fs::write(&file, stdout_of(&["completions", "bash"])).unwrap();
    let probe = format!(
        "source {}; COMP_WORDS=(damier queens co); COMP_CWORD=2; _damier damier co queens; echo \"${{COMPREPLY[@]}}\"",
        file.display()
    );
    let out = std::process::Command::new("bash").args(["-c", &probe]).output().expect("bash runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "count corners");
    fails_with(&["completions", "tcsh"], 2);
}

#[test]
fn man_pages_on_stdout_and_one_per_command_in_a_folder() {
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH damier 1") && page.contains("damier\\-queens(1)"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    let out = damier().args(["man", "--out"]).arg(&pages).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("(folder created)"));
    let names: Vec<String> = std::fs::read_dir(&pages)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for name in
        ["damier.1", "damier-queens.1", "damier-queens-count.1", "damier-walk-replay.1", "damier-man.1"]
    {
        assert!(names.iter().any(|n| n == name), "{name} missing from {names:?}");
    }
    assert!(!names.iter().any(|n| n.contains("api")), "{names:?}");
    let count = std::fs::read_to_string(pages.join("damier-queens-count.1")).unwrap();
    assert!(
        count.contains(".TH damier-queens-count 1  \"damier ") && count.contains("\\-\\-json"),
        "{count}"
    );
    // Only the last folder of a path is created.
    let err = fails_with(&["man", "--out", dir.path().join("a/b").to_str().unwrap()], 2);
    assert!(err.contains("only the last folder"), "{err}");
}

#[test]
fn each_problem_group_states_its_rule_in_its_help() {
    for (group, words) in [
        ("queens", &["row", "column", "diagonal"][..]),
        ("lights", &["toggles", "neighbours", "GF(2)"]),
        ("walk", &["lands", "flips", "neighbours", "black"]),
        ("automaton", &["signal", "neighbour", "solution"]),
        ("factor", &["partial products", "N"]),
    ] {
        let help = stdout_of(&[group, "--help"]);
        for w in words {
            assert!(help.contains(w), "`damier {group} --help` does not say {w:?}: {help}");
        }
    }
}

/// Issue 21 §1: cells are (row, column) from 1 at the top left in everything a person reads.
#[test]
fn cells_are_row_then_column_from_one() {
    // The walk: the pawn starts on row 3, column 1 of a 3 x 3 board; W leaves the board there.
    let out = damier().args(["walk", "replay", "3", "3", "W"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("leaves the board from row 3, column 1"), "{text}");
    let v: serde_json::Value = serde_json::from_slice(
        &damier().args(["walk", "replay", "3", "3", "W", "--json"]).output().unwrap().stdout,
    )
    .unwrap();
    assert_eq!((v["left_board"]["row"].as_u64(), v["left_board"]["col"].as_u64()), (Some(3), Some(1)));
    // The elimination step by step counts unknowns and equations from 1.
    let dir = tempfile::tempdir().unwrap();
    let board = dir.path().join("b.txt");
    std::fs::write(&board, "1.\n..\n").unwrap();
    let out = damier().args(["lights", "solve", "--explain"]).arg(&board).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("column 1: pivot row L1") && !text.contains("L0") && !text.contains("column 0"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_slice(
        &damier().args(["lights", "solve", "--explain", "--json"]).arg(&board).output().unwrap().stdout,
    )
    .unwrap();
    assert_eq!((v["steps"][0]["column"].as_u64(), v["steps"][0]["pivot_row"].as_u64()), (Some(1), Some(1)));
    // The fig. 7 triangle as (row, column) from 1.
    let out = damier()
        .args(["automaton", "trap", "--figure", "7", "--samples", "1", "--max-steps", "10"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(row 2, column 1), (row 3, column 1), (row 3, column 2)"), "{text}");
    // One number format in tables: no "1.1800e1"-style mantissas.
    let out = damier()
        .args(["automaton", "trap", "--figure", "1", "--samples", "2", "--max-steps", "100000"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let mean = text.lines().last().unwrap().rsplit(' ').next().unwrap().to_string();
    assert!(mean.parse::<f64>().is_ok() && !mean.contains("0e"), "{text}");
}

/// Issue 21 §5: the help texts (all of them, through the manual pages) say "seed" only for
/// random seeds, and a cited figure names its document.
#[test]
fn help_texts_name_the_source_documents() {
    let dir = tempfile::tempdir().unwrap();
    let out = damier().args(["man", "--out"]).arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        // Roff escapes hyphens; read the page as plain words.
        let page =
            std::fs::read_to_string(&path).unwrap().replace("\\-", "-").replace("\\*(Aq", "'").to_lowercase();
        for phrase in ["the seed's", "seed 00", "in the seed", "the seed (", "the spec", "seed documents"] {
            assert!(!page.contains(phrase), "{}: {phrase:?}", path.display());
        }
        for (at, _) in page.match_indices("fig") {
            let before = &page[at.saturating_sub(40)..at];
            let figure = page[at..].starts_with("fig. ") || page[at..].starts_with("figs. ");
            assert!(
                !figure || before.contains("report's") || before.contains("figure") || before.contains("fig"),
                "{}: a figure without its document: …{}…",
                path.display(),
                &page[at.saturating_sub(40)..(at + 20).min(page.len())]
            );
        }
    }
}

/// Issue 21 §1: a count is in the plural unless it is 1.
#[test]
fn plurals_agree() {
    for (args, said) in [
        (&["walk", "replay", "1", "2", "E"][..], "2 cells stay white after 1 move\n"),
        (&["walk", "solve", "1", "1"], "path: 0 moves for 1 activated cell\n"),
        (&["queens", "first", "1"], "(1 queen placed, "),
        (&["queens", "corners", "1"], "  1 solution of 1\n"),
        (&["queens", "count", "1"], "n = 1: 1 solution, "),
    ] {
        let out = damier().args(args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(said), "{args:?}: {text}");
    }
}

/// Issue 21 §5: the public docs (README, ARCHITECTURE, docs/*.md, the library's rustdoc) say
/// "seed" only for random seeds, name no "spec", and list the four source documents by title.
#[test]
fn public_docs_name_the_source_documents() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    let listed = |dir: std::path::PathBuf, ext: &str, into: &mut Vec<std::path::PathBuf>| {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == ext) {
                    into.push(p);
                }
            }
        }
    };
    listed(root.join("docs"), "md", &mut files);
    listed(root.join("crates/damier/src"), "rs", &mut files);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // Markdown whole; Rust files by their doc comments only.
        let docs: String = if f.extension().is_some_and(|x| x == "rs") {
            text.lines().filter(|l| l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
        } else {
            text
        };
        let lower = docs.to_lowercase();
        for phrase in [
            "the seed's",
            "seed 00",
            "in the seed",
            "the seed (",
            "the spec's",
            "the spec ",
            "seed documents",
        ] {
            assert!(!lower.contains(phrase), "{}: {phrase:?}", f.display());
        }
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for title in [
        "Le problème des n reines",
        "Algorithmique III — Le problème des 8 reines",
        "Le jeu du tout éteint (light out game)",
        "Promenade binaire",
    ] {
        assert!(readme.contains(&format!("\"{title}\"")), "the README's sources name {title:?}");
    }
}

/// GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, `_` and `-`
/// kept), spaces as hyphens; a repeated heading gets `-1`, `-2`, ...
fn heading_anchors(markdown: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut seen = std::collections::HashMap::<String, usize>::new();
    for line in outside_code_blocks(markdown) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let slug: String = line[hashes..]
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let repeats = seen.entry(slug.clone()).or_insert(0);
        let unique = if *repeats == 0 { slug } else { format!("{slug}-{repeats}") };
        *repeats += 1;
        anchors.push(unique);
    }
    anchors
}

/// The lines of a Markdown text outside its fenced code blocks.
fn outside_code_blocks(markdown: &str) -> Vec<&str> {
    let mut fenced = false;
    markdown
        .lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// The relative link targets `](target)` of a Markdown text, outside code blocks and inline
/// code, without web addresses.
fn relative_links(markdown: &str) -> Vec<String> {
    let mut links = Vec::new();
    for line in outside_code_blocks(markdown) {
        // Inline code spans are the odd-numbered pieces between backticks.
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 1 {
                continue;
            }
            let mut rest = piece;
            while let Some(at) = rest.find("](") {
                rest = &rest[at + 2..];
                let end = rest.find(')').unwrap_or(rest.len());
                let target = &rest[..end];
                if !target.contains("://") && !target.starts_with("mailto:") && !target.is_empty() {
                    links.push(target.to_string());
                }
                rest = &rest[end..];
            }
        }
    }
    links
}

/// Issue 38 §4: docs moved between pages (queens.md to records.md, performance.md to
/// performance-history.md) keep every relative link of the README, ARCHITECTURE.md and
/// docs/*.md working: the file exists, and an anchor names one of its headings.
#[test]
fn docs_links_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    let mut broken = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for link in relative_links(&text) {
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() { f.clone() } else { f.parent().unwrap().join(path) };
            if !target.exists() {
                broken.push(format!("{}: {link} (no such file)", f.display()));
            } else if !anchor.is_empty() && target.extension().is_some_and(|x| x == "md") {
                let headings = heading_anchors(&std::fs::read_to_string(&target).unwrap());
                if !headings.iter().any(|h| h == anchor) {
                    broken.push(format!("{}: {link} (no such heading)", f.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The link checker's own parts, on made-up text.
#[test]
fn docs_link_checker_reads_headings_and_links_as_github_does() {
    let text = "# Title\n## Counting q(28)\n### Model 2: rewrite (2026-11-23, 18:20–19:10 UTC)\n\
                ## Title\n```\n## not a heading\n[x](in-code.md)\n```\n\
                see [a](a.md#b), `[c](in-span.md)`, [web](https://oeis.org/A000170)\n";
    assert_eq!(
        heading_anchors(text),
        ["title", "counting-q28", "model-2-rewrite-2026-11-23-18201910-utc", "title-1"]
    );
    assert_eq!(relative_links(text), ["a.md#b"]);
}

/// The words of `text` that break the README's rule for numbers (Conventions: three
/// significant digits, plain from 0.001 to 99 999, scientific beyond; a count in the plural
/// unless it is 1): decimals with trailing zeros (`0.000000`, `4957.30`) or more than three
/// significant digits (`2.359`), and `(s)` plurals.
fn numbers_breaking_the_rule(text: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '(' || c == ')')) {
        // "solution(s)", not a unit as in "naive (s)".
        if word.len() > 3 && word.ends_with("(s)") {
            bad.push(word.to_string());
        }
        let word = word.trim_matches(|c: char| !c.is_ascii_digit());
        let Some((whole, fraction)) = word.split_once('.') else { continue };
        let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        // Versions (0.1.0) and dates are not measured numbers.
        if !plain(whole) || !plain(fraction) {
            continue;
        }
        let significant = format!("{whole}{fraction}").trim_start_matches('0').len();
        if fraction.ends_with('0') || significant > 3 {
            bad.push(word.to_string());
        }
    }
    bad
}

/// Issue 38, section 3: `queens speed` printed 0.0027 s as `0` and ns per solution as `1`,
/// `queens timing` `0.000000`, the journal `4957.30 tasks/s`, the growth `x2.359`, the walk's
/// export "1 solution(s)", `lights count` "1/1 of the starts are winnable", a bitmap error
/// "(0-based row)"; then seconds still printed `{:.3}` by `queens count/first/sum/bench`,
/// `automaton run/scale/sweep`, the factoring report and `queens estimate`'s ratio (4.3e-4 s
/// was `0.000 s`, a speedup `25.80x`). The text of each command is scanned for a number
/// that breaks the rule.
#[test]
fn printed_numbers_follow_the_readme_rule() {
    assert_eq!(numbers_breaking_the_rule("0.0027 s, 4957.30 tasks/s, x2.359, 1 solution(s)").len(), 3);
    assert!(numbers_breaking_the_rule("0.0027 s, 4957 tasks/s, x2.36, 1.34e5, damier 0.1.0").is_empty());
    let dir = tempfile::tempdir().unwrap();
    let speed_csv = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/figures/counting_speed.csv");
    let journal = dir.path().join("j.journal");
    let journal = journal.to_str().unwrap();
    let _ = stdout_of(&["queens", "count", "9", "--journal", journal]);
    let export = dir.path().join("walks");
    let export = export.to_str().unwrap();
    let _ = stdout_of(&["walk", "export", "--to", "2", export]);
    let mut shares = Vec::new();
    for share in ["1/2", "2/2"] {
        let file = dir.path().join(format!("share{}.json", &share[..1]));
        std::fs::write(&file, stdout_of(&["queens", "count", "9", "--share", share, "--json"])).unwrap();
        shares.push(file.to_str().unwrap().to_string());
    }
    let commands: &[&[&str]] = &[
        &["queens", "count", "9"],
        &["queens", "count", "9", "--share", "1/2"],
        &["queens", "sum", &shares[0], &shares[1]],
        &["queens", "first", "9"],
        &["queens", "bench", "8", "9"],
        &["queens", "estimate", "12", "--samples", "3", "--seed", "1"],
        &["automaton", "run", "-n", "8", "--seed", "1"],
        &["automaton", "scale", "-n", "4..6", "--samples", "3", "--seed", "1"],
        &["automaton", "sweep", "-n", "5", "--samples", "2", "--seed", "1"],
        &["factor", "143", "--seed", "1"],
        &["factor", "sweep", "--bits", "8..10", "--samples", "3", "--seed", "1"],
        &["queens", "speed", speed_csv],
        &["queens", "timing", "--to", "7", "--naive-max", "6", "--min-ms", "1"],
        &["queens", "journal", journal],
        &["lights", "count", "3x3"],
        &["lights", "count", "5x5"],
    ];
    for args in commands {
        let text = stdout_of(args);
        assert!(
            numbers_breaking_the_rule(&text).is_empty(),
            "{args:?}: {:?}\n{text}",
            numbers_breaking_the_rule(&text)
        );
    }
    for file in std::fs::read_dir(export).unwrap() {
        let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
        assert!(numbers_breaking_the_rule(&text).is_empty(), "{text}");
    }
}

/// Issue 38, section 3: ranges in messages read as the README writes them ("2 to 2^64 - 1"),
/// not as Rust writes them (`2..=18446744073709551615`), whether the CLI or the library
/// words the message.
#[test]
fn ranges_in_messages_read_as_words() {
    let cases: &[(&[&str], &str)] = &[
        (&["factor", "-7"], "give a number in 2 to 2^64 - 1"),
        (&["factor", "sweep", "--bits", "5..8", "--samples", "1"], "5 is out of range: 6 to 64 is supported"),
        (&["automaton", "run", "-n", "0"], "is out of range: 1 to "),
        (&["queens", "count", "9", "--share", "3/2"], "K must be 1 to 2"),
        (&["play", "lights", "500x500"], "each side must be 1 to 60"),
    ];
    for (args, says) in cases {
        let err = fails_with(args, 2);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("..=") && !err.contains("18446744073709551615"), "{args:?}: {err}");
    }
    let help = stdout_of(&["factor", "--help"]);
    assert!(help.contains("2 to 2^64 - 1") && !help.contains("..="), "{help}");
}

/// Issue 38, section 3: an option's value out of its range keeps clap's message shape and exit
/// code 2, and says the range in words as every other message does (clap's own `.range()`
/// wrote `1..=1024`, `1..=18446744073709551615`).
#[test]
fn out_of_range_options_say_the_range_in_words() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["queens", "count", "9", "--threads", "0"],
            "'0' for '--threads <THREADS>': 0 is out of range: 1 to 1024 is supported",
        ),
        (&["queens", "list", "8", "--limit", "0"], "0 is out of range: 1 to 2^64 - 1 is supported"),
        (&["queens", "list", "8", "--limit=-3"], "-3 is out of range: 1 to 2^64 - 1 is supported"),
        (
            &["queens", "list", "8", "--limit", "99999999999999999999999"],
            "is out of range: 1 to 2^64 - 1 is supported",
        ),
        (
            &["queens", "list", "8", "--limit", "many"],
            "'many' for '--limit <K>': not a whole number in 1 to 2^64 - 1",
        ),
        (&["queens", "estimate", "3"], "'3' for '<N>': 3 is out of range: 4 to 28 is supported"),
        (&["queens", "timing", "--naive-max", "17"], "17 is out of range: 0 to 16 is supported"),
        (&["automaton", "trap", "--figure", "0"], "'0' for '--figure <FIGURE>'\n  [possible values: 1, 7]"),
        (&["walk", "table", "--to", "301"], "301 is out of range: 1 to 300 is supported"),
        (&["lights", "table", "--to", "1"], "1 is out of range: 2 to 100000 is supported"),
        (&["serve", "--timeout", "86401"], "86401 is out of range: 1 to 86400 is supported"),
    ];
    for (args, says) in cases {
        let err = fails_with(args, 2);
        assert!(err.starts_with("damier: error: invalid value '"), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("..") && !err.contains("18446744073709551615"), "{args:?}: {err}");
    }
}

/// Issue 38, section 3: no `--help` of any command writes a range in Rust's `A..=B` (its
/// descriptions say `1 to 32`, `[range: 0 to 1]`).
#[test]
fn no_help_writes_a_rust_range() {
    let mut todo: Vec<Vec<String>> = vec![vec![]];
    let mut seen = 0;
    while let Some(path) = todo.pop() {
        let mut args = path.clone();
        args.push("--help".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let help = stdout_of(&args);
        seen += 1;
        assert!(!help.contains("..="), "damier {args:?}:\n{help}");
        // The subcommands listed under "Commands:", up to the blank line that ends the list.
        let list = help.split_once("\nCommands:\n").map_or("", |(_, rest)| rest);
        for line in list.lines().take_while(|l| !l.trim().is_empty()) {
            let name = line.split_whitespace().next().unwrap_or("help");
            if name != "help" {
                todo.push([path.clone(), vec![name.to_string()]].concat());
            }
        }
    }
    assert!(seen > 40, "only {seen} commands' help read");
}

/// Issue 51: one module layout. A module with children is a folder with a `mod.rs` (or the
/// `main.rs` of a test binary), never a `foo.rs` beside a `foo/` folder, and no `#[path]`
/// points a module elsewhere (but at the `tests/common/` files that two test binaries share).
#[test]
fn modules_with_children_live_in_a_folder_with_mod_rs() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let (mut files, mut stack) = (Vec::new(), vec![root.join("crates"), root.join("fuzz")]);
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir()
                && !["target", "node_modules", "pkg"].contains(&name.as_str())
                && !name.starts_with('.')
            {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 100, "{} Rust files found", files.len());
    let mut wrong = Vec::new();
    for f in &files {
        let folder = f.with_extension("");
        let has_rust = |d: &std::path::Path| {
            std::fs::read_dir(d)
                .is_ok_and(|r| r.flatten().any(|e| e.path().extension().is_some_and(|x| x == "rs")))
        };
        if folder.is_dir() && has_rust(&folder) {
            wrong.push(format!("{} beside {}/ (move it to {0}/mod.rs)", f.display(), folder.display()));
        }
        let text = std::fs::read_to_string(f).unwrap();
        for line in text.lines().map(str::trim_start).filter(|l| l.starts_with("#[path")) {
            if !line.contains("\"../common/") {
                wrong.push(format!("{}: {line}", f.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "the other module layout:\n{}", wrong.join("\n"));
}
