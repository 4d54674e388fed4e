//! Walk move strings: the first two bytes choose a small board, the rest is the move string.
//! A parsed string prints back to the same moves; the replay agrees with a plain simulation;
//! and the walk `path_for` builds for the replayed landings replays to the same landings.

use damier::control::Control;
use damier::walk::board_size;
use damier::walk::path::{Move, Outcome, moves_to_string, parse_moves, path_for, replay};

/// The check on one input: panics on a fault.
pub fn check(data: &[u8]) {
    let [r, c, rest @ ..] = data else { return };
    let shape = board_size(usize::from(r % 12) + 1, usize::from(c % 12) + 1).expect("small board");
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let Ok(moves) = parse_moves(text) else {
        assert!(text.chars().any(|ch| !ch.is_whitespace() && !"NSEWOnsewo".contains(ch)));
        return;
    };
    assert_eq!(moves.len(), text.chars().filter(|ch| !ch.is_whitespace()).count());
    assert_eq!(parse_moves(&moves_to_string(&moves)).as_deref(), Ok(moves.as_slice()));
    let run = replay(shape, &moves);
    // Plain simulation: landing parities on a grid of bools, from the bottom-left cell.
    let (rows, cols) = (shape.height(), shape.width());
    let mut landed = vec![vec![false; cols]; rows];
    let (mut pr, mut pc) = (rows - 1, 0usize);
    landed[pr][pc] ^= true;
    let mut left = None;
    for (i, m) in moves.iter().enumerate() {
        let (nr, nc) = match m {
            Move::N => (pr as i64 - 1, pc as i64),
            Move::S => (pr as i64 + 1, pc as i64),
            Move::E => (pr as i64, pc as i64 + 1),
            Move::W => (pr as i64, pc as i64 - 1),
        };
        if nr < 0 || nc < 0 || nr >= rows as i64 || nc >= cols as i64 {
            left = Some(i + 1);
            break;
        }
        (pr, pc) = (nr as usize, nc as usize);
        landed[pr][pc] ^= true;
    }
    assert_eq!(run.pawn, (pr, pc));
    for (y, row) in landed.iter().enumerate() {
        for (x, &on) in row.iter().enumerate() {
            assert_eq!(run.landings.get(x, y), on, "landing parity at row {y}, column {x}");
        }
    }
    match run.outcome {
        Outcome::LeftBoard { step, .. } => assert_eq!(left, Some(step)),
        _ => assert_eq!(left, None),
    }
    if left.is_some() {
        return;
    }
    // The construction reproduces any reachable landing set.
    let built = path_for(shape, &run.landings, &Control::new()).expect("a reachable landing set has a walk");
    let again = replay(shape, &built);
    assert!(!matches!(again.outcome, Outcome::LeftBoard { .. }), "built walk leaves the board");
    assert_eq!(again.landings, run.landings);
    assert_eq!(again.black, run.black);
}
