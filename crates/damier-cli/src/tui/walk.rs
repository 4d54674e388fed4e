//! The pawn-walk game (the blog post's game, which its program calls "revertigo"): walk the
//! pawn until every cell is black.
//!
//! All rules come from the library's [`WalkState`]: moves, flips, the solver's plan.

use std::time::{Duration, Instant};

use damier::board::Size;
use damier::control::Control;
use damier::walk::game::WalkState;
use damier::walk::path::Move;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::{App, Flow};

/// Width of the side panel.
const PANEL: u16 = 34;
/// Delay between two moves of the solver's animation.
const ANIMATION_STEP: Duration = Duration::from_millis(120);

/// The game's state.
pub struct WalkGame {
    state: WalkState,
    /// Earlier states, for undo.
    history: Vec<WalkState>,
    /// The hinted move, shown until the next action.
    hint: Option<Move>,
    /// True while the solver's plan is being played by itself. Hints and the animation both
    /// come from [`WalkState::next_move`], which keeps one plan while it is followed.
    animating: bool,
    next_frame: Option<Instant>,
    message: String,
    /// Where the board was last drawn (for mouse clicks): top-left cell corner.
    origin: std::cell::Cell<(u16, u16)>,
}

impl WalkGame {
    /// A new game on `board`: the pawn has just landed on the bottom-left cell.
    pub fn new(board: Size) -> WalkGame {
        WalkGame {
            state: WalkState::start(board),
            history: Vec::new(),
            hint: None,
            animating: false,
            next_frame: None,
            message: "Make every cell black.".into(),
            origin: std::cell::Cell::new((1, 1)),
        }
    }

    /// The current position.
    pub fn state(&self) -> &WalkState {
        &self.state
    }

    /// True while the solver's path is being played.
    pub fn animating(&self) -> bool {
        self.animating && !self.state.is_solved()
    }

    /// Plays `mv` (refused, with a message, off the board or after the win).
    pub fn play(&mut self, mv: Move) {
        if self.state.is_solved() {
            return;
        }
        let before = self.state.clone();
        match self.state.apply(mv) {
            Ok(()) => {
                self.history.push(before);
                self.hint = None;
                self.message = if self.state.is_solved() {
                    format!(
                        "All black in {}! u = undo, q = quit.",
                        crate::util::plural(self.state.moves() as u64, "move")
                    )
                } else {
                    String::new()
                };
            }
            Err(e) => self.message = format!("{e}"),
        }
    }

    /// Takes back the last move.
    pub fn undo(&mut self) {
        self.animating = false;
        match self.history.pop() {
            Some(s) => {
                self.state = s;
                self.hint = None;
                self.message = "Undone.".into();
            }
            None => self.message = "Nothing to undo.".into(),
        }
    }

    /// The next move of the solver's plan from here, or a message why there is none.
    fn next_move(&mut self) -> Option<Move> {
        match self.state.next_move(&Control::new()) {
            Ok(Some(mv)) => Some(mv),
            Ok(None) => {
                self.message = "Already solved.".into();
                None
            }
            Err(e) => {
                self.message = format!("No solution from here: {e}");
                None
            }
        }
    }

    /// Shows the next move of a solution from the current position.
    pub fn hint(&mut self) {
        if let Some(mv) = self.next_move() {
            self.hint = Some(mv);
            self.message = format!("Hint: move {}.", mv.letter());
        }
    }

    /// Starts playing the solver's path from the current position.
    pub fn animate(&mut self) {
        if let Some(mv) = self.next_move() {
            self.message = format!("Solver playing from here (first move {}).", mv.letter());
            self.animating = true;
            self.next_frame = None;
        }
    }

    /// Plays the next move of the animation, if any.
    pub fn animation_step(&mut self) {
        if self.animating()
            && let Some(mv) = self.next_move()
        {
            self.play(mv);
        }
    }

    fn cell_at(&self, col: u16, row: u16) -> Option<(usize, usize)> {
        let (ox, oy) = self.origin.get();
        let b = self.state.size();
        let (c, r) = (col.checked_sub(ox)? / 3, row.checked_sub(oy)?);
        ((r as usize) < b.height() && (c as usize) < b.width()).then_some((r as usize, c as usize))
    }
}

impl App for WalkGame {
    fn min_size(&self) -> (u16, u16) {
        let b = self.state.size();
        let w = (b.width() as u16).saturating_mul(3).saturating_add(2 + PANEL);
        let h = (b.height() as u16).max(16).saturating_add(2);
        (w, h)
    }

    fn draw(&self, frame: &mut Frame, area: Rect) {
        let b = self.state.size();
        let board_w = (b.width() as u16) * 3 + 2;
        let [board_area, panel] =
            Layout::horizontal([Constraint::Length(board_w), Constraint::Length(PANEL)]).areas(area);
        self.origin.set((board_area.x + 1, board_area.y + 1));
        let pawn = self.state.pawn();
        let hinted = self.hint.and_then(|mv| mv.step(b, pawn));
        let mut lines = Vec::new();
        for r in 0..b.height() {
            let mut spans = Vec::new();
            for c in 0..b.width() {
                let black = self.state.black().get(c, r);
                let bg = if black { Color::Black } else { Color::White };
                let fg = if black { Color::White } else { Color::Black };
                let mut style = Style::default().bg(bg).fg(fg);
                let text = if (r, c) == pawn {
                    style = style.fg(Color::Red).add_modifier(Modifier::BOLD);
                    " ● "
                } else if Some((r, c)) == hinted {
                    style = style.fg(Color::Green).add_modifier(Modifier::BOLD);
                    " ◆ "
                } else if black {
                    "   "
                } else {
                    " · "
                };
                spans.push(Span::styled(text, style));
            }
            lines.push(Line::from(spans));
        }
        let (rows, cols) = (b.height(), b.width());
        let title = super::fitting_title(
            board_area.width,
            &[format!(" walk {rows} x {cols} "), format!(" {rows}x{cols} "), format!("{rows}x{cols}")],
        );
        frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), board_area);
        let white = b.height() * b.width() - self.state.black().count_ones() as usize;
        let mut info = vec![
            Line::from(format!("moves      {}", self.state.moves())),
            Line::from(format!("white left {white}")),
            Line::from(""),
        ];
        if self.state.is_solved() {
            info.push(Line::styled(
                "*** ALL BLACK — YOU WIN ***",
                Style::default().fg(Color::Green).add_modifier(Modifier::BOLD),
            ));
        }
        if self.animating() {
            info.push(Line::styled("solver playing… (any move stops it)", Style::default().fg(Color::Cyan)));
        }
        info.push(Line::from(self.message.clone()));
        info.extend(
            [
                "",
                "arrows, N E W O, shift-S: move",
                "click a neighbour cell: move",
                "h  hint (next move)",
                "s  animate the solver's path",
                "u  undo      q  quit",
            ]
            .map(|s| Line::styled(s, Style::default().fg(Color::Gray))),
        );
        frame.render_widget(
            Paragraph::new(info)
                .wrap(ratatui::widgets::Wrap { trim: true })
                .block(Block::bordered().title(" revertigo ")),
            panel,
        );
    }

    fn on_key(&mut self, key: KeyEvent) -> Flow {
        let mv = match key.code {
            KeyCode::Char('q') | KeyCode::Esc => return Flow::Quit,
            KeyCode::Char('h') => {
                self.hint();
                None
            }
            KeyCode::Char('s') => {
                self.animate();
                None
            }
            KeyCode::Char('u') => {
                self.undo();
                None
            }
            KeyCode::Up | KeyCode::Char('N' | 'n') => Some(Move::N),
            KeyCode::Down | KeyCode::Char('S') => Some(Move::S),
            KeyCode::Right | KeyCode::Char('E' | 'e') => Some(Move::E),
            KeyCode::Left | KeyCode::Char('W' | 'w' | 'O' | 'o') => Some(Move::W),
            _ => None,
        };
        if let Some(mv) = mv {
            self.animating = false;
            self.play(mv);
        }
        Flow::Continue
    }

    fn on_mouse(&mut self, mouse: MouseEvent) -> Flow {
        if let MouseEventKind::Down(MouseButton::Left) = mouse.kind
            && let Some(target) = self.cell_at(mouse.column, mouse.row)
        {
            let b = self.state.size();
            let pawn = self.state.pawn();
            match [Move::N, Move::S, Move::E, Move::W].into_iter().find(|mv| mv.step(b, pawn) == Some(target))
            {
                Some(mv) => {
                    self.animating = false;
                    self.play(mv);
                }
                None => self.message = "Click a cell next to the pawn.".into(),
            }
        }
        Flow::Continue
    }

    fn tick(&mut self, now: Instant) -> Duration {
        if !self.animating() {
            return Duration::from_millis(250);
        }
        match self.next_frame {
            Some(t) if now < t => t - now,
            _ => {
                self.animation_step();
                self.next_frame = Some(now + ANIMATION_STEP);
                ANIMATION_STEP
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{key, screen};
    use super::*;
    use damier::walk::board_size;
    use ratatui::crossterm::event::KeyModifiers;

    fn game(rows: usize, cols: usize) -> WalkGame {
        WalkGame::new(board_size(rows, cols).unwrap())
    }

    #[test]
    fn following_hints_always_wins() {
        for (rows, cols) in [(1, 1), (2, 2), (3, 3), (4, 5), (5, 4), (6, 6), (7, 3)] {
            let mut g = game(rows, cols);
            // Wander a little first, then follow the hints from wherever the pawn is.
            for code in [KeyCode::Right, KeyCode::Up, KeyCode::Right, KeyCode::Char('S')] {
                g.on_key(key(code));
            }
            let mut guard = 0;
            while !g.state().is_solved() {
                g.on_key(key(KeyCode::Char('h')));
                let mv = g.hint.expect("a hint while unsolved");
                g.play(mv);
                guard += 1;
                assert!(guard < 100_000, "hints must finish {rows} x {cols}");
            }
            assert!(screen(&g, 80, 24).contains("YOU WIN"));
        }
    }

    #[test]
    fn animation_plays_the_solvers_path_to_the_end() {
        let mut g = game(4, 4);
        g.on_key(key(KeyCode::Char('s')));
        assert!(g.animating());
        while g.animating() {
            g.animation_step();
        }
        assert!(g.state().is_solved());
    }

    #[test]
    fn undo_restores_and_off_board_is_refused() {
        let mut g = game(3, 3);
        let start = g.state().clone();
        g.on_key(key(KeyCode::Down)); // off the board from the bottom-left corner
        assert_eq!(g.state(), &start);
        assert!(g.message.contains("board"), "{}", g.message);
        g.on_key(key(KeyCode::Char('e')));
        assert_ne!(g.state(), &start);
        g.on_key(key(KeyCode::Char('u')));
        assert_eq!(g.state(), &start);
    }

    #[test]
    fn clicking_a_neighbour_moves_the_pawn() {
        let g0 = game(3, 3);
        let mut g = game(3, 3);
        let _ = screen(&g, 80, 24); // draw once so the board's position is known
        let (ox, oy) = g.origin.get();
        // The pawn is on the bottom-left cell (row 2, col 0); click the cell above it.
        let click = MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: ox + 1,
            row: oy + 1,
            modifiers: KeyModifiers::NONE,
        };
        g.on_mouse(click);
        assert_eq!(g.state().pawn(), (1, 0));
        assert_ne!(g.state(), g0.state());
    }

    #[test]
    fn renders_start_and_too_small() {
        let g = game(3, 4);
        insta::assert_snapshot!(screen(&g, 52, 18));
        assert!(screen(&g, 20, 5).contains("too small"));
    }
}
