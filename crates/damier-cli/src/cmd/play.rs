//! `damier play`: Lights Out and the pawn walk as terminal games (mouse and keyboard).

use std::process::ExitCode;

use clap::Subcommand;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::tui;
use crate::util::output::outln;

/// Subcommands of `damier play`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lights Out: turn every light off by pressing cells (a random winnable 5x5 by default).
    Lights(LightsArgs),
    /// The pawn walk: make every cell black by walking the pawn (random size by default).
    Walk(WalkArgs),
}

/// Arguments of `damier play lights`.
#[derive(Debug, clap::Args)]
pub struct LightsArgs {
    /// Board size as WxH (width x height).
    #[arg(default_value = "5x5", conflicts_with = "from")]
    size: String,
    /// Seed for the random boards (the start and those drawn by `r`).
    #[arg(long)]
    seed: Option<u64>,
    /// Start from a board file (rows of 0/1 or ./#, or a PBM bitmap; not stdin: the game reads
    /// the keyboard).
    #[arg(long)]
    from: Option<std::path::PathBuf>,
}

/// Arguments of `damier play walk`.
#[derive(Debug, clap::Args)]
pub struct WalkArgs {
    /// Rows (the blog post's height L); with COLS. Random (2 to 8) when absent.
    #[arg(requires = "cols")]
    rows: Option<usize>,
    /// Columns (the blog post's width C).
    cols: Option<usize>,
    /// Seed for the random size.
    #[arg(long)]
    seed: Option<u64>,
}

/// Largest side a terminal game accepts: beyond it the board cannot be drawn.
const MAX_SIDE: usize = 60;

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Lights(a) => lights(a),
        Command::Walk(a) => walk(a),
    }
}

fn lights(a: LightsArgs) -> anyhow::Result<ExitCode> {
    let seed = crate::util::pick_seed(a.seed);
    let playable = |w: usize, h: usize| {
        anyhow::ensure!(
            (1..=MAX_SIDE).contains(&w) && (1..=MAX_SIDE).contains(&h),
            "board {w}x{h} cannot be played here: each side must be 1 to {MAX_SIDE}"
        );
        Ok(())
    };
    let start = match &a.from {
        Some(path) => {
            anyhow::ensure!(
                path.as_os_str() != "-",
                "a game reads the keyboard: give --from a file, not stdin"
            );
            let board = crate::util::board_io::read(path)?;
            playable(board.width(), board.height())?;
            board
        }
        None => {
            let size: damier::board::Size = a.size.parse()?;
            playable(size.width(), size.height())?;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            tui::lights::LightsGame::random_board(size, &mut rng)
        }
    };
    let (w, h) = (start.width(), start.height());
    anyhow::ensure!(
        w <= MAX_SIDE && h <= MAX_SIDE,
        "board {w}x{h} cannot be played here: each side must be at most {MAX_SIDE}"
    );
    tui::require_terminal("play lights")?;
    let mut game = tui::lights::LightsGame::new(start, seed)?;
    tui::run(&mut game, "play lights")?;
    let outcome = if game.won() { "won" } else { "not won" };
    outln!(
        "lights {w}x{h} (seed {seed}): {outcome} after {}",
        crate::util::plural(game.press_count() as u64, "press")
    )?;
    Ok(ExitCode::SUCCESS)
}

fn walk(a: WalkArgs) -> anyhow::Result<ExitCode> {
    let seed = crate::util::pick_seed(a.seed);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (rows, cols) = match (a.rows, a.cols) {
        (Some(r), Some(c)) => (r, c),
        _ => (rng.random_range(2..=8), rng.random_range(2..=8)),
    };
    anyhow::ensure!(
        (1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols),
        "board {rows} x {cols} cannot be played here: each side must be 1 to {MAX_SIDE}"
    );
    let board = damier::walk::board_size(rows, cols)?;
    tui::require_terminal("play walk")?;
    let mut game = tui::walk::WalkGame::new(board);
    tui::run(&mut game, "play walk")?;
    let s = game.state();
    let outcome = if s.is_solved() { "solved" } else { "not solved" };
    outln!(
        "walk {rows} x {cols} (seed {seed}): {outcome} after {}",
        crate::util::plural(s.moves() as u64, "move")
    )?;
    Ok(ExitCode::SUCCESS)
}
