//! CLI tests of `damier play` and `damier watch`: refusal without a terminal, and one scripted
//! run of each program under tmux, as a person would play it.

use super::tmux::Tmux;
use super::util::fails_with;

#[test]
fn games_refuse_without_a_terminal() {
    for args in [&["play", "walk", "3", "3"][..], &["watch", "-n", "6"][..], &["play", "lights"][..]] {
        let err = fails_with(args, 2);
        assert!(err.contains("interactive terminal"), "{err}");
    }
}

#[test]
fn bad_sizes_are_refused_before_the_terminal_is_touched() {
    fails_with(&["play", "walk", "0", "3"], 2);
    fails_with(&["play", "walk", "3", "1000"], 2);
    fails_with(&["play", "walk", "3", "x"], 2);
    fails_with(&["watch", "-n", "0"], 2);
    fails_with(&["play", "lights", "0x3"], 2);
    fails_with(&["play", "lights", "500x500"], 2);
    fails_with(&["play", "lights", "5by5"], 2);
    fails_with(&["play", "lights", "--from", "/nonexistent/board"], 2);
    // A board file is held to the same size limit as a random board (PBM accepted).
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.pbm");
    std::fs::write(&big, [&b"P4\n300 300\n"[..], &vec![0u8; 38 * 300]].concat()).unwrap();
    let err = fails_with(&["play", "lights", "--from", big.to_str().unwrap()], 2);
    assert!(err.contains("each side must be 1 to 60"), "{err}");
    fails_with(&["watch", "-n", "8", "--eps", "1.5"], 2);
    fails_with(&["watch", "-n", "8", "--model", "cell", "--eta", "1.5"], 2);
}

#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn walk_game_under_tmux_solver_animation_wins_and_quits() {
    let t = Tmux::start(&["play", "walk", "3", "3", "--seed", "1"], 90, 24);
    t.wait_for("revertigo");
    t.send(&["Up"]); // a first move by hand
    t.wait_for("moves      1");
    t.send(&["s"]); // then let the solver finish
    t.wait_for("YOU WIN");
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn watch_under_tmux_runs_to_a_solution_and_quits() {
    let t = Tmux::start(&["watch", "-n", "5", "--seed", "3", "--speed", "1000000"], 90, 24);
    t.wait_for("model pair");
    t.wait_for("SOLVED at step");
    assert!(!t.screen().contains("eta"), "model 1 shows no η: {}", t.screen());
    t.send(&["q"]);
    t.wait_exit();
}

/// SIGINT from outside (`kill -INT`, `timeout -s INT`) ends the live view and the games as
/// the Ctrl-C key does: the handler caught it and the loop never looked, so they ran on. And
/// a closed terminal ends them: with SIGHUP caught they spun at 100 % of a core in
/// crossterm's read of the vanished terminal (crossterm issue 793) after their session was
/// gone. Each time the program itself is checked gone, not only its session.
#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn live_views_under_tmux_stop_on_sigint_sigterm_and_a_closed_terminal() {
    use super::tmux::wait_group_gone;
    let t = Tmux::start(&["watch", "-n", "8", "--seed", "3", "--speed", "1"], 90, 30);
    t.wait_for("model pair");
    let group = t.group();
    t.signal("INT");
    t.wait_exit();
    wait_group_gone(group);
    let t = Tmux::start(&["play", "lights", "5x5", "--seed", "1"], 90, 30);
    t.wait_for("lights out 5 x 5");
    let group = t.group();
    t.signal("TERM");
    t.wait_exit();
    wait_group_gone(group);
    let t = Tmux::start(&["watch", "-n", "8", "--seed", "3", "--speed", "1"], 90, 30);
    t.wait_for("model pair");
    let group = t.group();
    t.close();
    wait_group_gone(group);
}

/// Issue 52 §1: sides up to each model's largest are accepted by `watch` (refused here only for
/// want of a terminal), and above it refused with the limit; no tmux needed.
#[test]
fn watch_takes_sides_up_to_each_models_largest() {
    let err = fails_with(&["watch", "--model", "row", "-n", "16385"], 2);
    assert!(err.contains("16384"), "{err}");
    let err = fails_with(&["watch", "-n", "2049"], 2);
    assert!(err.contains("2048"), "{err}");
    for args in [&["watch", "--model", "row", "-n", "16384"][..], &["watch", "-n", "2048"]] {
        let err = fails_with(args, 2);
        assert!(err.contains("interactive terminal"), "{args:?}: {err}");
    }
}

/// Issue 52 §1: the documented `damier watch --model row -n 1000` runs, in blocks.
#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn watch_draws_1000_in_blocks_under_tmux() {
    let t = Tmux::start(&["watch", "--model", "row", "-n", "1000", "--seed", "1"], 80, 30);
    t.wait_for("blocks of");
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn watch_under_tmux_runs_model_2_with_the_eta_given() {
    let args = ["watch", "--model", "cell", "--eta", "0.2", "-n", "5", "--seed", "3", "--speed", "1000000"];
    let t = Tmux::start(&args, 90, 24);
    t.wait_for("model cell");
    t.wait_for("eta = 0.2");
    t.wait_for("SOLVED at step");
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn small_terminal_shows_a_message_under_tmux() {
    let t = Tmux::start(&["play", "walk", "8", "8"], 30, 8);
    t.wait_for("too small");
    t.send(&["q"]);
    t.wait_exit();
}

#[test]
#[ignore = "needs tmux: `cargo test --test cli -- --ignored under_tmux` runs it (.ci/run does)"]
fn lights_game_under_tmux_hints_lead_to_a_win() {
    let t = Tmux::start(&["play", "lights", "3x3", "--seed", "4"], 90, 24);
    t.wait_for("lights out 3 x 3");
    t.send(&["s"]); // show the whole solution
    t.send(&["Space"]); // a press by hand (top-left cell)
    t.wait_for("presses    1");
    // Each hint puts the cursor on a press of a fewest-presses solution; space presses it.
    for _ in 0..12 {
        if t.screen().contains("YOU WIN") {
            break;
        }
        t.send(&["h", "Space"]);
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    t.wait_for("YOU WIN");
    t.send(&["q"]);
    t.wait_exit();
}
