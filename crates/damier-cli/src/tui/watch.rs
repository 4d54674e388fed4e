//! The automaton's live view: queens, the signals of every cell, steps per second. Model 3
//! shows its extra state: conflict counts (an arrow, bold red for 2 or more), the two waves
//! (the digits left and right of the cell: the least danger seen on that side of the row),
//! each cell's danger in the counts view, and walking queens in magenta. Boards too large for
//! one cell per character (from n = [`BLOCKS_N`]) start in the blocks view: two characters per
//! square block of cells, shaded by the block's density of queens and coloured by the share of
//! them that are in conflict, with the step counter and the conflicts left beside.
//!
//! Runs the library's [`Automaton`] itself, so a seed gives the trajectory of
//! `damier automaton run` with the same seed, step for step.

use std::time::{Duration, Instant};

use damier::automaton::row::{FAR, LINE_DIRS};
use damier::automaton::{Automaton, dir};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::pace::Pace;
use super::{App, Flow};

/// Arrow drawn for each signal direction, in the order of [`dir::DIRECTIONS`].
const ARROWS: [char; 8] = ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'];

/// Width of the status panel beside the board.
const PANEL: u16 = 30;

/// Smallest side shown in the blocks view when the watch starts.
pub const BLOCKS_N: u32 = 64;

/// Shades of a block, by its density of queens (none, then quarters of the block's side).
const SHADES: [&str; 5] = ["··", "░░", "▒▒", "▓▓", "██"];

/// How cells are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellView {
    /// 3 x 3 characters: the queen in the middle, an arrow for each signal around it.
    Arrows,
    /// 2 characters: the queen, or the number of signals in colour.
    Counts,
    /// 2 characters per square block of cells, as many cells a block as the board needs to
    /// fit the terminal: shaded by the block's density of queens, green when none of them is
    /// in conflict, yellow when some are, red when half or more are.
    Blocks,
}

/// Side of the square blocks that fit an `n` x `n` board into `cols` x `rows` blocks.
fn block_side(n: usize, cols: u16, rows: u16) -> usize {
    n.div_ceil(usize::from(cols.min(rows)).max(1)).max(1)
}

/// The live view's state.
pub struct Watch {
    automaton: Automaton,
    pace: Pace,
    view: CellView,
    /// First step at which the queens formed a solution.
    solved_at: Option<u64>,
}

impl Watch {
    /// A view of `automaton`, paused or running at `speed` updates per second (rounded to
    /// the nearest offered speed).
    pub fn new(automaton: Automaton, speed: u64, paused: bool) -> Watch {
        let view = match automaton.n() {
            ..=12 => CellView::Arrows,
            n if n < BLOCKS_N => CellView::Counts,
            _ => CellView::Blocks,
        };
        let solved_at = automaton.is_solution().then(|| automaton.steps());
        Watch { automaton, pace: Pace::new(speed, paused), view, solved_at }
    }

    /// The automaton being shown.
    pub fn automaton(&self) -> &Automaton {
        &self.automaton
    }

    /// Step of the first solution seen, if any.
    pub fn solved_at(&self) -> Option<u64> {
        self.solved_at
    }

    /// Performs `k` updates, noting the first solution; pauses there so it can be seen.
    pub fn advance(&mut self, k: u64) {
        if advance_to_solution(&mut self.automaton, &mut self.solved_at, k) {
            self.pace.paused = true;
        }
    }

    fn cell_size(&self) -> (u16, u16) {
        match self.view {
            CellView::Arrows => (4, 3),
            CellView::Counts | CellView::Blocks => (2, 1),
        }
    }

    /// Width and height of the board's inside in the blocks view, in blocks, for a screen
    /// `area`.
    fn blocks_fit(area: Rect) -> (u16, u16) {
        (area.width.saturating_sub(PANEL + 2) / 2, area.height.saturating_sub(2))
    }

    /// The blocks view: `cols` x `rows` blocks at most.
    fn block_lines(&self, cols: u16, rows: u16) -> Vec<Line<'static>> {
        let n = self.automaton.n() as usize;
        let side = block_side(n, cols, rows);
        let blocks = n.div_ceil(side);
        let density = self.automaton.block_density(side);
        density
            .chunks(blocks)
            .map(|row| {
                Line::from(
                    row.iter()
                        .map(|&(q, c)| {
                            let shade = SHADES[(q as usize * 4).div_ceil(side).min(4)];
                            let colour = match (q, c) {
                                (0, _) => Color::DarkGray,
                                (_, 0) => Color::Green,
                                (q, c) if 2 * c < q => Color::Yellow,
                                _ => Color::Red,
                            };
                            Span::styled(shade, Style::default().fg(colour))
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .collect()
    }

    fn board_lines(&self) -> Vec<Line<'static>> {
        let a = &self.automaton;
        let n = a.n() as usize;
        let queen = Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD);
        let crowd = Style::default().fg(Color::Red).add_modifier(Modifier::BOLD);
        let empty = Style::default().fg(Color::DarkGray);
        let walker = Style::default().fg(Color::Magenta).add_modifier(Modifier::BOLD);
        let row = a.model3();
        let queen_span = |k: u32, x: usize, y: usize| match k {
            0 => Span::styled("·", empty),
            1 if row.is_some_and(|b| b.walking(x, y)) => Span::styled("♛", walker),
            1 => Span::styled("♛", queen),
            2..=9 => Span::styled(k.to_string(), crowd),
            _ => Span::styled("+", crowd),
        };
        // Model 3: the glyph of direction `d` around (x, y): a wave digit on the row's sides,
        // else an arrow whose style says the count.
        let model3_glyph = |x: usize, y: usize, d: usize| -> Span<'static> {
            let b = row.expect("model 3");
            if let Some(k) = LINE_DIRS.iter().position(|&l| l == d) {
                return match b.count(k, x, y) {
                    0 => Span::raw(" "),
                    1 => Span::styled(ARROWS[d].to_string(), signal_style(1)),
                    _ => Span::styled(ARROWS[d].to_string(), crowd),
                };
            }
            let (west, east) = b.waves(x, y);
            let v = if dir::DIRECTIONS[d].0 < 0 { west } else { east };
            if v >= FAR { Span::raw(" ") } else { Span::styled(v.to_string(), signal_style(u32::from(v))) }
        };
        let mut lines = Vec::new();
        match self.view {
            CellView::Arrows => {
                let at = dir::DIRECTIONS.map(|(dx, dy)| ((dx + 1) as usize, (dy + 1) as usize));
                for y in 0..n {
                    for r in 0..3 {
                        let mut spans = Vec::new();
                        for x in 0..n {
                            let sig = a.signals(x, y);
                            for c in 0..3 {
                                if (c, r) == (1, 1) {
                                    spans.push(queen_span(a.count(x, y), x, y));
                                } else {
                                    let d = at.iter().position(|&p| p == (c, r)).expect("8 border cells");
                                    if row.is_some() {
                                        spans.push(model3_glyph(x, y, d));
                                    } else if sig >> d & 1 == 1 {
                                        spans.push(Span::styled(ARROWS[d].to_string(), signal_style(1)));
                                    } else {
                                        spans.push(Span::raw(" "));
                                    }
                                }
                            }
                            spans.push(Span::raw(" "));
                        }
                        lines.push(Line::from(spans));
                    }
                }
            }
            CellView::Blocks => unreachable!("drawn by block_lines"),
            CellView::Counts => {
                for y in 0..n {
                    let mut spans = Vec::new();
                    for x in 0..n {
                        let k = a.count(x, y);
                        if k > 0 {
                            spans.push(queen_span(k, x, y));
                        } else {
                            // Model 3: the cell's danger (sum of its counts), else its signals.
                            let s = match row {
                                Some(b) => (0..LINE_DIRS.len()).map(|k| u32::from(b.count(k, x, y))).sum(),
                                None => a.signals(x, y).count_ones(),
                            };
                            spans.push(Span::styled(s.to_string(), signal_style(s)));
                        }
                        spans.push(Span::raw(" "));
                    }
                    lines.push(Line::from(spans));
                }
            }
        }
        lines
    }

    /// The panel; `fit`: the blocks the board may hold ([`Watch::blocks_fit`]).
    fn status_lines(&self, fit: (u16, u16)) -> Vec<Line<'static>> {
        let a = &self.automaton;
        let p = a.params();
        let state = match (self.solved_at, self.pace.paused) {
            (Some(s), _) if a.is_solution() => format!("SOLVED at step {s}"),
            (Some(s), _) => format!("was solved at step {s}"),
            (None, true) => "paused".to_string(),
            (None, false) => "running".to_string(),
        };
        let mut lines = vec![
            Line::styled(
                format!("model {}  n = {}", p.model, a.n()),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Line::from(format!(
                "eps = {}{}",
                damier::util::given(p.eps),
                p.used_eta().map(|e| format!("  eta = {}", damier::util::given(e))).unwrap_or_default()
            )),
            Line::from(format!("seed {}", a.seed())),
            Line::from(""),
            Line::from(format!("steps {}", a.steps())),
            Line::from(format!("moves {}", a.moves())),
            Line::from(format!("conflicts left {}", a.conflicts())),
            Line::from(format!("speed {}/s", self.pace.per_second())),
            Line::from(format!("rate  {}/s", crate::util::number(self.pace.rate))),
            Line::from(""),
            Line::styled(
                state,
                Style::default().fg(if self.solved_at.is_some() { Color::Green } else { Color::White }),
            ),
        ];
        if a.is_solution() && a.is_absorbing() {
            lines.push(Line::from("absorbing: nothing can move"));
        }
        if self.view == CellView::Blocks {
            let side = block_side(a.n() as usize, fit.0, fit.1);
            lines.extend(
                [
                    String::new(),
                    format!("blocks of {side} x {side} cells"),
                    "shade: queens in the block".to_string(),
                    "green: no conflict".to_string(),
                    "yellow / red: some / half".to_string(),
                ]
                .map(|s| Line::styled(s, Style::default().fg(Color::Gray))),
            );
        } else if a.model3().is_some() {
            lines.extend(
                ["", "arrows: counts (red: 2+)", "side digits: waves", "numbers: danger", "magenta: walking"]
                    .map(|s| Line::styled(s, Style::default().fg(Color::Gray))),
            );
        }
        lines.extend(
            ["", "space pause/run", "+ / -  speed", ".  one step", "v  arrows/counts/blocks", "q  quit"]
                .map(|s| Line::styled(s, Style::default().fg(Color::Gray))),
        );
        lines
    }
}

/// Performs up to `k` updates; true (stop there) at the first solution, noted in `solved_at`.
fn advance_to_solution(automaton: &mut Automaton, solved_at: &mut Option<u64>, k: u64) -> bool {
    for _ in 0..k {
        automaton.step();
        if solved_at.is_none() && automaton.is_solution() {
            *solved_at = Some(automaton.steps());
            return true;
        }
    }
    false
}

/// Colour of a signal, by how many signals the cell holds.
fn signal_style(count: u32) -> Style {
    let c = match count {
        0 => Color::DarkGray,
        1 | 2 => Color::Cyan,
        3 | 4 => Color::Blue,
        _ => Color::Magenta,
    };
    Style::default().fg(c)
}

impl App for Watch {
    fn min_size(&self) -> (u16, u16) {
        if self.view == CellView::Blocks {
            return (2 + 2 * 8 + PANEL, 24);
        }
        let (cw, ch) = self.cell_size();
        let n = self.automaton.n() as u16;
        (n.saturating_mul(cw).saturating_add(2 + PANEL), n.saturating_mul(ch).max(18).saturating_add(2))
    }

    fn draw(&self, frame: &mut Frame, area: Rect) {
        let (cw, _) = self.cell_size();
        let (cols, rows) = Watch::blocks_fit(area);
        let n = self.automaton.n() as usize;
        let board_w = match self.view {
            CellView::Blocks => {
                (n.div_ceil(block_side(n, cols, rows)) as u16).saturating_mul(2).saturating_add(2)
            }
            _ => (n as u16).saturating_mul(cw).saturating_add(2),
        };
        let [board, panel, _] =
            Layout::horizontal([Constraint::Length(board_w), Constraint::Length(PANEL), Constraint::Min(0)])
                .areas(area);
        let lines = match self.view {
            CellView::Blocks => self.block_lines(cols, rows),
            _ => self.board_lines(),
        };
        frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" queens ")), board);
        frame.render_widget(
            Paragraph::new(self.status_lines((cols, rows))).block(Block::bordered().title(" automaton ")),
            panel,
        );
    }

    fn on_key(&mut self, key: KeyEvent) -> Flow {
        if self.pace.on_key(key.code) {
            return Flow::Continue;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => return Flow::Quit,
            KeyCode::Char('.') => {
                self.pace.paused = true;
                self.advance(1);
            }
            KeyCode::Char('v') => {
                self.view = match self.view {
                    CellView::Arrows => CellView::Counts,
                    CellView::Counts => CellView::Blocks,
                    CellView::Blocks => CellView::Arrows,
                }
            }
            _ => {}
        }
        Flow::Continue
    }

    fn tick(&mut self, now: Instant) -> Duration {
        let (automaton, solved_at) = (&mut self.automaton, &mut self.solved_at);
        self.pace.tick(now, |k| advance_to_solution(automaton, solved_at, k))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{key, screen};
    use super::*;
    use damier::automaton::{Model, Params};

    fn watch(model: Model, n: u32, seed: u64) -> Watch {
        let params = Params::new(model, n).unwrap();
        Watch::new(Automaton::from_seed(&params, seed).unwrap(), 1000, true)
    }

    #[test]
    fn single_steps_follow_the_engine_trajectory() {
        let params = Params::new(Model::Pair, 6).unwrap();
        let mut engine = Automaton::from_seed(&params, 7).unwrap();
        let mut w = watch(Model::Pair, 6, 7);
        for _ in 0..500 {
            w.on_key(key(KeyCode::Char('.')));
            engine.step();
            if w.solved_at().is_some() {
                break;
            }
        }
        assert_eq!(w.automaton().steps(), engine.steps());
        assert_eq!(w.automaton().counts(), engine.counts());
    }

    #[test]
    fn first_solution_is_the_engines_and_pauses() {
        let params = Params::new(Model::Pair, 5).unwrap();
        let mut engine = Automaton::from_seed(&params, 3).unwrap();
        assert!((0..100).any(|_| engine.run_steps(1_000_000)), "n = 5 solves quickly");
        let mut w = watch(Model::Pair, 5, 3);
        w.pace.paused = false;
        while w.solved_at().is_none() {
            w.advance(10_000);
        }
        assert_eq!(w.solved_at(), Some(engine.steps()));
        assert!(w.pace.paused);
        assert!(screen(&w, 80, 24).contains("SOLVED at step"));
    }

    #[test]
    fn keys_change_speed_view_and_quit() {
        let mut w = watch(Model::Cell, 4, 1);
        let s0 = w.pace.speed;
        w.on_key(key(KeyCode::Char('+')));
        assert_eq!(w.pace.speed, s0 + 1);
        w.on_key(key(KeyCode::Char('-')));
        w.on_key(key(KeyCode::Char('-')));
        assert_eq!(w.pace.speed, s0 - 1);
        assert_eq!(w.view, CellView::Arrows);
        w.on_key(key(KeyCode::Char('v')));
        assert_eq!(w.view, CellView::Counts);
        assert_eq!(w.on_key(key(KeyCode::Char('q'))), Flow::Quit);
    }

    #[test]
    fn small_terminal_gets_a_message() {
        let w = watch(Model::Pair, 8, 1);
        assert!(screen(&w, 30, 10).contains("Terminal too small"));
    }

    /// Issue 40 §3: a board of 1 000 starts in the blocks view and fits an 80 x 30 terminal,
    /// with the step counter and the conflicts left.
    #[test]
    fn large_boards_are_drawn_in_blocks_with_steps_and_conflicts() {
        let mut w = watch(Model::Row, 1000, 1);
        assert_eq!(w.view, CellView::Blocks);
        let s = screen(&w, 80, 30);
        assert!(!s.contains("Terminal too small"), "{s}");
        assert!(s.contains("blocks of 42 x 42 cells"), "{s}");
        assert!(s.contains(&format!("conflicts left {}", w.automaton().conflicts())), "{s}");
        w.advance(3);
        let s = screen(&w, 80, 30);
        assert!(s.contains("steps 3"), "{s}");
        assert!(s.contains(&format!("conflicts left {}", w.automaton().conflicts())), "{s}");
        assert!(s.contains('░') || s.contains('▒'), "{s}");
    }

    #[test]
    fn renders_board_and_panel() {
        let mut w = watch(Model::Pair, 4, 11);
        w.advance(50);
        insta::assert_snapshot!(screen(&w, 60, 20));
    }
}
