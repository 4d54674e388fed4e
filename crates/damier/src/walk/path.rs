//! Move strings: from an activation set to a walk, and a walk replayed cell by cell.
//!
//! ## The constructions ([`path_for`]) and their bounds
//!
//! Only the parity of the landings on each cell matters, and cells the walk never reaches
//! stay unlanded, so a construction only has to finish with the right parity everywhere.
//!
//! **Two-row bands** (the main one). Pair the rows from the bottom into bands of two, walked
//! alternately east and west. The pawn enters each column of a band on one of its two cells
//! (landed once) and must leave the column with the column's two parities right; moving
//! only north/south inside the column, each of the four patterns has exactly one short
//! realisation: {entry} — nothing; {other} — there and back (2 moves); both — across
//! (1 move); neither — across, back, across (3 moves). The pattern's parity decides the row
//! it leaves from, so the next column's entry row follows. A band is left north from its
//! last column's upper row; when the parity says "lower row", that column is realised with
//! its upper cell flipped and the pawn dips north and back (2 moves) to land on the upper
//! cell again — the dip also lands once on the next band's first cell, whose target is
//! flipped. An odd top row is swept like the serpentine below. The walk stops in the last
//! column of the highest band holding an activated cell. Cost: at most 4 moves per column of
//! a band plus 3 per band, and `3·C` for a single top row: **at most `2·L·C + L + 3·C`
//! moves**; about `1.25·L·C` for a random-looking dense solution (0, 2, 1 or 3 moves per
//! two-cell column plus one step), that is about 2.5 moves per activated cell.
//!
//! **Serpentine** (kept for sparse sets). Number the cells along a serpentine from the
//! bottom-left cell; consecutive cells are neighbours. Standing on cell `i`, step forward if
//! its parity is right, else forward-back-forward (one more landing on `i`, two on `i + 1`,
//! which then arrives even). Stop at the last activated cell `e`; if it ends wrong,
//! `e → e-1 → e → e-1`. Cost `e + 2·(fixes) (+3)`: **at most `3·L·C` moves**.
//!
//! [`path_for`] builds both, along the rows and along the columns (the board mirrored in its
//! diagonal through the start cell), and keeps the shortest; boards above
//! [`TRY_ALL_CELLS`] use the row bands only. The blog post's diagonal step `E N S N` (moves the
//! pawn without changing the board) is not needed.
//!
//! [`path_from`] starts from any cell whose landing is already counted (the game's current
//! position): it first walks straight west then south to the bottom-left cell and corrects
//! the target for the cells landed on the way (at most `L + C` extra moves), then proceeds
//! as above.
//!
//! ```
//! use damier::walk::{board_size, path};
//!
//! let size = board_size(2, 2).unwrap(); // L = 2 rows, C = 2 columns
//! let moves = path::parse_moves("NES").unwrap(); // the blog post's 2 x 2 walk
//! assert!(path::replay(size, &moves).all_black());
//! assert_eq!(path::moves_to_string(&moves), "NES");
//! ```

use super::{MAX_CELLS_PATH_TO_FILE, WalkError, check_board, start_cell};
use crate::board::{Board, Size};
use crate::control::{Control, Interrupted};
use crate::lights::press_cell;
use crate::util::{OutOfMemory, try_with_capacity};

/// Moves (or columns of a band) between two polls of the cancel flag: about a millisecond.
const POLL_EVERY: usize = 1 << 20;

/// One move of the pawn. Row 0 is the top row: `N` decreases the row, `E` increases the column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Up.
    N,
    /// Down.
    S,
    /// Right.
    E,
    /// Left (the blog post writes `O`, ouest).
    W,
}

impl Move {
    /// The letter printed: `N`, `S`, `E` or `W`.
    pub fn letter(self) -> char {
        match self {
            Move::N => 'N',
            Move::S => 'S',
            Move::E => 'E',
            Move::W => 'W',
        }
    }

    /// The move for a letter: `N S E W`, and `O` for west; lower case accepted.
    pub fn from_letter(ch: char) -> Option<Move> {
        match ch.to_ascii_uppercase() {
            'N' => Some(Move::N),
            'S' => Some(Move::S),
            'E' => Some(Move::E),
            'W' | 'O' => Some(Move::W),
            _ => None,
        }
    }

    /// The move that undoes this one.
    pub fn opposite(self) -> Move {
        match self {
            Move::N => Move::S,
            Move::S => Move::N,
            Move::E => Move::W,
            Move::W => Move::E,
        }
    }

    /// Where the pawn lands from `(row, col)`, or `None` off the board.
    pub fn step(self, size: Size, (r, c): (usize, usize)) -> Option<(usize, usize)> {
        match self {
            Move::N => r.checked_sub(1).map(|r| (r, c)),
            Move::S => (r + 1 < size.height()).then_some((r + 1, c)),
            Move::E => (c + 1 < size.width()).then_some((r, c + 1)),
            Move::W => c.checked_sub(1).map(|c| (r, c)),
        }
    }
}

/// Parses a move string (`N S E W`, `O` for west, either case; whitespace ignored).
pub fn parse_moves(s: &str) -> Result<Vec<Move>, WalkError> {
    s.chars()
        .enumerate()
        .filter(|(_, ch)| !ch.is_whitespace())
        .map(|(i, ch)| Move::from_letter(ch).ok_or(WalkError::BadMove { letter: ch, position: i + 1 }))
        .collect()
}

/// The move string, one letter per move.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// [`moves_to_string`] of a path that is no longer needed as moves: its bytes become the text.
pub fn into_string(moves: Vec<Move>) -> String {
    // PERF: a move and its letter are one byte each, so `collect` reuses the vector's
    // allocation (in-place iteration): no second buffer of the path's length (2 GB at 2^30
    // cells).
    let bytes: Vec<u8> = moves.into_iter().map(|m| m.letter() as u8).collect();
    String::from_utf8(bytes).expect("the letters are ASCII")
}

/// How a replayed walk ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Every cell is black.
    AllBlack,
    /// The walk stayed on the board but `count` cells are still white.
    White {
        /// White cells left.
        count: usize,
    },
    /// Move number `step` (1-based) leaves the board; the replay stops there.
    LeftBoard {
        /// 1-based index of the move.
        step: usize,
        /// The move.
        mv: Move,
        /// Pawn row before the move (0 = top).
        row: usize,
        /// Pawn column before the move.
        col: usize,
    },
}

/// The result of [`replay`].
#[derive(Debug, Clone)]
pub struct Replay {
    /// Cells landed on an odd number of times (up to where the walk stopped).
    pub landings: Board,
    /// Black cells at the end.
    pub black: Board,
    /// Where the pawn stands at the end.
    pub pawn: (usize, usize),
    /// How it ended.
    pub outcome: Outcome,
}

impl Replay {
    /// True when the walk stayed on the board and left every cell black.
    pub fn all_black(&self) -> bool {
        self.outcome == Outcome::AllBlack
    }
}

/// A replay summed up: the board's size, the moves, whether all is black, the white cells left,
/// and where the pawn left the board (cells from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ReplayRecord {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Moves replayed.
    pub moves: usize,
    /// Every cell black at the end.
    pub all_black: bool,
    /// White cells at the end.
    pub white: usize,
    /// The move that left the board, if one did.
    pub left_board: Option<LeftBoard>,
}

/// The move that left the board, with the pawn's cell before it counted from 1 at the top
/// left (as every message counts cells).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LeftBoard {
    /// 1-based index of the move.
    pub step: usize,
    /// The move's letter.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: char,
    /// The pawn's row before the move, from 1 at the top.
    pub row: usize,
    /// The pawn's column before the move, from 1 at the left.
    pub col: usize,
}

impl ReplayRecord {
    /// The summary of `replay`, the replay of `moves` moves on a board of `size` (the final
    /// board itself is `replay.black`).
    pub fn new(size: Size, moves: usize, replay: &Replay) -> ReplayRecord {
        let left_board = match replay.outcome {
            Outcome::LeftBoard { step, mv, row, col } => {
                Some(LeftBoard { step, mv: mv.letter(), row: row + 1, col: col + 1 })
            }
            _ => None,
        };
        ReplayRecord {
            rows: size.height(),
            cols: size.width(),
            moves,
            all_black: replay.all_black(),
            white: size.cells() - replay.black.count_ones() as usize,
            left_board,
        }
    }
}

/// Replays `moves` cell by cell: the pawn lands on the bottom-left cell, then on each cell it
/// moves to, flipping the cell and its neighbours every time.
pub fn replay(size: Size, moves: &[Move]) -> Replay {
    match replay_with(size, moves, &Control::new()) {
        Ok(replay) => replay,
        Err(Interrupted) => unreachable!("a fresh control is never cancelled"),
    }
}

/// [`replay`], stopped by `control` (a walk of a billion moves takes seconds).
pub fn replay_with(size: Size, moves: &[Move], control: &Control) -> Result<Replay, Interrupted> {
    replay_on(Replayer::new(size), moves, control)
}

/// `moves` played by `replayer`, polling `control`.
fn replay_on(mut replayer: Replayer, moves: &[Move], control: &Control) -> Result<Replay, Interrupted> {
    for part in moves.chunks(POLL_EVERY) {
        if control.cancelled() {
            return Err(Interrupted);
        }
        for &mv in part {
            if !replayer.play(mv) {
                return Ok(replayer.finish());
            }
        }
    }
    Ok(replayer.finish())
}

/// A walk replayed one move at a time, for walks read as a stream: a file of a billion moves
/// is replayed without holding it.
#[derive(Debug, Clone)]
pub struct Replayer {
    size: Size,
    black: Board,
    landings: Board,
    pos: (usize, usize),
    /// Moves given so far (counted on after the pawn has left the board).
    moves: usize,
    /// Set once a move took the pawn off the board: the walk ends there.
    left: Option<Outcome>,
}

impl Replayer {
    /// The pawn's first landing, on the bottom-left cell.
    pub fn new(size: Size) -> Replayer {
        Replayer::try_new(size).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Replayer::new`], or [`OutOfMemory`] when its two boards cannot be allocated.
    pub fn try_new(size: Size) -> Result<Replayer, OutOfMemory> {
        let mut black = Board::try_new(size)?;
        let mut landings = Board::try_new(size)?;
        let pos = start_cell(size);
        press_cell(&mut black, pos.1, pos.0);
        landings.flip(pos.1, pos.0);
        Ok(Replayer { size, black, landings, pos, moves: 0, left: None })
    }

    /// Plays `mv`: false once the walk has left the board (this move or an earlier one), after
    /// which moves are only counted.
    #[inline]
    pub fn play(&mut self, mv: Move) -> bool {
        self.moves += 1;
        if self.left.is_some() {
            return false;
        }
        let Some(next) = mv.step(self.size, self.pos) else {
            self.left = Some(Outcome::LeftBoard { step: self.moves, mv, row: self.pos.0, col: self.pos.1 });
            return false;
        };
        self.pos = next;
        press_cell(&mut self.black, next.1, next.0);
        self.landings.flip(next.1, next.0);
        true
    }

    /// Moves played (or counted) so far.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// How the walk ended.
    pub fn finish(self) -> Replay {
        let outcome = self.left.unwrap_or_else(|| {
            let white = self.size.cells() - self.black.count_ones() as usize;
            if white == 0 { Outcome::AllBlack } else { Outcome::White { count: white } }
        });
        Replay { landings: self.landings, black: self.black, pawn: self.pos, outcome }
    }
}

/// A walk from the bottom-left cell (its first landing included) whose cells landed on an odd
/// number of times are exactly `activation`; at most `2·L·C + L + 3·C` moves (module doc).
///
/// Fails for the empty set on the 1 x 1 board (the first landing cannot be undone), above
/// [`MAX_CELLS_PATH_TO_FILE`] cells (the path is held in memory, a byte per move), and with
/// [`WalkError::Interrupted`] once `control` is cancelled.
pub fn path_for(size: Size, activation: &Board, control: &Control) -> Result<Vec<Move>, WalkError> {
    check_board(size, activation)?;
    check_path_length(size)?;
    let need = check_path_memory(size)?;
    sweep(size, activation, control).map_err(|e| with_need(e, size, need))
}

/// The most moves a path takes on a board of `size`: `2·L·C + L + 3·C` (module doc).
pub fn max_moves(size: Size) -> usize {
    let (rows, cols) = (size.height(), size.width());
    2 * rows * cols + rows + 3 * cols
}

/// What the path of a board of `size` holds at once, in bytes: its moves (room for
/// [`max_moves`], a byte each, turned into its text in place), the board it is built from and
/// the two boards of its replay.
pub fn path_bytes(size: Size) -> u64 {
    max_moves(size) as u64 + 3 * size.bytes()
}

/// [`path_bytes`], refused when it cannot fit the address-space limit
/// ([`crate::util::check_fits`]).
pub fn check_path_memory(size: Size) -> Result<u64, WalkError> {
    let need = path_bytes(size);
    crate::util::check_fits(need).map_err(|source| out_of_memory(size, need, source))?;
    Ok(need)
}

fn out_of_memory(size: Size, need: u64, source: OutOfMemory) -> WalkError {
    WalkError::OutOfMemory { rows: size.height(), cols: size.width(), need, source }
}

/// `err` with what the path holds, when it is a refused allocation.
fn with_need(err: WalkError, size: Size, need: u64) -> WalkError {
    match err {
        WalkError::Lights(crate::lights::LightsError::Board(crate::board::BoardError::OutOfMemory(e))) => {
            out_of_memory(size, need, e)
        }
        e => e,
    }
}

/// The walk that turns the board all black by landing on the cells of `solution` (an
/// activation set that solves the board): [`path_for`], checked by replaying it before it is
/// returned.
pub fn solution_path(size: Size, solution: &Board, control: &Control) -> Result<Vec<Move>, WalkError> {
    let moves = path_for(size, solution, control)?;
    let replayer = Replayer::try_new(size).map_err(|e| out_of_memory(size, path_bytes(size), e))?;
    let replay = replay_on(replayer, &moves, control)?;
    if !(replay.all_black() && replay.landings == *solution) {
        return Err(WalkError::PathUnverified { rows: size.height(), cols: size.width() });
    }
    Ok(moves)
}

/// Refuses boards whose path would not fit in memory: more than [`MAX_CELLS_PATH_TO_FILE`]
/// cells (any [`Size`] is a valid board, up to Lights Out's limit).
fn check_path_length(size: Size) -> Result<(), WalkError> {
    if size.cells() > MAX_CELLS_PATH_TO_FILE {
        return Err(WalkError::TooLarge {
            rows: size.height(),
            cols: size.width(),
            max: MAX_CELLS_PATH_TO_FILE,
        });
    }
    Ok(())
}

/// A walk from `start`, whose landing is already counted (a game in progress), landing an odd
/// number of times exactly on the cells of `landings` (not counting the pawn's present cell
/// again). At most `2·L·C + 2·L + 4·C` moves; refused and stopped as [`path_for`] is.
pub fn path_from(
    size: Size,
    start: (usize, usize),
    landings: &Board,
    control: &Control,
) -> Result<Vec<Move>, WalkError> {
    check_board(size, landings)?;
    check_path_length(size)?;
    if start.0 >= size.height() || start.1 >= size.width() {
        return Err(WalkError::PawnOutside { row: start.0, col: start.1 });
    }
    // Straight to the bottom-left cell; the sweep's first landing is that route's last one
    // (or, if the pawn is already there, a landing that must not count: flip it back).
    let mut target = landings.clone();
    let mut moves = Vec::new();
    let mut pos = start;
    let bottom_left = start_cell(size);
    while pos != bottom_left {
        let mv = if pos.1 > 0 { Move::W } else { Move::S };
        pos = mv.step(size, pos).expect("the route stays on the board");
        target.flip(pos.1, pos.0);
        moves.push(mv);
    }
    target.flip(bottom_left.1, bottom_left.0);
    moves.extend(sweep(size, &target, control)?);
    Ok(moves)
}

/// The shortest of the module doc's constructions for `target` (first landing on the
/// bottom-left cell included): serpentine and two-row bands, each along the rows and along
/// the columns.
fn sweep(size: Size, target: &Board, control: &Control) -> Result<Vec<Move>, WalkError> {
    if size.cells() > TRY_ALL_CELLS {
        return bands(size, target, control);
    }
    let mut best: Option<Vec<Move>> = None;
    for moves in candidates(size, target, control)? {
        if best.as_ref().is_none_or(|b| moves.len() < b.len()) {
            best = Some(moves);
        }
    }
    Ok(best.expect("four candidates"))
}

/// Boards up to this many cells (2^18) try all four constructions and keep the shortest path;
/// larger ones use the row bands only (a dense solution gives about 2.5 moves per activated
/// cell either way, and this keeps a 2000 x 2000 path near 0.1 s).
pub const TRY_ALL_CELLS: usize = 1 << 18;

/// The four constructions (each one realises `target`).
fn candidates(size: Size, target: &Board, control: &Control) -> Result<[Vec<Move>; 4], WalkError> {
    let (swapped_size, swapped) = swap_axes(size, target);
    let back = |moves: Vec<Move>| moves.into_iter().map(swap_move).collect::<Vec<_>>();
    Ok([
        serpentine(size, target)?,
        bands(size, target, control)?,
        back(serpentine(swapped_size, &swapped)?),
        back(bands(swapped_size, &swapped, control)?),
    ])
}

/// The board mirrored in its diagonal through the bottom-left cell (x and y swapped, x to the
/// east and y to the north from that cell), which stays the start.
fn swap_axes(size: Size, g: &Board) -> (Size, Board) {
    let (rows, cols) = (size.height(), size.width());
    let mut out = Board::new(size.transposed());
    for r in 0..rows {
        for c in g.row_ones(r) {
            out.set(rows - 1 - r, cols - 1 - c, true);
        }
    }
    (size.transposed(), out)
}

/// A move of the mirrored board read on the original one: east and north swap, west and south.
fn swap_move(m: Move) -> Move {
    match m {
        Move::E => Move::N,
        Move::N => Move::E,
        Move::W => Move::S,
        Move::S => Move::W,
    }
}

/// The serpentine construction of the module doc, for `target` (first landing on the bottom-left
/// cell included).
fn serpentine(size: Size, target: &Board) -> Result<Vec<Move>, WalkError> {
    let (rows, cols) = (size.height(), size.width());
    // Serpentine band k is row `rows - 1 - k`, walked east when k is even, west when odd.
    let band_dir = |k: usize| if k.is_multiple_of(2) { Move::E } else { Move::W };
    // The last activated cell along the serpentine: in the highest non-empty band, the
    // set cell furthest along that band's direction.
    let last = (0..rows).rev().find_map(|k| {
        let row = target.row(rows - 1 - k);
        let first_set = row
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)?;
        let last_set = row
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + 63 - w.leading_zeros() as usize)?;
        Some(k * cols + if band_dir(k) == Move::E { last_set } else { cols - 1 - first_set })
    });
    let Some(last) = last else {
        // Nothing may stay landed, but the bottom-left cell already is: 0 → 1 → 0 → 1.
        if size.cells() == 1 {
            return Err(WalkError::NoWalk { rows, cols });
        }
        let f = if cols == 1 { Move::N } else { Move::E };
        return Ok(vec![f, f.opposite(), f]);
    };
    let mut moves = Vec::with_capacity(last + last / 2 + 4);
    let mut odd = true; // landing parity of the cell the pawn stands on
    let mut i = 0; // serpentine index of the pawn's cell
    let mut previous = Move::E; // the move that reached cell `i` (for the final fix)
    'bands: for k in 0..rows {
        let row = target.row(rows - 1 - k);
        let dir = band_dir(k);
        for j in 0..cols {
            if i == last {
                break 'bands;
            }
            let c = if dir == Move::E { j } else { cols - 1 - j };
            let wanted = (row[c / 64] >> (c % 64)) & 1 == 1;
            let f = if j + 1 == cols { Move::N } else { dir };
            // PERF: no per-move allocation; `moves` was sized for the typical case.
            if odd != wanted {
                moves.extend_from_slice(&[f, f.opposite(), f]);
                odd = false;
            } else {
                moves.push(f);
                odd = true;
            }
            previous = f;
            i += 1;
        }
    }
    if !odd {
        // `last >= 1` here: cell 0 always arrives odd and is left at once if it is the last.
        let b = previous.opposite();
        moves.extend_from_slice(&[b, previous, b]);
    }
    Ok(moves)
}

/// The two-row band construction of the module doc, for `target` (first landing on the
/// bottom-left cell included).
fn bands(size: Size, target: &Board, control: &Control) -> Result<Vec<Move>, WalkError> {
    let (rows, cols) = (size.height(), size.width());
    let Some(top_used) = (0..rows).find(|&r| target.row(r).iter().any(|&w| w != 0)) else {
        // Nothing may stay landed, but the bottom-left cell already is: 0 → 1 → 0 → 1.
        if size.cells() == 1 {
            return Err(WalkError::NoWalk { rows, cols });
        }
        let f = if cols == 1 { Move::N } else { Move::E };
        return Ok(vec![f, f.opposite(), f]);
    };
    let need = path_bytes(size);
    let mut t = target.try_clone().map_err(|e| out_of_memory(size, need, e))?;
    // Room for the longest path at once: it never grows (a doubling vector could ask for
    // twice the path), and a refusal is an error.
    let mut moves = try_with_capacity(max_moves(size)).map_err(|e| out_of_memory(size, need, e))?;
    let last_band = (rows - 1 - top_used) / 2;
    for band in 0..=last_band {
        let bottom = rows - 1 - 2 * band; // row index (0 = top) of the band's lower row
        let dir = if band.is_multiple_of(2) { Move::E } else { Move::W };
        let col_at = |k: usize| if dir == Move::E { k } else { cols - 1 - k };
        if bottom == 0 {
            // A single row left (odd height): the pawn stands on its first cell.
            row_sweep(&mut moves, &t, dir, cols, rows > 1);
            break;
        }
        let top = bottom - 1;
        let last_col = if band == last_band {
            (0..cols).rev().find(|&k| t.get(col_at(k), bottom) || t.get(col_at(k), top)).unwrap_or(0)
        } else {
            cols - 1
        };
        let mut on_bottom = true; // the pawn enters every band on its lower row
        for k in 0..=last_col {
            if k % POLL_EVERY == 0 && control.cancelled() {
                return Err(Interrupted.into());
            }
            let c = col_at(k);
            let (here, other) = if on_bottom { (bottom, top) } else { (top, bottom) };
            let (want_here, want_other) = (t.get(c, here), t.get(c, other));
            if k < last_col || band == last_band {
                let stays = column(&mut moves, on_bottom, want_here, want_other);
                on_bottom = on_bottom == stays;
                if k < last_col {
                    moves.push(dir);
                }
                continue;
            }
            // Last column of a band with more to do above: leave north from the upper row.
            // Which row a column is left from is forced by the parity of its pattern; when it
            // is the lower row, realise the pattern with the upper cell flipped (left from the
            // upper row) and land on that cell once more by a dip north and back, which also
            // lands once on the next band's first cell: flip that cell's target.
            let (want_top, want_bottom) =
                if on_bottom { (want_other, want_here) } else { (want_here, want_other) };
            let leaves_top = {
                let stays = (want_here as u8 + want_other as u8) % 2 == 1;
                on_bottom != stays
            };
            if leaves_top {
                let (h, o) = if on_bottom { (want_bottom, want_top) } else { (want_top, want_bottom) };
                column(&mut moves, on_bottom, h, o);
            } else {
                let (h, o) = if on_bottom { (want_bottom, !want_top) } else { (!want_top, want_bottom) };
                column(&mut moves, on_bottom, h, o);
                moves.extend_from_slice(&[Move::N, Move::S]);
                t.flip(c, top - 1);
            }
            moves.push(Move::N);
        }
    }
    Ok(moves)
}

/// Realises one column of a two-row band: the pawn has just landed on the cell `here` (the
/// lower one when `on_bottom`) and this column's cells must end with landing parities
/// `want_here` / `want_other`. Pushes the vertical moves (0 to 3) and returns whether the pawn
/// ends on the row it entered by; that row is forced by the pattern's parity.
fn column(moves: &mut Vec<Move>, on_bottom: bool, want_here: bool, want_other: bool) -> bool {
    let v = if on_bottom { Move::N } else { Move::S };
    match (want_here, want_other) {
        (true, false) => true,
        (false, true) => {
            moves.extend_from_slice(&[v, v.opposite()]);
            true
        }
        (true, true) => {
            moves.push(v);
            false
        }
        (false, false) => {
            moves.extend_from_slice(&[v, v.opposite(), v]);
            false
        }
    }
}

/// The single top row of an odd-height board (or the only row): the pawn stands on its first
/// cell in direction `dir`, landed once. Walk forward, fixing a wrong parity by forward-back-
/// forward, up to the row's last wanted cell. `below` says a row exists under this one.
fn row_sweep(moves: &mut Vec<Move>, t: &Board, dir: Move, cols: usize, below: bool) {
    let r = 0;
    let col_at = |k: usize| if dir == Move::E { k } else { cols - 1 - k };
    let Some(last) = (0..cols).rev().find(|&k| t.get(col_at(k), r)) else {
        // Only the entry cell is landed and it must not be: land on a neighbour, come back,
        // land on it again (the neighbour gets two landings).
        let f = if cols > 1 {
            dir
        } else if below {
            Move::S
        } else {
            unreachable!("1 x 1 handled by the caller")
        };
        moves.extend_from_slice(&[f, f.opposite(), f]);
        return;
    };
    let mut odd = true;
    for k in 0..last {
        if odd != t.get(col_at(k), r) {
            moves.extend_from_slice(&[dir, dir.opposite(), dir]);
            odd = false;
        } else {
            moves.push(dir);
            odd = true;
        }
    }
    if !odd {
        // `last >= 1` here: the entry cell arrives odd.
        moves.extend_from_slice(&[dir.opposite(), dir, dir.opposite()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::board_size;

    fn board(r: usize, c: usize) -> Size {
        board_size(r, c).unwrap()
    }

    #[test]
    fn a_cancelled_control_stops_the_path_and_its_replay() {
        // Above TRY_ALL_CELLS: the row bands, polled between columns.
        let size = board_size(520, 520).unwrap();
        let solution = crate::walk::fast::solve(size, &Control::new()).unwrap().particular;
        let cancelled = Control::new();
        cancelled.cancel();
        let stopped = Err(WalkError::Interrupted(Interrupted));
        assert_eq!(path_for(size, &solution, &cancelled), stopped);
        assert_eq!(solution_path(size, &solution, &cancelled), stopped);
        assert_eq!(path_from(size, (3, 5), &solution, &cancelled), stopped);
        let moves = path_for(size, &solution, &Control::new()).unwrap();
        assert_eq!(replay_with(size, &moves, &cancelled).err(), Some(Interrupted));
        assert!(replay_with(size, &moves, &Control::new()).unwrap().all_black());
    }

    #[test]
    fn a_solution_path_is_checked_by_replaying_it() {
        let size = board(4, 5);
        let solution = crate::walk::fast::solve(size, &crate::control::Control::new()).unwrap().particular;
        let moves = solution_path(size, &solution, &Control::new()).unwrap();
        assert!(replay(size, &moves).all_black());
        // Not a solution: its walk exists but leaves white cells, so it is refused.
        let mut one = Board::new(size);
        one.set(0, 0, true);
        assert!(!replay(size, &path_for(size, &one, &Control::new()).unwrap()).all_black());
        assert_eq!(
            solution_path(size, &one, &Control::new()),
            Err(WalkError::PathUnverified { rows: 4, cols: 5 })
        );
    }

    #[test]
    fn parse_accepts_o_and_rejects_other_letters() {
        assert_eq!(parse_moves("NOse w").unwrap(), vec![Move::N, Move::W, Move::S, Move::E, Move::W]);
        assert_eq!(parse_moves("NEX").unwrap_err(), WalkError::BadMove { letter: 'X', position: 3 });
        assert_eq!(moves_to_string(&parse_moves("EEENNOOOS").unwrap()), "EEENNWWWS");
    }

    #[test]
    fn replay_reports_each_outcome() {
        assert!(replay(board(2, 2), &parse_moves("NES").unwrap()).all_black());
        assert_eq!(replay(board(2, 2), &parse_moves("NE").unwrap()).outcome, Outcome::White { count: 3 });
        assert_eq!(
            replay(board(2, 2), &parse_moves("NN").unwrap()).outcome,
            Outcome::LeftBoard { step: 2, mv: Move::N, row: 0, col: 0 }
        );
        assert_eq!(replay(board(1, 1), &[]).outcome, Outcome::AllBlack);
    }

    /// Every activation set of every board up to 15 cells (up to 7 rows, so up to three
    /// bands and a single top row): the path realises it exactly, within the bound.
    #[test]
    fn every_set_of_small_boards_is_realised() {
        for rows in 1..=7 {
            for cols in (1..=7).filter(|c| rows * c <= 15) {
                let b = board(rows, cols);
                for bits in 0u32..(1 << b.cells()) {
                    let mut a = Board::new(b);
                    for i in (0..b.cells()).filter(|i| (bits >> i) & 1 == 1) {
                        a.set(i % cols, i / cols, true);
                    }
                    match candidates(b, &a, &Control::new()) {
                        Ok(all) => {
                            for (i, moves) in all.iter().enumerate() {
                                assert_eq!(
                                    replay(b, moves).landings,
                                    a,
                                    "{rows} x {cols} set {bits:b}, construction {i}"
                                );
                            }
                            let moves = path_for(b, &a, &Control::new()).unwrap();
                            assert_eq!(replay(b, &moves).landings, a, "{rows} x {cols} set {bits:b}");
                            assert!(
                                moves.len() <= 2 * b.cells() + rows + 3 * cols,
                                "{rows} x {cols}: {} moves",
                                moves.len()
                            );
                        }
                        Err(e) => assert!(b.cells() == 1 && bits == 0, "{e}"),
                    }
                }
            }
        }
    }

    #[test]
    fn path_from_any_start_realises_the_set() {
        let b = board(3, 4);
        for start_r in 0..3 {
            for start_c in 0..4 {
                for bits in [0u32, 1, 0b1010_0110_1001, 0xfff, 0b1000_0000_0000] {
                    let mut a = Board::new(b);
                    for i in (0..12).filter(|i| (bits >> i) & 1 == 1) {
                        a.set(i % 4, i / 4, true);
                    }
                    let moves = path_from(b, (start_r, start_c), &a, &Control::new()).unwrap();
                    // Replay from the start cell without counting it.
                    let mut pos = (start_r, start_c);
                    let mut got = Board::new(b);
                    for mv in moves {
                        pos = mv.step(b, pos).expect("stays on the board");
                        got.flip(pos.1, pos.0);
                    }
                    assert_eq!(got, a, "start ({start_r}, {start_c}), set {bits:b}");
                }
            }
        }
        assert!(path_from(b, (3, 0), &Board::new(b), &Control::new()).is_err());
    }
}
