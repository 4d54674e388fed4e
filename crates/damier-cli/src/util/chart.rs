//! One plot style for every chart of the CLI, drawn with plotters' pure-Rust backends (the font
//! is bundled, so text renders anywhere).
//!
//! The style:
//! - log axes are labelled at powers of ten only, written `10⁵` (Unicode superscripts, which the
//!   bundled font has, so SVG and PNG agree), and span whole decades;
//! - integer axes (n) are labelled at integers only, never `4.0`;
//! - intervals are error bars or a shaded band, never extra lines;
//! - censored points (runs stopped by a budget: the value is a lower bound) are hollow
//!   triangles pointing up, explained in the legend;
//! - the Okabe-Ito colour-blind-safe palette, and a different marker per curve;
//! - the legend below the plot, outside the data; a title saying what was run.
//!
//! [`Chart`] is the full description; [`LineChart`] (plain lines) draws through it.

use std::path::Path;
use std::sync::Once;

use image::codecs::png::PngEncoder;
use image::{ColorType, ImageEncoder};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;

/// DejaVu Sans (its license is in `assets/`), registered as plotters' "sans-serif".
static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Registers the bundled font once; call before drawing any text.
pub fn ensure_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = plotters::style::register_font("sans-serif", plotters::style::FontStyle::Normal, FONT);
    });
}

/// The image format to draw, picked from the file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// Portable network graphics.
    Png,
}

/// The format for `path`, or an error naming the accepted extensions.
pub fn format_of(path: &Path) -> anyhow::Result<Format> {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => anyhow::bail!("plot file {} must end in .svg or .png", path.display()),
    }
}

/// The Okabe-Ito palette without its yellow (too pale on white): blue, vermillion, bluish
/// green, orange, reddish purple, sky blue, black.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
];

/// How an axis maps values and where its ticks go.
#[allow(dead_code)] // every variant is part of the style, whether or not a chart uses it today
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Linear, ticks at 1-2-5 steps.
    Linear,
    /// Logarithmic, ticks at powers of ten (`10^k`); values <= 0 are not drawn.
    Log,
    /// Linear with ticks at integers only (for n, counts).
    Integer,
}

/// One axis: its label and scale.
#[derive(Debug, Clone)]
pub struct Axis {
    /// Label, with the unit.
    pub label: String,
    /// Scale.
    pub scale: Scale,
}

/// How a curve shows the interval of its points.
#[allow(dead_code)] // every variant is part of the style, whether or not a chart uses it today
#[derive(Debug, Clone, PartialEq)]
pub enum Interval {
    /// No interval.
    None,
    /// A vertical error bar at each point; the legend says what it is.
    Bars(String),
    /// A shaded band between the lows and the highs; the legend says what it is.
    Band(String),
}

/// A data point, with an optional interval and a censoring flag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// x value.
    pub x: f64,
    /// y value.
    pub y: f64,
    /// Interval `(low, high)` around `y`, if known.
    pub interval: Option<(f64, f64)>,
    /// The value is a lower bound (some runs stopped at a budget).
    pub censored: bool,
}

impl Point {
    /// A plain point.
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y, interval: None, censored: false }
    }
}

/// One curve: points joined by a line (or not), with markers.
#[derive(Debug, Clone)]
pub struct Curve {
    /// Legend label.
    pub name: String,
    /// Points, in x order.
    pub points: Vec<Point>,
    /// How the points' intervals are drawn.
    pub interval: Interval,
    /// Join the points with a line.
    pub line: bool,
}

/// A chart in the common style; [`Chart::draw`] writes it as SVG or PNG (atomically).
#[derive(Debug, Clone)]
pub struct Chart {
    /// Title: what was run (model, n, samples).
    pub title: String,
    /// Lines of small text under the title (parameters, seed).
    pub subtitle: Vec<String>,
    /// x axis.
    pub x: Axis,
    /// y axis.
    pub y: Axis,
    /// The curves, drawn in order, coloured from [`PALETTE`].
    pub curves: Vec<Curve>,
    /// The legend text of the censored marker, when some point is censored.
    pub censored_note: String,
}

/// One named line of a [`LineChart`].
#[allow(dead_code)] // the simple entry point, kept for commands that draw plain lines
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points `(x, y)`, in x order.
    pub points: Vec<(f64, f64)>,
}

/// A plain line chart; [`LineChart::draw`] draws it in the common style (an axis whose
/// values are all integers gets integer ticks).
#[allow(dead_code)] // the simple entry point, kept for commands that draw plain lines
#[derive(Debug, Clone)]
pub struct LineChart {
    /// Title drawn at the top.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// The lines.
    pub series: Vec<Series>,
}

#[allow(dead_code)]
impl LineChart {
    /// Draws the chart to `path` (format from the extension), atomically.
    pub fn draw(&self, path: &Path) -> anyhow::Result<()> {
        self.to_chart().draw(path)
    }

    /// The same chart as a [`Chart`].
    pub fn to_chart(&self) -> Chart {
        let scale = |log: bool, values: Vec<f64>| {
            if log {
                Scale::Log
            } else if values.iter().all(|v| !v.is_finite() || v.fract() == 0.0) {
                Scale::Integer
            } else {
                Scale::Linear
            }
        };
        let all = || self.series.iter().flat_map(|s| s.points.iter().copied());
        Chart {
            title: self.title.clone(),
            subtitle: Vec::new(),
            x: Axis { label: self.x_label.clone(), scale: scale(self.log_x, all().map(|p| p.0).collect()) },
            y: Axis { label: self.y_label.clone(), scale: scale(self.log_y, all().map(|p| p.1).collect()) },
            curves: self
                .series
                .iter()
                .map(|s| Curve {
                    name: s.name.clone(),
                    points: s.points.iter().map(|&(x, y)| Point::new(x, y)).collect(),
                    interval: Interval::None,
                    line: true,
                })
                .collect(),
            censored_note: String::new(),
        }
    }
}

/// `v` with its digits and minus sign as Unicode superscripts.
fn superscript(v: i64) -> String {
    v.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect()
}

/// The label of the power of ten `10^k`: `1` and `10` as such, `10ᵏ` beyond.
fn power_label(k: i64) -> String {
    match k {
        0 => "1".into(),
        1 => "10".into(),
        _ => format!("10{}", superscript(k)),
    }
}

/// A linear tick label: plain decimals in a moderate range, `a·10ᵏ` beyond.
fn linear_label(v: f64, step: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        let k = a.log10().floor() as i64;
        let m = v / 10f64.powi(k as i32);
        let m = format!("{m:.2}");
        let m = m.trim_end_matches('0').trim_end_matches('.');
        return if m == "1" { power_label(k) } else { format!("{m}·{}", power_label(k)) };
    }
    let decimals = if step >= 1.0 { 0 } else { (-step.log10().floor()) as usize };
    format!("{v:.decimals$}")
}

/// A number for a title or legend in the chart style: `5·10⁷`, `10¹⁰`, or plain below 10^5
/// (text and messages write numbers with `damier::util::number`: `5e7`).
pub fn label(v: f64) -> String {
    linear_label(v, 1.0)
}

/// The smallest step from 1-2-5 times a power of ten giving at most `max` ticks over `span`.
fn nice_step(span: f64, max: usize, at_least: f64) -> f64 {
    let raw = (span / max as f64).max(at_least);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|&s| s >= raw).unwrap_or(10.0 * p).max(at_least)
}

/// An axis ready to draw: the drawn range (log axes in log10 units), the ticks and labels.
#[derive(Debug, Clone, PartialEq)]
struct Ticks {
    range: (f64, f64),
    major: Vec<f64>,
    minor: Vec<f64>,
    labels: Vec<String>,
}

impl Ticks {
    fn label(&self, v: f64) -> String {
        self.major
            .iter()
            .position(|&m| (m - v).abs() <= 1e-9 * (1.0 + m.abs()))
            .map(|i| self.labels[i].clone())
            .unwrap_or_default()
    }
}

/// An axis range whose tick positions are ours ([`Ticks`]), for plotters.
#[derive(Clone)]
struct TickRange {
    range: (f64, f64),
    major: Vec<f64>,
    minor: Vec<f64>,
}

impl Ranged for TickRange {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let t = (v - self.range.0) / (self.range.1 - self.range.0);
        limit.0 + (f64::from(limit.1 - limit.0) * t).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() { self.minor.clone() } else { self.major.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.range.0..self.range.1
    }
}

/// Transformed value on `scale` (log10 on log axes), or `None` if it cannot be drawn.
fn to_axis(v: f64, scale: Scale) -> Option<f64> {
    match scale {
        Scale::Log if v > 0.0 && v.is_finite() => Some(v.log10()),
        Scale::Log => None,
        _ if v.is_finite() => Some(v),
        _ => None,
    }
}

/// Ticks for data spanning `[lo, hi]` (already transformed).
fn ticks(lo: f64, hi: f64, scale: Scale) -> Ticks {
    match scale {
        Scale::Log => {
            // Whole decades, at least one: every major tick is a power of ten.
            let (mut a, mut b) = (lo.floor(), hi.ceil());
            if a == b {
                a -= 0.5;
                b += 0.5;
            }
            let decades = (b - a).ceil() as i64;
            let every = if decades > 12 { (decades + 11) / 12 } else { 1 };
            let first = a.ceil() as i64;
            let major: Vec<f64> =
                (first..=b.floor() as i64).filter(|k| (k - first) % every == 0).map(|k| k as f64).collect();
            let labels = major.iter().map(|&k| power_label(k as i64)).collect();
            let minor = if every == 1 {
                (a.floor() as i64..b.ceil() as i64)
                    .flat_map(|k| (2..10).map(move |m| k as f64 + f64::from(m).log10()))
                    .filter(|&t| t > a && t < b)
                    .collect()
            } else {
                Vec::new()
            };
            Ticks { range: (a, b), major, minor, labels }
        }
        Scale::Integer => {
            let (a, b) = (lo.floor(), hi.ceil());
            let step = nice_step(b - a, 15, 1.0);
            let major: Vec<f64> =
                ((a / step).ceil() as i64..=(b / step).floor() as i64).map(|i| i as f64 * step).collect();
            let labels = major.iter().map(|&v| format!("{}", v as i64)).collect();
            Ticks { range: (a - 0.5, b + 0.5), major, minor: Vec::new(), labels }
        }
        Scale::Linear => {
            let (lo, hi) = if lo == hi { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
            let step = nice_step(hi - lo, 8, f64::MIN_POSITIVE);
            let (a, b) = ((lo / step).floor() * step, (hi / step).ceil() * step);
            let major: Vec<f64> =
                ((a / step).round() as i64..=(b / step).round() as i64).map(|i| i as f64 * step).collect();
            let labels = major.iter().map(|&v| linear_label(v, step)).collect();
            Ticks { range: (a, b), major, minor: Vec::new(), labels }
        }
    }
}

/// The marker drawn for curve `i`: filled, one shape per curve.
fn marker<'a, DB: DrawingBackend + 'a>(
    i: usize,
    at: (f64, f64),
    color: RGBColor,
) -> DynElement<'a, DB, (f64, f64)> {
    let style = color.filled();
    match i % 4 {
        0 => (EmptyElement::at(at) + Circle::new((0, 0), 4, style)).into_dyn(),
        1 => (EmptyElement::at(at) + Rectangle::new([(-4, -4), (4, 4)], style)).into_dyn(),
        2 => (EmptyElement::at(at) + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], style)).into_dyn(),
        _ => (EmptyElement::at(at) + Cross::new((0, 0), 4, color.stroke_width(2))).into_dyn(),
    }
}

/// The censored marker: a hollow triangle pointing up (the value is a lower bound).
fn censored_marker<'a, DB: DrawingBackend + 'a>(
    at: (f64, f64),
    color: RGBColor,
) -> DynElement<'a, DB, (f64, f64)> {
    (EmptyElement::at(at)
        + Polygon::new(vec![(0, -8), (7, 5), (-7, 5)], WHITE.filled())
        + PathElement::new(vec![(0, -8), (7, 5), (-7, 5), (0, -8)], color.stroke_width(2)))
    .into_dyn()
}

/// A legend entry's sample drawing.
enum Sample {
    Curve(usize, bool),
    Bar(usize),
    Band(usize),
    Censored,
}

fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("plot: {e}")
}

/// Draws `charts` one above the other, as the panels of one figure, to `path` (format from the
/// extension), atomically. The picture is made in memory and written by the CLI's one file
/// writer: the backends' own file writers lose the error of a write that fails (plotters' SVG
/// writer drops its buffer unflushed).
pub fn draw_panels(charts: &[&Chart], path: &Path) -> anyhow::Result<()> {
    let format = format_of(path)?;
    ensure_font();
    let size = (SIZE.0, charts.iter().map(|c| c.height()).sum());
    fn panels<'a, DB: DrawingBackend + 'a>(
        charts: &[&Chart],
        root: DrawingArea<DB, Shift>,
    ) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let mut rest = root.clone();
        for c in charts {
            let (this, below) = rest.split_vertically(c.height());
            c.draw_on(this)?;
            rest = below;
        }
        // Once, for the whole picture: the SVG backend closes its document here.
        root.present().map_err(plot_err)
    }
    let bytes = match format {
        Format::Svg => {
            let mut svg = String::new();
            panels(charts, SVGBackend::with_string(&mut svg, size).into_drawing_area())?;
            svg.into_bytes()
        }
        Format::Png => {
            let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
            panels(charts, BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area())?;
            let mut png = Vec::new();
            PngEncoder::new(&mut png).write_image(&rgb, size.0, size.1, ColorType::Rgb8).map_err(plot_err)?;
            png
        }
    };
    super::output::write_bytes(path, super::output::Durability::Renamed, &bytes)
}

/// Width and base height of every chart, in pixels; the legend adds rows below.
const SIZE: (u32, u32) = (960, 600);
/// Height of one legend row.
const LEGEND_ROW: u32 = 24;

impl Chart {
    /// Draws the chart to `path` (format from the extension), atomically (see [`draw_panels`]).
    pub fn draw(&self, path: &Path) -> anyhow::Result<()> {
        draw_panels(&[self], path)
    }

    /// Height of the chart in pixels: the plot and its legend.
    fn height(&self) -> u32 {
        SIZE.1 + LEGEND_ROW * self.legend().len() as u32 + 10
    }

    /// The legend entries, in order.
    fn legend(&self) -> Vec<(Sample, String)> {
        let mut out = Vec::new();
        for (i, c) in self.curves.iter().enumerate() {
            out.push((Sample::Curve(i, c.line), c.name.clone()));
            match &c.interval {
                Interval::Bars(what) => out.push((Sample::Bar(i), what.clone())),
                Interval::Band(what) => out.push((Sample::Band(i), what.clone())),
                Interval::None => {}
            }
        }
        if self.curves.iter().flat_map(|c| &c.points).any(|p| p.censored) {
            let note = if self.censored_note.is_empty() {
                "censored: some runs stopped at the budget, the value is a lower bound"
            } else {
                self.censored_note.as_str()
            };
            out.push((Sample::Censored, note.to_string()));
        }
        out
    }

    fn draw_on<'a, DB: DrawingBackend + 'a>(&self, root: DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let (xs, ys) = (self.x.scale, self.y.scale);
        let mut bounds = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for p in self.curves.iter().flat_map(|c| &c.points) {
            let (Some(x), Some(y)) = (to_axis(p.x, xs), to_axis(p.y, ys)) else { continue };
            let (lo, hi) = p.interval.map_or((y, y), |(l, h)| {
                (to_axis(l, ys).unwrap_or(y).min(y), to_axis(h, ys).unwrap_or(y).max(y))
            });
            bounds = (bounds.0.min(x), bounds.1.max(x), bounds.2.min(lo), bounds.3.max(hi));
        }
        anyhow::ensure!(bounds.0 <= bounds.1, "nothing to plot: no point with finite coordinates");
        let tx = ticks(bounds.0, bounds.1, xs);
        let ty = ticks(bounds.2, bounds.3, ys);
        root.fill(&WHITE).map_err(plot_err)?;
        let legend = self.legend();
        let legend_height = LEGEND_ROW * legend.len() as u32 + 10;
        let (top, bottom) = root.split_vertically(root.dim_in_pixel().1 - legend_height);
        let title_lines = 1 + self.subtitle.len() as i32;
        let (title_area, plot_area) = top.split_vertically(12 + 30 + 20 * (title_lines - 1));
        title_area
            .draw_text(&self.title, &("sans-serif", 22).into_text_style(&title_area), (15, 10))
            .map_err(plot_err)?;
        for (k, line) in self.subtitle.iter().enumerate() {
            title_area
                .draw_text(line, &("sans-serif", 15).into_text_style(&title_area), (15, 40 + 20 * k as i32))
                .map_err(plot_err)?;
        }
        let mut builder = ChartBuilder::on(&plot_area);
        builder.margin_left(15).margin_right(30).margin_top(5).x_label_area_size(55).y_label_area_size(90);
        let axis = |t: &Ticks| TickRange { range: t.range, major: t.major.clone(), minor: t.minor.clone() };
        let mut chart = builder.build_cartesian_2d(axis(&tx), axis(&ty)).map_err(plot_err)?;
        let (fx, fy) = (|v: &f64| tx.label(*v), |v: &f64| ty.label(*v));
        chart
            .configure_mesh()
            .x_desc(self.x.label.as_str())
            .y_desc(self.y.label.as_str())
            .x_label_formatter(&fx)
            .y_label_formatter(&fy)
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 17))
            .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD).stroke_width(1))
            .light_line_style(RGBColor(0xF2, 0xF2, 0xF2).stroke_width(1))
            .axis_style(BLACK.stroke_width(1))
            .draw()
            .map_err(plot_err)?;
        for (i, c) in self.curves.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let pts: Vec<(Point, f64, f64)> =
                c.points.iter().filter_map(|p| Some((*p, to_axis(p.x, xs)?, to_axis(p.y, ys)?))).collect();
            let span = |p: &Point| p.interval.and_then(|(l, h)| Some((to_axis(l, ys)?, to_axis(h, ys)?)));
            if let Interval::Band(_) = c.interval {
                let with: Vec<(f64, (f64, f64))> =
                    pts.iter().filter_map(|(p, x, _)| span(p).map(|s| (*x, s))).collect();
                if with.len() >= 2 {
                    let mut poly: Vec<(f64, f64)> = with.iter().map(|&(x, (_, h))| (x, h)).collect();
                    poly.extend(with.iter().rev().map(|&(x, (l, _))| (x, l)));
                    chart
                        .draw_series(std::iter::once(Polygon::new(poly, color.mix(0.18).filled())))
                        .map_err(plot_err)?;
                }
            }
            if let Interval::Bars(_) = c.interval {
                for (p, x, _) in &pts {
                    if let Some((l, h)) = span(p) {
                        let style = color.stroke_width(2);
                        let area = chart.plotting_area();
                        area.draw(&PathElement::new(vec![(*x, l), (*x, h)], style)).map_err(plot_err)?;
                        for end in [l, h] {
                            area.draw(
                                &(EmptyElement::at((*x, end))
                                    + PathElement::new(vec![(-5, 0), (5, 0)], style)),
                            )
                            .map_err(plot_err)?;
                        }
                    }
                }
            }
            if c.line {
                chart
                    .draw_series(LineSeries::new(pts.iter().map(|(_, x, y)| (*x, *y)), color.stroke_width(2)))
                    .map_err(plot_err)?;
            }
            for (p, x, y) in &pts {
                let m =
                    if p.censored { censored_marker((*x, *y), color) } else { marker(i, (*x, *y), color) };
                chart.plotting_area().draw(&m).map_err(plot_err)?;
            }
        }
        // The legend, below the plot: a sample and its text per row.
        for (row, (sample, text)) in legend.iter().enumerate() {
            let y = 5 + LEGEND_ROW as i32 * row as i32 + LEGEND_ROW as i32 / 2;
            let x0 = 110;
            match *sample {
                Sample::Curve(i, line) => {
                    let color = PALETTE[i % PALETTE.len()];
                    if line {
                        bottom
                            .draw(&PathElement::new(vec![(x0, y), (x0 + 36, y)], color.stroke_width(2)))
                            .map_err(plot_err)?;
                    }
                    let m: DynElement<'a, DB, (i32, i32)> = match i % 4 {
                        0 => (EmptyElement::at((x0 + 18, y)) + Circle::new((0, 0), 4, color.filled()))
                            .into_dyn(),
                        1 => (EmptyElement::at((x0 + 18, y))
                            + Rectangle::new([(-4, -4), (4, 4)], color.filled()))
                        .into_dyn(),
                        2 => (EmptyElement::at((x0 + 18, y))
                            + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], color.filled()))
                        .into_dyn(),
                        _ => (EmptyElement::at((x0 + 18, y)) + Cross::new((0, 0), 4, color.stroke_width(2)))
                            .into_dyn(),
                    };
                    bottom.draw(&m).map_err(plot_err)?;
                }
                Sample::Bar(i) => {
                    let style = PALETTE[i % PALETTE.len()].stroke_width(2);
                    bottom
                        .draw(&PathElement::new(vec![(x0 + 18, y - 9), (x0 + 18, y + 9)], style))
                        .map_err(plot_err)?;
                    for dy in [-9, 9] {
                        bottom
                            .draw(&PathElement::new(vec![(x0 + 13, y + dy), (x0 + 23, y + dy)], style))
                            .map_err(plot_err)?;
                    }
                }
                Sample::Band(i) => {
                    let fill = PALETTE[i % PALETTE.len()].mix(0.18).filled();
                    bottom.draw(&Rectangle::new([(x0, y - 8), (x0 + 36, y + 8)], fill)).map_err(plot_err)?;
                }
                Sample::Censored => {
                    bottom
                        .draw(
                            &(EmptyElement::at((x0 + 18, y))
                                + Polygon::new(vec![(0, -8), (7, 5), (-7, 5)], WHITE.filled())
                                + PathElement::new(
                                    vec![(0, -8), (7, 5), (-7, 5), (0, -8)],
                                    BLACK.stroke_width(2),
                                )),
                        )
                        .map_err(plot_err)?;
                }
            }
            let style =
                ("sans-serif", 16).into_text_style(&bottom).pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Left,
                    plotters::style::text_anchor::VPos::Center,
                ));
            bottom.draw_text(text, &style, (x0 + 48, y)).map_err(plot_err)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks_are_powers_of_ten_with_superscripts() {
        let t = ticks(-3.2, 4.7, Scale::Log);
        assert_eq!(t.range, (-4.0, 5.0));
        assert_eq!(t.major, (-4..=5).map(f64::from).collect::<Vec<_>>());
        assert_eq!(t.label(-3.0), "10⁻³");
        assert_eq!(t.label(0.0), "1");
        assert_eq!(t.label(1.0), "10");
        assert_eq!(t.label(4.0), "10⁴");
        assert_eq!(t.minor.len(), 9 * 8, "2..9 times each power of ten");
        // Many decades: every other power, still powers of ten only.
        let t = ticks(-9.0, 20.0, Scale::Log);
        assert!(t.major.len() <= 15 && t.major.iter().all(|k| k.fract() == 0.0));
        // Less than a decade: still a power of ten on the axis.
        let t = ticks(2.1, 2.3, Scale::Log);
        assert_eq!(t.major, vec![2.0, 3.0]);
    }

    #[test]
    fn integer_ticks_are_integers() {
        let t = ticks(4.0, 16.0, Scale::Integer);
        assert_eq!(t.major, (4..=16).map(f64::from).collect::<Vec<_>>());
        assert_eq!(t.label(6.0), "6");
        assert_eq!(t.range, (3.5, 16.5));
        let t = ticks(1.0, 300.0, Scale::Integer);
        assert!(t.major.len() <= 16 && t.major.iter().all(|v| v.fract() == 0.0));
    }

    #[test]
    fn linear_labels_are_short() {
        let t = ticks(0.0, 1.0, Scale::Linear);
        assert_eq!(t.label(0.4), "0.4");
        assert_eq!(linear_label(2.5e7, 1e7), "2.5·10⁷");
        assert_eq!(linear_label(1e8, 1e7), "10⁸");
        assert_eq!(linear_label(12.0, 2.0), "12");
        assert_eq!(linear_label(0.125, 0.005), "0.125");
        assert_eq!(label(5e7), "5·10⁷");
        assert_eq!(label(1e10), "10¹⁰");
        assert_eq!(label(30.0), "30");
    }

    #[test]
    fn draws_svg_and_png_with_text_bars_bands_and_censored_points() {
        let dir = tempfile::tempdir().unwrap();
        let point =
            |x: f64, y: f64, censored: bool| Point { x, y, interval: Some((y * 0.7, y * 1.4)), censored };
        let chart = Chart {
            title: "model pair, n = 4..6, 30 runs".into(),
            subtitle: vec!["eps = 0.01, seed 1".into()],
            x: Axis { label: "n".into(), scale: Scale::Integer },
            y: Axis { label: "steps".into(), scale: Scale::Log },
            curves: vec![
                Curve {
                    name: "model 1".into(),
                    points: vec![point(4.0, 10.0, false), point(5.0, 100.0, false), point(6.0, 1e4, true)],
                    interval: Interval::Bars("95% interval of the mean".into()),
                    line: true,
                },
                Curve {
                    name: "1/d".into(),
                    points: vec![point(4.0, 20.0, false), point(6.0, 2e3, false)],
                    interval: Interval::Band("band".into()),
                    line: true,
                },
            ],
            censored_note: String::new(),
        };
        for name in ["c.svg", "c.png"] {
            let path = dir.path().join(name);
            chart.draw(&path).unwrap();
            assert!(std::fs::metadata(&path).unwrap().len() > 1000, "{name} has content");
        }
        let svg = std::fs::read_to_string(dir.path().join("c.svg")).unwrap();
        for text in ["model 1", "10⁴", "censored", "95% interval", "model pair"] {
            assert!(svg.contains(text), "{text} is drawn");
        }
        assert!(svg.contains("#0072B2") || svg.contains("#0072b2"), "Okabe-Ito blue");
        assert!(!svg.contains("4.0<"), "integer ticks");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "no temporary file left");
        assert!(chart.draw(&dir.path().join("c.txt")).is_err());
        if let Ok(keep) = std::env::var("DAMIER_KEEP_PLOT") {
            chart.draw(std::path::Path::new(&keep)).unwrap();
        }
    }

    #[test]
    fn line_chart_keeps_working_in_the_new_style() {
        let dir = tempfile::tempdir().unwrap();
        let chart = LineChart {
            title: "steps against n".into(),
            x_label: "n".into(),
            y_label: "steps".into(),
            log_x: false,
            log_y: true,
            series: vec![
                Series { name: "model 1".into(), points: vec![(4.0, 10.0), (5.0, 100.0), (6.0, 1e4)] },
                Series { name: "1/d".into(), points: vec![(4.0, 20.0), (5.0, 0.0), (6.0, 2e3)] },
            ],
        };
        assert_eq!(chart.to_chart().x.scale, Scale::Integer);
        let path = dir.path().join("l.svg");
        chart.draw(&path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("model 1") && svg.contains("10³"));
    }
}
