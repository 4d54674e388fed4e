//! Terminal front ends: the Lights Out and walk games and the automaton's live view.
//!
//! Each front end is a plain state machine (`App`) that the tests drive directly and render
//! through ratatui's `TestBackend`; [`run`] owns the real terminal: raw mode, the alternate
//! screen and mouse capture, always restored on exit, error or panic.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use anyhow::Context;
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent};
use ratatui::crossterm::{execute, terminal};
use ratatui::layout::{Alignment, Rect};
use ratatui::widgets::{Paragraph, Wrap};

pub mod factor;
pub mod lights;
pub mod pace;
pub mod walk;
pub mod watch;

/// What the event loop does after an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep running.
    Continue,
    /// Leave the program.
    Quit,
}

/// A terminal program: state, drawing and event handling, with no terminal of its own.
pub trait App {
    /// The smallest terminal (columns, rows) the picture fits in.
    fn min_size(&self) -> (u16, u16);
    /// Draws the whole screen into `area` (already known to be at least `min_size`).
    fn draw(&self, frame: &mut Frame, area: Rect);
    /// A key was pressed.
    fn on_key(&mut self, key: KeyEvent) -> Flow;
    /// A mouse event arrived (coordinates are the terminal's).
    fn on_mouse(&mut self, _mouse: MouseEvent) -> Flow {
        Flow::Continue
    }
    /// Called every loop turn; returns how long the loop may sleep waiting for input
    /// (animations return a short delay, static screens a long one).
    fn tick(&mut self, _now: Instant) -> Duration {
        Duration::from_millis(250)
    }
}

/// Draws `app`, or a "terminal too small" message when it does not fit.
pub fn render(app: &dyn App, frame: &mut Frame) {
    let area = frame.area();
    let (w, h) = app.min_size();
    if area.width < w || area.height < h {
        let msg = format!(
            "Terminal too small: {}x{}, need at least {w}x{h}.\nEnlarge the window, or press q to quit.",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(msg).alignment(Alignment::Center).wrap(Wrap { trim: true }), area);
    } else {
        app.draw(frame, area);
    }
}

/// Refuses to start without an interactive terminal on stdin and stdout.
/// The first of `titles` that fits a bordered block `width` cells wide (its two corners
/// apart), or none: a narrow board gets a short title rather than a cut one.
pub fn fitting_title(width: u16, titles: &[String]) -> String {
    let room = usize::from(width.saturating_sub(2));
    titles.iter().find(|t| t.chars().count() <= room).cloned().unwrap_or_default()
}

pub fn require_terminal(command: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        std::io::stdin().is_terminal() && std::io::stdout().is_terminal(),
        "`damier {command}` needs an interactive terminal (stdin and stdout must not be redirected)"
    );
    Ok(())
}

/// Puts the terminal back: leaves raw mode, the alternate screen and mouse capture.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let mut out = std::io::stdout();
    let _ = execute!(
        out,
        event::DisableMouseCapture,
        terminal::LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let _ = out.flush();
}

/// Restores the terminal when dropped, whatever way the loop ended.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// The longest the event loop waits for a key before it looks at the signals again.
const SIGNAL_POLL: Duration = Duration::from_millis(200);

/// Runs `app` on the real terminal until it quits. Ctrl-C quits too (raw mode turns it into a
/// key); so do SIGINT and SIGTERM from outside (`kill`): the loop ends as an interrupted run
/// (exit 130) with the terminal restored, where SIGINT used to be caught by the Ctrl-C handler
/// and never looked at, and SIGTERM killed the process with the terminal left in raw mode.
/// SIGHUP (the terminal closed) keeps its default action: it ends the process
/// ([`install_sigterm`](crate::util::interrupt::install_sigterm) says why).
pub fn run(app: &mut dyn App, command: &str) -> anyhow::Result<()> {
    require_terminal(command)?;
    crate::util::interrupt::install_sigterm();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
    terminal::enable_raw_mode().context("cannot switch the terminal to raw mode")?;
    let _guard = Guard;
    execute!(std::io::stdout(), terminal::EnterAlternateScreen, event::EnableMouseCapture)
        .context("cannot set up the terminal")?;
    let backend = ratatui::backend::CrosstermBackend::new(std::io::stdout());
    let mut term = ratatui::Terminal::new(backend).context("cannot set up the terminal")?;
    term.clear()?;
    loop {
        crate::util::interrupt::check()?;
        let wait = app.tick(Instant::now());
        term.draw(|f| render(app, f))?;
        if !event::poll(wait.min(SIGNAL_POLL))? {
            continue;
        }
        let flow = match event::read()? {
            Event::Key(k) if k.kind != KeyEventKind::Release => {
                if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
                    Flow::Quit
                } else {
                    app.on_key(k)
                }
            }
            Event::Mouse(m) => app.on_mouse(m),
            Event::Resize(..) => {
                term.autoresize()?;
                Flow::Continue
            }
            _ => Flow::Continue,
        };
        if flow == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
pub mod testing {
    //! Rendering an [`App`] into a text grid for tests and snapshots.

    use super::*;
    use ratatui::backend::TestBackend;

    /// The screen `app` draws on a `w x h` terminal, as text lines.
    pub fn screen(app: &dyn App, w: u16, h: u16) -> String {
        let mut term = ratatui::Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| render(app, f)).unwrap();
        let buf = term.backend().buffer().clone();
        (0..h)
            .map(|y| {
                (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>().trim_end().to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A key press event.
    pub fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
}
