//! Issue 23 §3, issue 51: imports point one way. In each crate of the workspace (every member
//! of the root `Cargo.toml`, and the fuzz crate), the graph of module files has no circle.
//!
//! The graph is read from the source: an edge goes from a module file to every module file
//! whose items it names through a `use` of `crate::`, `super::`, `self::` or a child module,
//! or through such a path in its code (`super::shared::f(..)`). A path naming an item that a
//! module only re-exports (`pub use child::Item`) leads on to the file that defines the item;
//! `mod` declarations and re-exports alone are no edges (a module lists its children and what
//! it offers of them without depending on them). Test code (`#[cfg(test)]` items and the test
//! files they declare) is left out: tests may reach anywhere. Comments and string literals are
//! blanked before reading, so that a doc link or a message is never taken for an import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Source with comments and the contents of string and character literals blanked (each
/// replaced by spaces, newlines kept), so that braces and paths in them are not read as code.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    out.push(b' ');
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        out.extend(b"  ");
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        out.extend(b"  ");
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        blank(&mut out, b[i]);
                        i += 1;
                    }
                }
            }
            b'r' if !ident_byte(i.checked_sub(1).map(|j| b[j]))
                && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#')) =>
            {
                // A raw string r"..", r#".."#: ends at a quote followed by as many #.
                let mut j = i + 1;
                while b.get(j) == Some(&b'#') {
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    out.push(b[i]);
                    i += 1;
                    continue;
                }
                let hashes = j - i - 1;
                out.extend(std::iter::repeat_n(b' ', j + 1 - i));
                i = j + 1;
                while i < b.len() {
                    if b[i] == b'"'
                        && b[i + 1..].iter().take(hashes).filter(|&&c| c == b'#').count() == hashes
                    {
                        out.extend(std::iter::repeat_n(b' ', hashes + 1));
                        i += hashes + 1;
                        break;
                    }
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            b'"' => {
                out.push(b' ');
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        out.push(b' ');
                        i += 1;
                    }
                    if i < b.len() {
                        blank(&mut out, b[i]);
                        i += 1;
                    }
                }
                out.push(b' ');
                i += 1;
            }
            b'\'' => {
                // A character literal ('x', '\n', '\u{7b}'); a lifetime ('a) is kept.
                let end = if b.get(i + 1) == Some(&b'\\') {
                    b.get(i + 3..).and_then(|r| r.iter().position(|&c| c == b'\'')).map(|p| i + 3 + p)
                } else {
                    let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                    (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
                };
                match end {
                    Some(end) => {
                        out.extend(std::iter::repeat_n(b' ', end + 1 - i));
                        i = end + 1;
                    }
                    None => {
                        out.push(b'\'');
                        i += 1;
                    }
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    // Multi-byte characters outside literals (in identifiers, rare) become spaces.
    String::from_utf8(out.into_iter().map(|c| if c.is_ascii() { c } else { b' ' }).collect()).unwrap()
}

fn ident_byte(c: Option<u8>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// The end (exclusive) of the item starting at `from`: through its `;` or its `{ .. }` block,
/// whichever comes first.
fn item_end(code: &str, from: usize) -> usize {
    let b = code.as_bytes();
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().skip(from) {
        match c {
            b';' if depth == 0 => return i + 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    b.len()
}

/// `code` without its test items (`#[cfg(test)]` or `#[cfg(all(test, ..))]` and the item that
/// follows, with its other attributes).
fn without_tests(code: &str) -> String {
    let mut code = code.to_string();
    while let Some(at) = ["#[cfg(test)]", "#[cfg(all(test"].iter().filter_map(|a| code.find(a)).min() {
        let end = item_end(&code, at);
        code.replace_range(at..end, &" ".repeat(end - at));
    }
    code
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// Every occurrence of the keyword `word` in `code` as a whole word: its byte offsets.
fn word_at(code: &str, word: &str) -> Vec<usize> {
    let b = code.as_bytes();
    code.match_indices(word)
        .map(|(i, _)| i)
        .filter(|&i| {
            !ident_byte(i.checked_sub(1).map(|j| b[j])) && !ident_byte(b.get(i + word.len()).copied())
        })
        .collect()
}

/// The paths of a `use` tree (`a::{b, c::{d as e, *}, self}`), each as its segments; `*` and
/// `self` name the module before them; `as` names are dropped.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn split_top(s: &str) -> Vec<&str> {
        let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
        for (i, c) in s.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&s[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&s[start..]);
        parts
    }
    fn walk(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim().trim_start_matches("::").trim();
        if tree.is_empty() {
            return;
        }
        if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
            for part in split_top(inner) {
                walk(prefix, part, out);
            }
            return;
        }
        let head = ident(tree);
        let rest = &tree[head.len()..];
        let rest_trim = rest.trim_start();
        if tree.starts_with('*') || head == "self" && !rest_trim.starts_with("::") && !prefix.is_empty() {
            out.push(prefix.to_vec());
            return;
        }
        if head.is_empty() {
            return;
        }
        let mut path = prefix.to_vec();
        path.push(head.to_string());
        match rest_trim.strip_prefix("::") {
            Some(rest) => walk(&path, rest, out),
            None => out.push(path),
        }
    }
    let mut out = Vec::new();
    walk(&[], &tree.split_whitespace().collect::<Vec<_>>().join(" ").replace(" as ", " as_"), &mut out);
    // `x as y` was joined into `x as_y`: the identifier reader stops at the space.
    out
}

/// One module as read from its file (or an inline `mod name { .. }` block of it).
#[derive(Default)]
struct Module {
    /// The file it lives in (an inline module lives in its parent's).
    file: String,
    /// Paths it names (relative, as written: `super::x::Y`, `crate::a`, `child::f`).
    uses: Vec<Vec<String>>,
    /// Re-exports: a name it offers, and the path (as written) the name stands for.
    reexports: BTreeMap<String, Vec<String>>,
    /// Glob re-exports (`pub use child::*`): the paths (as written).
    globs: Vec<Vec<String>>,
    /// The names it defines (items and modules).
    defines: BTreeSet<String>,
    /// Its child modules.
    children: BTreeSet<String>,
}

/// The modules of one crate, by absolute path (`[]` the crate root), read from `root`.
fn read_crate(root: &Path) -> BTreeMap<Vec<String>, Module> {
    let mut modules = BTreeMap::new();
    read_file(root, root, &[], &mut modules);
    modules
}

/// The file of module `name` declared in `file`.
fn module_file(file: &Path, name: &str) -> PathBuf {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap();
    let dir = match stem {
        "lib" | "main" | "mod" => file.parent().unwrap().to_path_buf(),
        _ => file.with_extension(""),
    };
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() { flat } else { dir.join(name).join("mod.rs") }
}

fn read_file(file: &Path, root: &Path, path: &[String], modules: &mut BTreeMap<Vec<String>, Module>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    // Named from the crate's folder: `src/queens/count/sum.rs`.
    let crate_dir = root.parent().and_then(Path::parent).unwrap();
    let name = file.strip_prefix(crate_dir).unwrap_or(file).display().to_string();
    let code = without_tests(&code_only(&text));
    for child in read_code(&code, &name, path, modules) {
        let mut child_path = path.to_vec();
        child_path.push(child.clone());
        read_file(&module_file(file, &child), root, &child_path, modules);
    }
}

/// Reads one module's code (inline modules in it recursively); returns the children declared
/// with `mod name;`, whose files are read next.
fn read_code(
    code: &str,
    file: &str,
    path: &[String],
    modules: &mut BTreeMap<Vec<String>, Module>,
) -> Vec<String> {
    let mut code = code.to_string();
    let mut module = Module { file: file.to_string(), ..Module::default() };
    let mut file_children = Vec::new();
    // Module declarations: `mod a;` (a file) and `mod a { .. }` (inline, read on its own).
    while let Some(at) = word_at(&code, "mod").into_iter().next() {
        let name = ident(code[at + 3..].trim_start()).to_string();
        let end = item_end(&code, at);
        if code[at..end].ends_with('}') {
            let open = at + code[at..].find('{').unwrap();
            let mut inner = path.to_vec();
            inner.push(name.clone());
            file_children.extend(read_code(&code[open + 1..end - 1], file, &inner, modules));
        } else {
            file_children.push(name.clone());
        }
        module.children.insert(name.clone());
        module.defines.insert(name);
        code.replace_range(at..end, &" ".repeat(end - at));
    }
    // `use` declarations: imports, or re-exports when public.
    // (`use<'a>` in a return type is a capture list, not a declaration.)
    while let Some(at) =
        word_at(&code, "use").into_iter().find(|&at| !code[at + 3..].trim_start().starts_with('<'))
    {
        let end = item_end(&code, at);
        let before = code[..at].trim_end();
        let public = before.ends_with("pub")
            || before.ends_with(')')
                && before.rfind("pub(").is_some_and(|p| {
                    !before[p..].contains(';') && !before[p..].contains('}') && !before[p..].contains('{')
                });
        for p in expand_use(code[at + 3..end].trim_end_matches(';')) {
            if public {
                if code[at..end].contains('*') && !code[at..end].contains("self") {
                    module.globs.push(p);
                } else if let Some(last) = p.last() {
                    module.reexports.insert(last.clone(), p);
                }
            } else {
                module.uses.push(p);
            }
        }
        code.replace_range(at..end, &" ".repeat(end - at));
    }
    // Paths in the code: `crate::..`, `super::..`, `self::..`, `child::..`.
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if ident_byte(Some(b[i])) && !ident_byte(i.checked_sub(1).map(|j| b[j])) {
            let word = ident(&code[i..]);
            let after = i + word.len();
            let starts_path = ["crate", "super", "self"].contains(&word) || module.children.contains(word);
            let preceded = code[..i].trim_end().ends_with("::");
            if starts_path && !preceded && code[after..].starts_with("::") {
                let mut segs = vec![word.to_string()];
                let mut j = after;
                while code[j..].starts_with("::") && ident_byte(b.get(j + 2).copied()) {
                    let s = ident(&code[j + 2..]);
                    segs.push(s.to_string());
                    j += 2 + s.len();
                }
                module.uses.push(segs);
                i = j;
                continue;
            }
            i = after;
        } else {
            i += 1;
        }
    }
    // Definitions: `fn name`, `struct name`, ..., `macro_rules! name`.
    for kw in ["fn", "struct", "enum", "trait", "type", "const", "static", "union", "macro_rules!"] {
        for at in word_at(&code, kw.trim_end_matches('!')) {
            let name = ident(code[at + kw.len()..].trim_start());
            if !name.is_empty() {
                module.defines.insert(name.to_string());
            }
        }
    }
    modules.insert(path.to_vec(), module);
    file_children
}

/// `rel` (as written in module `at`) as an absolute path, or `None` for another crate's.
fn absolute(at: &[String], rel: &[String], modules: &BTreeMap<Vec<String>, Module>) -> Option<Vec<String>> {
    let mut path = at.to_vec();
    let mut segs = rel.iter().peekable();
    match segs.peek().map(|s| s.as_str()) {
        Some("crate") => {
            path.clear();
            segs.next();
        }
        Some("self") => {
            segs.next();
        }
        Some("super") => {
            while segs.peek().is_some_and(|s| *s == "super") {
                path.pop()?;
                segs.next();
            }
        }
        Some(first) if modules.get(at).is_some_and(|m| m.children.contains(first)) => {}
        _ => return None,
    }
    path.extend(segs.cloned());
    Some(path)
}

/// The module whose item the absolute `path` names: through re-exports to the defining one.
fn defining_module(path: &[String], modules: &BTreeMap<Vec<String>, Module>, depth: usize) -> Vec<String> {
    let k = (0..=path.len()).rev().find(|&k| modules.contains_key(&path[..k])).unwrap_or(0);
    let (module_path, rest) = path.split_at(k);
    let Some(name) = rest.first() else { return module_path.to_vec() };
    let module = &modules[module_path];
    if depth > 16 || module.defines.contains(name) {
        return module_path.to_vec();
    }
    if let Some(target) = module.reexports.get(name)
        && let Some(mut abs) = absolute(module_path, target, modules)
    {
        abs.extend(rest[1..].iter().cloned());
        return defining_module(&abs, modules, depth + 1);
    }
    for glob in &module.globs {
        if let Some(mut abs) = absolute(module_path, glob, modules)
            && let Some(g) = modules.get(&abs)
            && (g.defines.contains(name) || g.reexports.contains_key(name))
        {
            abs.extend(rest.iter().cloned());
            return defining_module(&abs, modules, depth + 1);
        }
    }
    module_path.to_vec()
}

/// The file-level import graph of a crate: file -> the files it imports from.
fn import_graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = read_crate(root);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (at, module) in &modules {
        let edges = graph.entry(module.file.clone()).or_default();
        for rel in &module.uses {
            let Some(abs) = absolute(at, rel, &modules) else { continue };
            let target = &modules[&defining_module(&abs, &modules, 0)].file;
            if *target != module.file {
                edges.insert(target.clone());
            }
        }
    }
    graph
}

/// A circle of `graph` (its nodes in order, the first repeated at the end), if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<&'a str, Mark>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|&n| n == node).unwrap();
                let mut cycle: Vec<String> = stack[from..].iter().map(|s| s.to_string()).collect();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node, Mark::Open);
        stack.push(node);
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        marks.insert(node, Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph.keys().find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The crates of the workspace (its `members`, read from the root `Cargo.toml`) and the fuzz
/// crate beside it, each with its crate roots: `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`.
fn crate_roots() -> Vec<(String, Vec<PathBuf>)> {
    let manifest = std::fs::read_to_string(workspace().join("../Cargo.toml")).unwrap();
    let members = manifest.lines().find_map(|l| l.trim().strip_prefix("members = [")).expect("members");
    let mut dirs: Vec<String> =
        members.trim_end_matches(']').split(',').map(|m| m.trim().trim_matches('"').to_string()).collect();
    dirs.push("fuzz".into());
    dirs.iter()
        .map(|dir| {
            let src = workspace().join("..").join(dir).join("src");
            let mut roots: Vec<PathBuf> =
                ["lib.rs", "main.rs"].iter().map(|f| src.join(f)).filter(|f| f.exists()).collect();
            if let Ok(bins) = std::fs::read_dir(src.join("bin")) {
                roots.extend(
                    bins.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "rs")),
                );
            }
            (dir.rsplit('/').next().unwrap().to_string(), roots)
        })
        .collect()
}

#[test]
fn no_crate_has_an_import_circle() {
    // Files the reader must find at least (not an empty graph that trivially has no circle).
    let least = BTreeMap::from([
        ("damier", 8),
        ("damier-api", 4),
        ("damier-bench", 6),
        ("damier-cli", 8),
        ("damier-web", 8),
        ("damier-py", 8),
        ("damier-wasm", 6),
        ("damier-gpu", 8),
    ]);
    let crates = crate_roots();
    assert!(crates.len() >= 10, "{crates:?}");
    for (name, roots) in crates {
        assert!(!roots.is_empty(), "{name}: no src/lib.rs, src/main.rs or src/bin/*.rs");
        let mut graph = BTreeMap::new();
        for root in &roots {
            graph.append(&mut import_graph(root));
        }
        let edges: usize = graph.values().map(BTreeSet::len).sum();
        // The reader found the crate's files and their imports: at least one import per file
        // but the roots (a crate not listed, such as the fuzz crate's checks of the library,
        // may have files that import only other crates).
        let listed = least.get(name.as_str()).copied();
        assert!(
            graph.len() >= listed.unwrap_or(1) && (listed.is_none() || edges + roots.len() >= graph.len()),
            "{name}: {} files, {edges} imports read",
            graph.len()
        );
        if let Some(cycle) = find_cycle(&graph) {
            panic!("{name}: the imports go round a circle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn the_reader_follows_uses_paths_and_reexports() {
    let g = import_graph(&workspace().join("damier/src/lib.rs"));
    let edges = |file: &str| g.get(file).unwrap_or_else(|| panic!("{file} not read: {:?}", g.keys()));
    // `use super::{CountError, ..., TimedCounts, ..}`: defined in count/mod.rs, or re-exported
    // there from count/error.rs.
    let sum = edges("src/queens/count/sum.rs");
    assert!(sum.contains("src/queens/count/mod.rs") && sum.contains("src/queens/count/error.rs"), "{sum:?}");
    // `use crate::util::thread_cpu_seconds`: re-exported by util/mod.rs from util/system.rs.
    assert!(edges("src/queens/count/estimate.rs").contains("src/util/system.rs"));
    // A re-export alone is no edge: count/mod.rs re-exports sum's items.
    assert!(!edges("src/queens/count/mod.rs").contains("src/queens/count/sum.rs"));
}

#[test]
fn a_circle_is_found_and_named() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    assert_eq!(find_cycle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(
        find_cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(find_cycle(&graph(&[("x", "y"), ("y", "y")])), Some(vec!["y".into(), "y".into()]));
}

#[test]
fn a_circle_through_super_and_a_child_path_is_found_in_source() {
    // lib.rs calls `shapes::area`, shapes.rs imports `Unit` from lib.rs: a circle. The same
    // crate where lib.rs only re-exports and declares has none; a test module is left out.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    let shapes = "//! Shapes: `use crate::nothing;` in a comment is no import.\n\
                  use super::{Unit, other::*};\n\
                  pub fn area() -> Unit { let _ = \"crate::nothing\"; Unit }\n\
                  pub fn all<'s>(x: &'s [u8]) -> impl Iterator + use<'s> { x.iter() }\n";
    std::fs::write(src.join("shapes.rs"), shapes).unwrap();
    std::fs::write(src.join("other.rs"), "pub fn helper() {}\n").unwrap();
    let lib = "mod other;\nmod shapes;\npub struct Unit;\npub fn f() { shapes::area(); }\n";
    std::fs::write(src.join("lib.rs"), lib).unwrap();
    let cycle = find_cycle(&import_graph(&src.join("lib.rs"))).expect("a circle");
    assert_eq!(cycle.len(), 3, "{cycle:?}");
    assert!(cycle.iter().any(|f| f.ends_with("shapes.rs")) && cycle.iter().any(|f| f.ends_with("lib.rs")));
    let lib = "mod other;\nmod shapes;\npub use shapes::area;\npub struct Unit;\n\
               #[cfg(test)]\nmod tests { fn g() { super::shapes::area(); } }\n";
    std::fs::write(src.join("lib.rs"), lib).unwrap();
    let graph = import_graph(&src.join("lib.rs"));
    assert_eq!(find_cycle(&graph), None, "{graph:?}");
    assert_eq!(
        graph["src/shapes.rs"],
        BTreeSet::from(["src/lib.rs".to_string(), "src/other.rs".to_string()])
    );
}

#[test]
fn comments_strings_and_characters_are_blanked_but_lifetimes_kept() {
    let code = code_only(
        "let a = '\\''; let b = '{'; // use crate::x;\nfn f<'s>(x: &'s str) { r#\"}\"#; \"\\\"}\"; }",
    );
    // The comment and the character literals are gone; the two lifetimes stay.
    assert!(!code.contains("crate") && code.matches('\'').count() == 2, "{code}");
    assert!(code.contains("fn f<'s>(x: &'s str) {"), "{code}");
    // Only the function's own braces are left.
    assert_eq!((code.matches('{').count(), code.matches('}').count()), (1, 1), "{code}");
    assert_eq!(code.len(), code_only(&code).len());
}
