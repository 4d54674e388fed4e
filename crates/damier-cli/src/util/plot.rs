//! Plots with plotters' pure-Rust backends; the font is bundled so text renders anywhere.

use std::path::Path;
use std::sync::Once;

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

/// A short axis label: plain decimals for moderate values, `1e-5`-style beyond.
fn tick_label(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e5).contains(&a) {
        let s = format!("{v:.1e}");
        s.replace(".0e", "e")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// One named line of a chart.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points `(x, y)`, in x order.
    pub points: Vec<(f64, f64)>,
}

/// A line chart description; [`LineChart::draw`] writes it as SVG or PNG (atomically).
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

impl LineChart {
    /// Draws the chart to `path` (format from the extension), via a temporary file.
    pub fn draw(&self, path: &Path) -> anyhow::Result<()> {
        let format = format_of(path)?;
        ensure_font();
        let tmp = super::output::temp_path(path);
        let size = (900, 600);
        let result = match format {
            Format::Svg => self.draw_on(plotters::prelude::SVGBackend::new(&tmp, size)),
            Format::Png => self.draw_on(plotters::prelude::BitMapBackend::new(&tmp, size)),
        };
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        super::output::commit(&tmp, path)
    }

    fn draw_on<DB: plotters::prelude::DrawingBackend>(&self, backend: DB) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        use plotters::prelude::*;
        let pts = self.series.iter().flat_map(|s| s.points.iter().copied());
        let keep = |v: f64, log: bool| v.is_finite() && (!log || v > 0.0);
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for (x, y) in pts.filter(|&(x, y)| keep(x, self.log_x) && keep(y, self.log_y)) {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        anyhow::ensure!(x0 <= x1, "nothing to plot: no finite data point");
        let widen = |lo: f64, hi: f64, log: bool| {
            if log {
                (lo / 1.5, hi * 1.5)
            } else {
                let pad = ((hi - lo) * 0.05).max(if hi == 0.0 { 1.0 } else { hi.abs() * 0.05 });
                (lo - pad, hi + pad)
            }
        };
        let (x0, x1) = widen(x0, x1, self.log_x);
        let (y0, y1) = widen(y0, y1, self.log_y);
        let root = backend.into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow::anyhow!("plot: {e}"))?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&self.title, ("sans-serif", 24))
            .margin(20)
            .x_label_area_size(45)
            .y_label_area_size(80);
        let palette = [&BLUE, &RED, &GREEN, &MAGENTA, &CYAN, &BLACK];
        macro_rules! finish {
            ($chart:expr) => {{
                let mut chart = $chart;
                chart
                    .configure_mesh()
                    .x_desc(self.x_label.as_str())
                    .y_desc(self.y_label.as_str())
                    .x_label_formatter(&|v| tick_label(*v))
                    .y_label_formatter(&|v| tick_label(*v))
                    .label_style(("sans-serif", 15))
                    .draw()
                    .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
                for (i, s) in self.series.iter().enumerate() {
                    let color = palette[i % palette.len()];
                    let data: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .copied()
                        .filter(|&(x, y)| keep(x, self.log_x) && keep(y, self.log_y))
                        .collect();
                    chart
                        .draw_series(LineSeries::new(data.clone(), color.stroke_width(2)))
                        .map_err(|e| anyhow::anyhow!("plot: {e}"))?
                        .label(s.name.as_str())
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                        });
                    chart
                        .draw_series(data.into_iter().map(|p| Circle::new(p, 3, color.filled())))
                        .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
                }
                chart
                    .configure_series_labels()
                    .background_style(WHITE.mix(0.8))
                    .border_style(BLACK)
                    .label_font(("sans-serif", 15))
                    .draw()
                    .map_err(|e| anyhow::anyhow!("plot: {e}"))?;
            }};
        }
        let err = |e| anyhow::anyhow!("plot: {e}");
        match (self.log_x, self.log_y) {
            (false, false) => finish!(builder.build_cartesian_2d(x0..x1, y0..y1).map_err(err)?),
            (false, true) => finish!(builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale()).map_err(err)?),
            (true, false) => finish!(builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1).map_err(err)?),
            (true, true) => {
                finish!(builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale()).map_err(err)?)
            }
        }
        root.present().map_err(|e| anyhow::anyhow!("plot: {e}"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(9.999999999e-5), "1e-4");
        assert_eq!(tick_label(2.5e7), "2.5e7");
        assert_eq!(tick_label(12.0), "12");
        assert_eq!(tick_label(0.125), "0.125");
        assert_eq!(tick_label(1000.0), "1000");
    }

    #[test]
    fn draws_svg_and_png_with_text_and_log_axes() {
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
        for name in ["c.svg", "c.png"] {
            let path = dir.path().join(name);
            chart.draw(&path).unwrap();
            assert!(std::fs::metadata(&path).unwrap().len() > 1000, "{name} has content");
        }
        let svg = std::fs::read_to_string(dir.path().join("c.svg")).unwrap();
        assert!(svg.contains("model 1"), "legend text is drawn");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
        assert!(chart.draw(&dir.path().join("c.txt")).is_err());
        if let Ok(keep) = std::env::var("DAMIER_KEEP_PLOT") {
            chart.draw(std::path::Path::new(&keep)).unwrap();
        }
    }
}
