//! `damier play`: Lights Out and the pawn walk as terminal games (mouse and keyboard).

use std::process::ExitCode;

use clap::Subcommand;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::tui;

/// Subcommands of `damier play`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The pawn walk: make every cell black by walking the pawn (random size by default).
    Walk(WalkArgs),
}

/// Arguments of `damier play walk`.
#[derive(Debug, clap::Args)]
pub struct WalkArgs {
    /// Rows (the seed's height L); with COLS. Random (2..=8) when absent.
    #[arg(requires = "cols")]
    rows: Option<usize>,
    /// Columns (the seed's width C).
    cols: Option<usize>,
    /// Seed for the random size.
    #[arg(long)]
    seed: Option<u64>,
}

/// Largest side a terminal game accepts: beyond it the board cannot be drawn.
const MAX_SIDE: usize = 60;

pub fn run(cmd: Command) -> anyhow::Result<ExitCode> {
    match cmd {
        Command::Walk(a) => walk(a),
    }
}

fn walk(a: WalkArgs) -> anyhow::Result<ExitCode> {
    let seed = a.seed.unwrap_or_else(rand::random);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (rows, cols) = match (a.rows, a.cols) {
        (Some(r), Some(c)) => (r, c),
        _ => (rng.random_range(2..=8), rng.random_range(2..=8)),
    };
    anyhow::ensure!(
        (1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols),
        "board {rows} x {cols} cannot be played here: each side must be in 1..={MAX_SIDE}"
    );
    let board = damier::walk::Board::new(rows, cols)?;
    tui::require_terminal("play walk")?;
    let mut game = tui::walk::WalkGame::new(board);
    tui::run(&mut game, "play walk")?;
    let s = game.state();
    let outcome = if s.is_solved() { "solved" } else { "not solved" };
    println!("walk {rows} x {cols} (seed {seed}): {outcome} after {} moves", s.moves());
    Ok(ExitCode::SUCCESS)
}
