//! Lights Out as a terminal game: click cells (or move with the arrows and press space) until
//! every light is off.
//!
//! All rules come from the library: [`lights::press_cell`] flips a cell and its neighbours, and
//! hints are cells of a fewest-presses solution from the current board.

use std::cell::Cell;

use damier::board::{Board, Size};
use damier::control::Control;
use damier::lights::{self, game::LightsState};
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

/// The game: the library's [`LightsState`] (rules, undo, hints) plus what the screen needs.
pub struct LightsGame {
    state: LightsState,
    cursor: (usize, usize),
    /// The fewest-presses solution drawn over the board, when shown.
    shown: Option<Board>,
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
        let mut game = LightsGame {
            state: LightsState::new(start)?,
            cursor: (0, 0),
            shown: None,
            show_solution: false,
            hint: None,
            message: "Turn every light off.".into(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            layout: Cell::new((1, 1, 4, 2)),
        };
        if !game.state.winnable() {
            game.message = "This board cannot be turned off (it is not winnable).".into();
        }
        Ok(game)
    }

    /// A random winnable board, never already dark.
    pub fn random_board(size: Size, rng: &mut Xoshiro256PlusPlus) -> Board {
        LightsState::random_winnable(size, rng)
    }

    /// The current board.
    #[cfg(test)]
    pub fn board(&self) -> &Board {
        self.state.board()
    }

    /// Presses made so far.
    pub fn press_count(&self) -> usize {
        self.state.press_count()
    }

    /// True when every light is off.
    pub fn won(&self) -> bool {
        self.state.won()
    }

    /// The hinted cell, if any.
    #[cfg(test)]
    pub fn hint_cell(&self) -> Option<(usize, usize)> {
        self.hint
    }

    /// Presses `(x, y)`: flips it and its neighbours.
    pub fn press(&mut self, x: usize, y: usize) {
        if !self.state.press(x, y) {
            return;
        }
        self.after_change();
        self.message = if self.won() {
            format!(
                "All lights off in {}! r = new board, q = quit.",
                crate::util::plural(self.press_count() as u64, "press")
            )
        } else {
            String::new()
        };
    }

    /// Takes back the last press.
    pub fn undo(&mut self) {
        self.message = match self.state.undo() {
            Some(_) => "Undone.".into(),
            None => "Nothing to undo.".into(),
        };
        self.after_change();
    }

    /// A new random winnable board of the same size.
    pub fn new_board(&mut self) -> anyhow::Result<()> {
        let start = LightsState::random_winnable(self.state.board().size(), &mut self.rng);
        self.state.restart(start)?;
        self.after_change();
        self.message = "New board.".into();
        Ok(())
    }

    fn after_change(&mut self) {
        self.hint = None;
        self.refresh_shown();
    }

    /// Recomputes the drawn solution when it is shown.
    fn refresh_shown(&mut self) {
        self.shown = None;
        if self.show_solution && !self.won() {
            match self.state.solution(&Control::new()) {
                Ok(Some(s)) => self.shown = Some(s.clone()),
                Ok(None) => self.message = "No solution: this board is not winnable.".into(),
                Err(e) => self.message = format!("No solution: {e}"),
            }
        }
    }

    /// Highlights one press of a fewest-presses solution, the one nearest the cursor, and
    /// moves the cursor there (space then presses it).
    pub fn hint(&mut self) {
        if self.won() {
            self.message = "Already won.".into();
            return;
        }
        match self.state.hint(self.cursor, &Control::new()) {
            Ok(Some((x, y))) => {
                self.hint = Some((x, y));
                self.cursor = (x, y);
                let left = self.state.solution(&Control::new()).ok().flatten().map_or(0, Board::count_ones);
                self.message = format!(
                    "Hint: press row {}, column {}; {} to go.",
                    y + 1,
                    x + 1,
                    crate::util::plural(left, "press")
                );
            }
            Ok(None) => self.message = "No solution: this board is not winnable.".into(),
            Err(e) => self.message = format!("No solution: {e}"),
        }
    }

    /// Shows or hides the whole fewest-presses solution.
    pub fn toggle_solution(&mut self) {
        self.show_solution = !self.show_solution;
        self.refresh_shown();
    }

    fn cell_at(&self, col: u16, row: u16) -> Option<(usize, usize)> {
        let (ox, oy, cw, ch) = self.layout.get();
        let (x, y) = ((col.checked_sub(ox)? / cw) as usize, (row.checked_sub(oy)? / ch) as usize);
        let b = self.state.board();
        (x < b.width() && y < b.height()).then_some((x, y))
    }

    /// Cell size in characters: big cells when they fit.
    fn cell_size(&self, area: Rect) -> (u16, u16) {
        let (w, h) = (self.state.board().width() as u16, self.state.board().height() as u16);
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
        let (w, h) = (self.state.board().width() as u16, self.state.board().height() as u16);
        (w.saturating_mul(2).saturating_add(2 + PANEL), h.max(18).saturating_add(2))
    }

    fn draw(&self, frame: &mut Frame, area: Rect) {
        let (cw, ch) = self.cell_size(area);
        let board = self.state.board();
        let (w, h) = (board.width(), board.height());
        let board_w = w as u16 * cw + 2;
        let [board_area, panel, _] =
            Layout::horizontal([Constraint::Length(board_w), Constraint::Length(PANEL), Constraint::Min(0)])
                .areas(area);
        self.layout.set((board_area.x + 1, board_area.y + 1, cw, ch));
        let shown = if self.show_solution { self.shown.as_ref() } else { None };
        let mut lines = Vec::new();
        for y in 0..h {
            for sub in 0..ch {
                let mut spans = Vec::new();
                for x in 0..w {
                    let on = board.get(x, y);
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
        let title = super::fitting_title(
            board_area.width,
            &[format!(" lights out {w} x {h} "), format!(" {w}x{h} "), format!("{w}x{h}")],
        );
        frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), board_area);
        let mut info = vec![
            Line::from(format!("presses    {}", self.press_count())),
            Line::from(format!("lights on  {}", board.count_ones())),
            Line::from(format!(
                "nullity    {} ({} way{} to win)",
                self.state.nullity(),
                lights::power_of_two_decimal(self.state.nullity() as u64),
                if self.state.nullity() == 0 { "" } else { "s" }
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
        let (w, h) = (self.state.board().width(), self.state.board().height());
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
        Flow::Continue
    }

    fn on_mouse(&mut self, mouse: MouseEvent) -> Flow {
        if let MouseEventKind::Down(MouseButton::Left) = mouse.kind
            && let Some((x, y)) = self.cell_at(mouse.column, mouse.row)
        {
            self.cursor = (x, y);
            self.press(x, y);
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
        let start = LightsGame::random_board(Size::new(w, h).unwrap(), &mut rng);
        LightsGame::new(start, seed).unwrap()
    }

    #[test]
    fn following_hints_from_random_winnable_starts_always_wins() {
        for (w, h) in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (4, 7), (9, 3)] {
            for seed in 0..5 {
                let mut g = game(w, h, seed);
                assert!(g.state.winnable());
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
        lights::press_cell(&mut expected, 1, 2);
        assert_eq!(g.board(), &expected);
    }

    #[test]
    fn shown_solution_wins_when_pressed() {
        let mut g = game(5, 5, 9);
        g.on_key(key(KeyCode::Char('s')));
        let sol = g.shown.clone().expect("solution shown");
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
        assert!(g.state.winnable() && !g.won());
        // 4x4 has nullity 4: a single lit corner is not winnable.
        let mut b = Board::new(Size::new(4, 4).unwrap());
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
