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
