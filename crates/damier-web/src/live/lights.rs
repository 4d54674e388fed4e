//! Huge Lights Out boards (`/big`): `POST /api/live/lights/solve` with a start (`all_on`, a
//! random winnable board from a seed, or an uploaded PBM file, base64) answers the start and
//! one press pattern as raw PBM files (base64), written by the library's PBM writer, which the
//! page draws on a canvas and offers for download as they are.
//!
//! Bounds: sides up to [`BOARD_MAX_SIDE`] (without `--allow-heavy`); the upload is
//! within the request body's bound; the solve runs on a blocking thread under the server's
//! time limit, cancelled through the library's `Control` when the limit passes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use damier::board::pbm::PbmKind;
use damier::board::{Board, Size};
use damier::control::Control;
use damier::lights::game::LightsState;
use damier::lights::{self, Method};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use super::BOARD_MAX_SIDE;
use super::Refusal;

/// Where the board comes from.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// Every light on.
    AllOn,
    /// The lights left by random presses on a dark board (winnable), from `seed`.
    Random,
    /// The uploaded `pbm` file.
    Pbm,
}

/// A solve request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveBig {
    /// Where the start comes from.
    pub start: Start,
    /// Board size `WxH` (for `all_on` and `random`).
    #[serde(default)]
    pub size: Option<String>,
    /// Seed of `random` [default: random below 2^53, answered].
    #[serde(default)]
    pub seed: Option<u64>,
    /// A PBM file (P1 or P4), base64, for `pbm`.
    #[serde(default)]
    pub pbm: Option<String>,
}

/// The answer: both boards as raw PBM files (base64) and what the page prints.
#[derive(Debug, Serialize)]
pub struct BigAnswer {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The seed of a random start.
    pub seed: Option<u64>,
    /// Lights on at the start.
    pub lights: u64,
    /// Nullity of the press matrix: `2^nullity` solutions when there is one.
    pub nullity: usize,
    /// Whether the board can be switched off.
    pub solvable: bool,
    /// Presses of the pattern found.
    pub presses: u64,
    /// The start, a raw PBM file (lit cells black), base64.
    pub board_pbm: String,
    /// The press pattern, a raw PBM file, base64 (`null` when unsolvable).
    pub presses_pbm: Option<String>,
    /// Solve and check time.
    pub seconds: f64,
}

/// The start board of `req`, within the bounds.
pub fn start_board(req: &SolveBig, allow_heavy: bool) -> Result<(Board, Option<u64>), Refusal> {
    let sized = |req: &SolveBig| -> Result<Size, Refusal> {
        let text =
            req.size.as_deref().ok_or_else(|| Refusal::input("size (WxH) is needed for this start"))?;
        text.parse::<Size>().map_err(|e| Refusal::Input(format!("size: {e}")))
    };
    let side = BOARD_MAX_SIDE as usize;
    let beyond = |width: usize, height: usize| {
        Refusal::Bound(format!(
            "a {width}x{height} board has sides above {side}, this server's bound (start the server with --allow-heavy for more)"
        ))
    };
    // A size is checked before the board is made (a board of 131072 x 131072 is 2 GiB).
    let bounded = |size: Size| {
        if !allow_heavy && (size.width() > side || size.height() > side) {
            return Err(beyond(size.width(), size.height()));
        }
        Ok(size)
    };
    let (board, seed) = match req.start {
        Start::AllOn => (Board::ones(bounded(sized(req)?)?), None),
        Start::Random => {
            let size = bounded(sized(req)?)?;
            let seed = super::page_seed(req.seed);
            let board = LightsState::random_winnable(size, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
            (board, Some(seed))
        }
        // The reader grows the board as its rows arrive: an upload (at most the body's bound)
        // allocates at most its own size whatever its header announces.
        Start::Pbm => {
            let text = req
                .pbm
                .as_deref()
                .ok_or_else(|| Refusal::input("pbm (a PBM file, base64) is needed for this start"))?;
            let bytes =
                BASE64.decode(text.trim()).map_err(|e| Refusal::Input(format!("pbm: not base64: {e}")))?;
            let board = Board::read_pbm(bytes.as_slice()).map_err(|e| Refusal::Input(format!("pbm: {e}")))?;
            (board, None)
        }
    };
    if !allow_heavy && (board.width() > side || board.height() > side) {
        return Err(beyond(board.width(), board.height()));
    }
    Ok((board, seed))
}

fn pbm_base64(b: &Board) -> String {
    let mut bytes = Vec::with_capacity(b.width().div_ceil(8) * b.height() + 64);
    b.write_pbm(&mut bytes, PbmKind::Raw).expect("writing to memory does not fail");
    BASE64.encode(bytes)
}

/// Solves `board` (checked by the library before it answers); stops with an error when
/// `control` is cancelled (the time limit).
pub fn solve(board: &Board, seed: Option<u64>, control: &Control) -> Result<BigAnswer, String> {
    let start = std::time::Instant::now();
    solve_timed(board, seed, control, &|| start.elapsed().as_secs_f64())
}

/// [`solve`] timed by `clock` (seconds, monotonic): the browser's, where std has no clock.
pub fn solve_timed(
    board: &Board,
    seed: Option<u64>,
    control: &Control,
    clock: &dyn Fn() -> f64,
) -> Result<BigAnswer, String> {
    let start = clock();
    let solution = lights::solve(board, None, Method::Poly, control).map_err(|e| e.to_string())?;
    let seconds = clock() - start;
    Ok(BigAnswer {
        width: board.width(),
        height: board.height(),
        seed,
        lights: board.count_ones(),
        nullity: solution.nullity,
        solvable: solution.solvable(),
        presses: solution.presses.as_ref().map_or(0, Board::count_ones),
        board_pbm: pbm_base64(board),
        presses_pbm: solution.presses.as_ref().map(pbm_base64),
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(b64: &str) -> Board {
        Board::read_pbm(BASE64.decode(b64).unwrap().as_slice()).unwrap()
    }

    #[test]
    fn the_press_pattern_switches_the_board_off_and_bounds_hold() {
        let req = SolveBig { start: Start::Random, size: Some("300x200".into()), seed: Some(4), pbm: None };
        let (board, seed) = start_board(&req, false).unwrap();
        let a = solve(&board, seed, &Control::new()).unwrap();
        assert!(a.solvable && (a.width, a.height, a.seed) == (300, 200, Some(4)));
        let (start, presses) = (decode(&a.board_pbm), decode(a.presses_pbm.as_deref().unwrap()));
        assert_eq!(start, board);
        assert!(lights::apply_presses(&start, &presses).is_zero(), "an independent replay");
        assert_eq!(presses.count_ones(), a.presses);
        // The upload path reads what the download wrote.
        let up = SolveBig { start: Start::Pbm, size: None, seed: None, pbm: Some(a.board_pbm.clone()) };
        assert_eq!(start_board(&up, false).unwrap().0, board);
        // An unwinnable board: on 4 x 4 (nullity 4) the single lights span every board, so
        // some single light is not winnable.
        let unwinnable = (0..16).find_map(|k| {
            let mut one = Board::new("4x4".parse().unwrap());
            one.set(k % 4, k / 4, true);
            let a = solve(&one, None, &Control::new()).unwrap();
            (!a.solvable).then_some(a)
        });
        let a = unwinnable.expect("an unwinnable single light");
        assert!(a.nullity == 4 && a.presses_pbm.is_none() && a.presses == 0);
        // Beyond the bound, bad files, missing fields.
        for bad in [
            SolveBig { start: Start::AllOn, size: None, seed: None, pbm: None },
            SolveBig { start: Start::Pbm, size: None, seed: None, pbm: Some("!!".into()) },
            SolveBig { start: Start::Pbm, size: None, seed: None, pbm: Some(BASE64.encode("P4 3000 1\n")) },
        ] {
            assert!(start_board(&bad, false).is_err(), "{bad:?}");
        }
        let big = SolveBig { start: Start::AllOn, size: Some("2001x3".into()), seed: None, pbm: None };
        assert!(matches!(start_board(&big, false), Err(Refusal::Bound(_))));
        assert!(start_board(&big, true).is_ok());
    }
}
