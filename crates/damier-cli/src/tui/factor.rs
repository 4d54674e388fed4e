//! The factoring automaton's live view: the multiplication grid of fig. 9 with its border
//! bits, the column feet against the bits of N, and which signals are still stale.
//!
//! Runs the library's [`FactorAutomaton`] itself, so a seed gives the trajectory of
//! `damier factor N --seed S`, step for step.

use std::time::{Duration, Instant};

use damier::factor::{FactorAutomaton, LOW, STUCK, Site};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::pace::Pace;
use super::{App, Flow};

/// Width of the status panel.
const PANEL: u16 = 40;

/// Width of the labels right of the grid's border row and feet (issue 38, section 3: the
/// feet were unlabelled).
const LABELS: u16 = 13;

/// What each interior cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellView {
    /// The partial product `a_j AND b_i` (the digits of fig. 9).
    Products,
    /// The running column sum, last digit.
    Sums,
    /// The verdict travelling up the column: `L` lowest wrong column, `S` stuck.
    Verdicts,
}

/// The live view's state.
pub struct FactorWatch {
    au: FactorAutomaton,
    /// The same automaton with every signal settled, refreshed each frame, to show which
    /// signals are stale.
    settled: FactorAutomaton,
    pace: Pace,
    view: CellView,
}

impl FactorWatch {
    /// A view of `au`, paused or running at `speed` updates per second (rounded up to an
    /// offered speed).
    pub fn new(au: FactorAutomaton, speed: u64, paused: bool) -> FactorWatch {
        let settled = settled(&au);
        FactorWatch { au, settled, pace: Pace::new(speed, paused), view: CellView::Products }
    }

    /// The automaton being shown.
    pub fn automaton(&self) -> &FactorAutomaton {
        &self.au
    }

    /// Performs up to `k` updates; pauses when the configuration becomes absorbing.
    pub fn advance(&mut self, k: u64) {
        if self.au.run_steps(k) {
            self.pace.paused = true;
        }
        self.settled = settled(&self.au);
    }

    /// Screen width of the grid: two characters per column, the `B` border included.
    fn grid_width(&self) -> u16 {
        ((self.au.last_column() + 2) * 2) as u16
    }

    /// Screen column of grid column `x` (`x = -1` is the `B` border on the right).
    fn col(&self, x: isize) -> usize {
        ((self.au.last_column() as isize - x) * 2) as usize
    }

    fn grid_lines(&self) -> Vec<Line<'static>> {
        let au = &self.au;
        let (la, lb, last) = (au.la(), au.lb(), au.last_column());
        let width = self.grid_width() as usize;
        let blank = || vec![Span::raw(" "); width];
        let one = Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD);
        let zero = Style::default().fg(Color::DarkGray);
        let stale = Style::default().fg(Color::Red);
        let flash =
            |site: Site| if au.last_site() == Some(site) { Modifier::REVERSED } else { Modifier::empty() };
        let bit = |v: u64, style: Style| Span::styled(if v == 1 { "1" } else { "0" }, style);
        let mut lines = Vec::new();
        // Border A: bit a_j above column j.
        let mut row = blank();
        for j in 0..la {
            let v = (au.a() >> j) & 1;
            row[self.col(j as isize)] =
                bit(v, Style::default().fg(Color::Green).add_modifier(flash(Site::A(j))));
        }
        let label = |text: &str| Span::styled(format!(" {text}"), Style::default().fg(Color::Cyan));
        row.push(label("a (bits)"));
        lines.push(Line::from(row));
        for i in 0..lb {
            let mut row = blank();
            for j in 0..la {
                let s = au.signals(i, j);
                let fresh = s == self.settled.signals(i, j);
                let (text, mut style) = match self.view {
                    CellView::Products => (
                        if s.product == 1 { "1".to_string() } else { "·".to_string() },
                        if s.product == 1 { one } else { zero },
                    ),
                    CellView::Sums => ((s.sum % 10).to_string(), if s.sum > 0 { one } else { zero }),
                    CellView::Verdicts => {
                        let t = if s.verdict & LOW != 0 {
                            "L"
                        } else if s.verdict & STUCK != 0 {
                            "S"
                        } else {
                            "·"
                        };
                        (t.to_string(), if t == "·" { zero } else { one })
                    }
                };
                if !fresh {
                    style = stale;
                }
                row[self.col((i + j) as isize)] = Span::styled(text, style);
            }
            let v = (au.b() >> i) & 1;
            row[self.col(i as isize - 1)] =
                bit(v, Style::default().fg(Color::Green).add_modifier(flash(Site::B(i))));
            lines.push(Line::from(row));
        }
        // The feet: product bit of each column (total mod 2; the last column's total), the
        // bits of N, and where they disagree.
        let foot = |x: usize| au.signals(x.min(lb - 1), x - x.min(lb - 1));
        let top = if last < 64 { au.n() >> last } else { 0 };
        let mut got = blank();
        let mut want = blank();
        let mut marks = blank();
        for x in 0..=last {
            let f = foot(x);
            let c = self.col(x as isize);
            if x == last {
                got[c] = Span::raw(f.total.to_string());
                want[c] = Span::raw(top.to_string());
            } else {
                got[c] = Span::raw((f.total & 1).to_string());
                want[c] = Span::raw(au.n_bit(x).to_string());
            }
            marks[c] = if f.err == 1 {
                Span::styled("✗", Style::default().fg(Color::Red).add_modifier(Modifier::BOLD))
            } else {
                Span::styled("✓", Style::default().fg(Color::Green))
            };
        }
        lines.push(Line::styled("─".repeat(width), Style::default().fg(Color::DarkGray)));
        got.push(label("a x b (bits)"));
        want.push(label("N (bits)"));
        marks.push(label("agree?"));
        lines.push(Line::from(got));
        lines.push(Line::from(want));
        lines.push(Line::from(marks));
        lines
    }

    fn status_lines(&self) -> Vec<Line<'static>> {
        let au = &self.au;
        let p = au.params();
        let product = au.a() as u128 * au.b() as u128;
        let state = match (au.is_absorbing(), self.pace.paused) {
            (true, _) => "ABSORBED: a factorization".to_string(),
            (false, true) => "paused".to_string(),
            (false, false) => "running".to_string(),
        };
        let stale = (0..au.lb())
            .flat_map(|i| (0..au.la()).map(move |j| (i, j)))
            .filter(|&(i, j)| au.signals(i, j) != self.settled.signals(i, j))
            .count();
        let mut lines = vec![
            Line::styled(format!("N = {}", au.n()), Style::default().add_modifier(Modifier::BOLD)),
            Line::from(format!("grid {} rows x {} diagonals", au.lb(), au.la())),
            Line::from(format!("q = {}  eps = {}", damier::util::given(p.q), damier::util::given(p.eps))),
            Line::from(format!("seed {}", au.seed())),
            Line::from(""),
            Line::from(format!("a = {}", au.a())),
            Line::from(format!("b = {}", au.b())),
            Line::from(format!("a x b = {product}")),
            Line::from(""),
            Line::from(format!("steps {}", au.steps())),
            Line::from(format!("flips {}", au.flips())),
            Line::from(format!("stale cells {stale}")),
            Line::from(format!("speed {}/s", self.pace.per_second())),
            Line::from(format!("rate  {}/s", crate::util::number(self.pace.rate))),
            Line::from(""),
            Line::styled(
                state,
                Style::default().fg(if au.is_absorbing() { Color::Green } else { Color::White }),
            ),
        ];
        if let Some((lo, hi)) = au.factors() {
            lines.push(Line::styled(format!("{} = {lo} x {hi}", au.n()), Style::default().fg(Color::Green)));
        }
        lines.extend(
            [
                "",
                "red: stale signal",
                "space pause/run",
                "+ / -  speed",
                ".  one step",
                "v  products/sums/verdicts",
                "q  quit",
            ]
            .map(|s| Line::styled(s, Style::default().fg(Color::Gray))),
        );
        lines
    }
}

fn settled(au: &FactorAutomaton) -> FactorAutomaton {
    let mut s = au.clone();
    s.settle();
    s
}

impl App for FactorWatch {
    fn min_size(&self) -> (u16, u16) {
        let grid_h = (self.au.lb() + 5) as u16;
        (self.grid_width().saturating_add(2 + LABELS + PANEL), grid_h.max(24).saturating_add(2))
    }

    fn draw(&self, frame: &mut Frame, area: Rect) {
        let [grid, panel, _] = Layout::horizontal([
            Constraint::Length(self.grid_width() + LABELS + 2),
            Constraint::Length(PANEL),
            Constraint::Min(0),
        ])
        .areas(area);
        let title = match self.view {
            CellView::Products => " products ",
            CellView::Sums => " sums ",
            CellView::Verdicts => " verdicts ",
        };
        frame.render_widget(Paragraph::new(self.grid_lines()).block(Block::bordered().title(title)), grid);
        frame.render_widget(
            Paragraph::new(self.status_lines()).block(Block::bordered().title(" factor ")),
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
                    CellView::Products => CellView::Sums,
                    CellView::Sums => CellView::Verdicts,
                    CellView::Verdicts => CellView::Products,
                }
            }
            _ => {}
        }
        Flow::Continue
    }

    fn tick(&mut self, now: Instant) -> Duration {
        let au = &mut self.au;
        let wait = self.pace.tick(now, |k| au.run_steps(k));
        self.settled = settled(&self.au);
        wait
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{key, screen};
    use super::*;
    use damier::factor::FactorParams;

    fn view(n: u64, seed: u64) -> FactorWatch {
        FactorWatch::new(FactorAutomaton::new(n, &FactorParams::default(), seed).unwrap(), 1000, true)
    }

    #[test]
    fn single_steps_follow_the_engine() {
        let mut engine = FactorAutomaton::new(143, &FactorParams::default(), 5).unwrap();
        let mut w = view(143, 5);
        for _ in 0..300 {
            w.on_key(key(KeyCode::Char('.')));
            engine.step();
        }
        assert_eq!(
            (w.automaton().steps(), w.automaton().a(), w.automaton().b()),
            (300, engine.a(), engine.b())
        );
        assert_eq!(w.automaton().signals(3, 1), engine.signals(3, 1));
    }

    #[test]
    fn runs_to_the_factorization_and_pauses() {
        let mut w = view(143, 2);
        w.pace.paused = false;
        while !w.automaton().is_absorbing() {
            w.advance(10_000);
        }
        assert!(w.pace.paused);
        let s = screen(&w, 100, 30);
        assert!(s.contains("ABSORBED") && s.contains("143 = 11 x 13"), "{s}");
        assert!(s.contains("stale cells 0"));
    }

    #[test]
    fn keys_cycle_views_and_quit() {
        let mut w = view(35, 1);
        assert_eq!(w.view, CellView::Products);
        for v in [CellView::Sums, CellView::Verdicts, CellView::Products] {
            w.on_key(key(KeyCode::Char('v')));
            assert_eq!(w.view, v);
        }
        let s0 = w.pace.speed;
        w.on_key(key(KeyCode::Char('+')));
        assert_eq!(w.pace.speed, s0 + 1);
        assert_eq!(w.on_key(key(KeyCode::Char('q'))), Flow::Quit);
        assert!(screen(&w, 30, 10).contains("Terminal too small"));
    }

    #[test]
    fn renders_grid_feet_and_panel() {
        let mut w = view(143, 11);
        w.advance(400);
        insta::assert_snapshot!(screen(&w, 84, 26));
    }

    /// Issue 38, section 3: the three rows under the grid had no label.
    #[test]
    fn the_border_and_the_feet_are_labelled() {
        let w = view(143, 11);
        let text = screen(&w, 84, 26);
        let lines: Vec<&str> = text.lines().collect();
        let foot = lines.iter().position(|l| l.contains('─') && l.contains("││")).unwrap();
        for (k, label) in [(1, "a x b (bits)"), (2, "N (bits)"), (3, "agree?")] {
            assert!(lines[foot + k].contains(label), "{text}");
        }
        assert!(lines[1].contains("a (bits)"), "{text}");
    }
}
