//! Lights Out as a terminal game: click cells (or move with the arrows and press space) until
//! every light is off.
//!
//! All rules come from the library: [`lights::press`] flips a cell and its neighbours, and
//! hints are cells of a fewest-presses solution from the current board.

use std::cell::Cell;

use damier::board::Board;
use damier::control::Control;
use damier::lights::{self, Method};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::{App, Flow};

/// Width of the side panel.
const PANEL: u16 = 34;

/// The game's state.
pub struct LightsGame {
    board: Board,
    /// Cells pressed so far, for undo (pressing again undoes a press).
    presses: Vec<(usize, usize)>,
    cursor: (usize, usize),
    /// Nullity of the press matrix: `2^k` ways to win from any winnable board.
    nullity: usize,
    /// Neutral configurations, for the fewest-presses solution.
    kernel: Vec<Board>,
    /// A fewest-presses solution from the current board, computed on demand.
    solution: Option<Board>,
    /// Show the whole solution over the board.
    show_solution: bool,
    /// The hinted cell.
    hint: Option<(usize, usize)>,
    message: String,
    rng: Xoshiro256PlusPlus,
    /// Board position and cell size of the last drawing, for mouse clicks.
    layout: Cell<(u16, u16, u16, u16)>,
}

impl LightsGame {
    /// A game on `start`; `seed` drives the boards drawn by `r`.
    pub fn new(start: Board, seed: u64) -> anyhow::Result<LightsGame> {
        let (w, h) = (start.width(), start.height());
        let kernel = lights::kernel(w, h, Method::Poly)?;
        let mut game = LightsGame {
            nullity: kernel.len(),
            kernel,
            board: start,
            presses: Vec::new(),
            cursor: (0, 0),
            solution: None,
            show_solution: false,
            hint: None,
            message: "Turn every light off.".into(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            layout: Cell::new((1, 1, 4, 2)),
        };
        if !game.winnable() {
            game.message = "This board cannot be turned off (it is not winnable).".into();
        }
        Ok(game)
    }

    /// A random winnable board: the lights left by random presses on a dark board, never
    /// already dark.
    pub fn random_board(width: usize, height: usize, rng: &mut Xoshiro256PlusPlus) -> anyhow::Result<Board> {
        let dark = Board::new(width, height)?;
        for _ in 0..64 {
            let presses = Board::random(width, height, rng)?;
            let board = lights::apply_presses(&dark, &presses);
            if !board.is_zero() {
                return Ok(board);
            }
        }
        // Every press pattern drawn was neutral: press one cell (never neutral alone).
        let mut board = dark;
        lights::press(&mut board, 0, 0);
        Ok(board)
    }

    /// The current board.
    #[cfg(test)]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Presses made so far.
    pub fn press_count(&self) -> usize {
        self.presses.len()
    }

    /// True when every light is off.
    pub fn won(&self) -> bool {
        self.board.is_zero()
    }

    /// The hinted cell, if any.
    #[cfg(test)]
    pub fn hint_cell(&self) -> Option<(usize, usize)> {
        self.hint
    }

    fn winnable(&self) -> bool {
        lights::winnable_by_orthogonality(&self.board, &self.kernel)
    }

    /// Presses `(x, y)`: flips it and its neighbours.
    pub fn press(&mut self, x: usize, y: usize) {
        if self.won() {
            return;
        }
        lights::press(&mut self.board, x, y);
        self.presses.push((x, y));
        self.after_change();
        self.message = if self.won() {
            format!("All lights off in {} presses! r = new board, q = quit.", self.presses.len())
        } else {
            String::new()
        };
    }

    /// Takes back the last press.
    pub fn undo(&mut self) {
        match self.presses.pop() {
            Some((x, y)) => {
                lights::press(&mut self.board, x, y);
                self.after_change();
                self.message = "Undone.".into();
            }
            None => self.message = "Nothing to undo.".into(),
        }
    }

    /// A new random winnable board of the same size.
    pub fn new_board(&mut self) -> anyhow::Result<()> {
        self.board = Self::random_board(self.board.width(), self.board.height(), &mut self.rng)?;
        self.presses.clear();
        self.after_change();
        self.message = "New board.".into();
        Ok(())
    }

    fn after_change(&mut self) {
        // The cached solution stays valid only where the press was part of it.
        self.solution = None;
        self.hint = None;
    }

    /// A fewest-presses solution from the current board (cached), or a message why not.
    fn solution(&mut self) -> Option<&Board> {
        if self.solution.is_none() {
            let control = Control::new();
            let solved = lights::solve(&self.board, None, Method::Poly, &control);
            match solved {
                Ok(s) => match s.presses {
                    Some(p) => match lights::fewest_presses(&p, &self.kernel, &control) {
                        Ok(f) => self.solution = Some(f.presses),
                        Err(e) => self.message = format!("No solution: {e}"),
                    },
                    None => self.message = "No solution: this board is not winnable.".into(),
                },
                Err(e) => self.message = format!("No solution: {e}"),
            }
        }
        self.solution.as_ref()
    }

    /// Highlights one press of a fewest-presses solution, the one nearest the cursor, and
    /// moves the cursor there (space then presses it).
    pub fn hint(&mut self) {
        if self.won() {
            self.message = "Already won.".into();
            return;
        }
        let cursor = self.cursor;
        let Some(sol) = self.solution() else { return };
        let left = sol.count_ones();
        let best = (0..sol.height())
            .flat_map(|y| sol.row_ones(y).map(move |x| (x, y)))
            .min_by_key(|&(x, y)| x.abs_diff(cursor.0) + y.abs_diff(cursor.1));
        self.hint = best;
        if let Some((x, y)) = best {
            self.cursor = (x, y);
            self.message = format!("Hint: press ({}, {}); {left} presses to go.", x + 1, y + 1);
        }
    }

    /// Shows or hides the whole fewest-presses solution.
    pub fn toggle_solution(&mut self) {
        self.show_solution = !self.show_solution;
        if self.show_solution {
            let _ = self.solution();
        }
    }

    fn cell_at(&self, col: u16, row: u16) -> Option<(usize, usize)> {
        let (ox, oy, cw, ch) = self.layout.get();
        let (x, y) = ((col.checked_sub(ox)? / cw) as usize, (row.checked_sub(oy)? / ch) as usize);
        (x < self.board.width() && y < self.board.height()).then_some((x, y))
    }

    /// Cell size in characters: big cells when they fit.
    fn cell_size(&self, area: Rect) -> (u16, u16) {
        let (w, h) = (self.board.width() as u16, self.board.height() as u16);
        if w.saturating_mul(6) + 2 + PANEL <= area.width && h.saturating_mul(3) + 2 <= area.height {
            (6, 3)
        } else if w.saturating_mul(4) + 2 + PANEL <= area.width && h.saturating_mul(2) + 2 <= area.height {
            (4, 2)
        } else {
            (2, 1)
        }
    }
}

impl App for LightsGame {
    fn min_size(&self) -> (u16, u16) {
        let (w, h) = (self.board.width() as u16, self.board.height() as u16);
        (w.saturating_mul(2).saturating_add(2 + PANEL), h.max(18).saturating_add(2))
    }

    fn draw(&self, frame: &mut Frame, area: Rect) {
        let (cw, ch) = self.cell_size(area);
        let (w, h) = (self.board.width(), self.board.height());
        let board_w = w as u16 * cw + 2;
        let [board_area, panel, _] =
            Layout::horizontal([Constraint::Length(board_w), Constraint::Length(PANEL), Constraint::Min(0)])
                .areas(area);
        self.layout.set((board_area.x + 1, board_area.y + 1, cw, ch));
        let shown = if self.show_solution { self.solution.as_ref() } else { None };
        let mut lines = Vec::new();
        for y in 0..h {
            for sub in 0..ch {
                let mut spans = Vec::new();
                for x in 0..w {
                    let on = self.board.get(x, y);
                    // Lit cells are solid yellow blocks, dark ones light shading: readable
                    // without colours too.
                    let fill = if on { '█' } else { '░' };
                    let mut style = Style::default().fg(if on { Color::Yellow } else { Color::DarkGray });
                    let mark_row = sub == ch / 2;
                    let mut mark = fill;
                    let marked_bg = if on { Color::Yellow } else { Color::Black };
                    if shown.is_some_and(|s| s.get(x, y)) && mark_row {
                        mark = '×';
                    }
                    if self.hint == Some((x, y)) && mark_row {
                        mark = '◆';
                    }
                    if self.cursor == (x, y) {
                        style = style.add_modifier(Modifier::REVERSED);
                    }
                    let mark_style = if mark == fill {
                        style
                    } else {
                        let fg = if mark == '◆' { Color::Green } else { Color::Red };
                        Style::default().fg(fg).bg(marked_bg).add_modifier(Modifier::BOLD)
                    };
                    // A thin gap between big cells.
                    let body = if cw > 2 { cw - 1 } else { cw };
                    let left: String = std::iter::repeat_n(fill, (body / 2) as usize).collect();
                    let right: String = std::iter::repeat_n(fill, (body - body / 2 - 1) as usize).collect();
                    spans.push(Span::styled(left, style));
                    spans.push(Span::styled(mark.to_string(), mark_style));
                    spans.push(Span::styled(right, style));
                    if cw > 2 {
                        spans.push(Span::raw(" "));
                    }
                }
                lines.push(Line::from(spans));
            }
        }
        let title = format!(" lights out {w} x {h} ");
        frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), board_area);
        let mut info = vec![
            Line::from(format!("presses    {}", self.presses.len())),
            Line::from(format!("lights on  {}", self.board.count_ones())),
            Line::from(format!(
                "nullity    {} ({} way{} to win)",
                self.nullity,
                lights::power_of_two_decimal(self.nullity as u64),
                if self.nullity == 0 { "" } else { "s" }
            )),
            Line::from(""),
        ];
        if self.won() {
            info.push(Line::styled(
                "*** ALL OFF — YOU WIN ***",
                Style::default().fg(Color::Green).add_modifier(Modifier::BOLD),
            ));
        }
        info.push(Line::from(self.message.clone()));
        info.extend(
            [
                "",
                "click a cell, or arrows + space",
                "h  hint (space presses it)",
                "s  show the whole solution",
                "u  undo    r  new board",
                "q  quit",
            ]
            .map(|s| Line::styled(s, Style::default().fg(Color::Gray))),
        );
        frame.render_widget(
            Paragraph::new(info).wrap(Wrap { trim: true }).block(Block::bordered().title(" lights ")),
            panel,
        );
    }

    fn on_key(&mut self, key: KeyEvent) -> Flow {
        let (w, h) = (self.board.width(), self.board.height());
        let (x, y) = self.cursor;
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => return Flow::Quit,
            KeyCode::Up => self.cursor = (x, y.saturating_sub(1)),
            KeyCode::Down => self.cursor = (x, (y + 1).min(h - 1)),
            KeyCode::Left => self.cursor = (x.saturating_sub(1), y),
            KeyCode::Right => self.cursor = ((x + 1).min(w - 1), y),
            KeyCode::Char(' ') | KeyCode::Enter => self.press(x, y),
            KeyCode::Char('h') => self.hint(),
            KeyCode::Char('s') => self.toggle_solution(),
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('r') => {
                if let Err(e) = self.new_board() {
                    self.message = format!("{e}");
                }
            }
            _ => {}
        }
        if self.show_solution {
            let _ = self.solution();
        }
        Flow::Continue
    }

    fn on_mouse(&mut self, mouse: MouseEvent) -> Flow {
        if let MouseEventKind::Down(MouseButton::Left) = mouse.kind
            && let Some((x, y)) = self.cell_at(mouse.column, mouse.row)
        {
            self.cursor = (x, y);
            self.press(x, y);
            if self.show_solution {
                let _ = self.solution();
            }
        }
        Flow::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{key, screen};
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn game(w: usize, h: usize, seed: u64) -> LightsGame {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let start = LightsGame::random_board(w, h, &mut rng).unwrap();
        LightsGame::new(start, seed).unwrap()
    }

    #[test]
    fn following_hints_from_random_winnable_starts_always_wins() {
        for (w, h) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (4, 7), (9, 3)] {
            for seed in 0..5 {
                let mut g = game(w, h, seed);
                assert!(g.winnable());
                // The fewest-presses count drops by one with every hinted press.
                let mut guard = 0;
                while !g.won() {
                    g.on_key(key(KeyCode::Char('h')));
                    let (x, y) = g.hint_cell().expect("a hint while lights are on");
                    g.press(x, y);
                    guard += 1;
                    assert!(guard <= w * h, "{w} x {h} seed {seed}: hints must finish within w*h presses");
                }
                assert!(screen(&g, 80, 24).contains("YOU WIN"));
            }
        }
    }

    #[test]
    fn undo_restores_the_board() {
        let mut g = game(5, 5, 3);
        let start = g.board().clone();
        g.on_key(key(KeyCode::Right));
        g.on_key(key(KeyCode::Char(' ')));
        assert_ne!(g.board(), &start);
        assert_eq!(g.press_count(), 1);
        g.on_key(key(KeyCode::Char('u')));
        assert_eq!(g.board(), &start);
        assert_eq!(g.press_count(), 0);
    }

    #[test]
    fn clicking_a_cell_presses_it() {
        let mut g = game(3, 3, 1);
        let mut expected = g.board().clone();
        let _ = screen(&g, 80, 24);
        let (ox, oy, cw, ch) = g.layout.get();
        g.on_mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: ox + cw + 1,
            row: oy + 2 * ch,
            modifiers: KeyModifiers::NONE,
        });
        lights::press(&mut expected, 1, 2);
        assert_eq!(g.board(), &expected);
    }

    #[test]
    fn shown_solution_wins_when_pressed() {
        let mut g = game(5, 5, 9);
        g.on_key(key(KeyCode::Char('s')));
        let sol = g.solution.clone().expect("solution shown");
        for y in 0..5 {
            for x in sol.row_ones(y).collect::<Vec<_>>() {
                g.press(x, y);
            }
        }
        assert!(g.won());
    }

    #[test]
    fn new_board_is_winnable_and_unwinnable_start_is_reported() {
        let mut g = game(4, 4, 2);
        g.on_key(key(KeyCode::Char('r')));
        assert!(g.winnable() && !g.won());
        // 4x4 has nullity 4: a single lit corner is not winnable.
        let mut b = Board::new(4, 4).unwrap();
        b.set(0, 0, true);
        let g = LightsGame::new(b, 1).unwrap();
        assert!(g.message.contains("not winnable"));
    }

    #[test]
    fn renders_start() {
        let g = game(3, 3, 5);
        insta::assert_snapshot!(screen(&g, 60, 20));
        assert!(screen(&g, 20, 5).contains("too small"));
    }
}
