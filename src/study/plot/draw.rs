//! The chart shapes, drawn with plotters' SVG backend: a "forest" (one row per agent, action or
//! candidate, an estimate with its 95% interval bar), a histogram with interval whiskers, and a
//! curve against a log axis. Text is written as SVG `<text>` (no font files are read).

use super::label::{decimals, text_px};
use super::read::Est;
use plotters::coord::ranged1d::{AsRangedCoord, DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The drawing area of one SVG.
pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// The colours of series, distinguishable by colour-blind readers (Okabe and Ito).
pub(crate) const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
];
/// The colour of interval bars (`#222222`).
pub(crate) const INTERVAL: RGBColor = RGBColor(34, 34, 34);
/// The colour of the zero line (`#888888`).
pub const ZERO: RGBColor = RGBColor(136, 136, 136);
const FONT: &str = "sans-serif";
/// Font sizes in plotters' units (the SVG's pixels are these / 1.24).
const TITLE: f64 = 26.0;
const CAPTION: f64 = 20.0;
const TEXT: f64 = 17.0;
/// The width of every chart, in pixels.
pub(crate) const WIDTH: u32 = 960;
const ROW_PX: u32 = 34;

/// An error of plotters as an `anyhow` error.
pub fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the chart: {e}")
}

/// Draws `f` on a white `WIDTH × height` SVG titled `title` and returns the SVG text.
pub fn svg(
    height: u32,
    title: &str,
    f: impl FnOnce(&Area) -> anyhow::Result<()>,
) -> anyhow::Result<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let body = root
            .titled(title, (FONT, TITLE).into_font().style(FontStyle::Bold))
            .map_err(err)?;
        f(&body)?;
        root.present().map_err(err)?;
    }
    Ok(text)
}

/// The height the title takes.
pub(crate) const TITLE_PX: u32 = 40;

/// One row of a forest chart.
pub struct Item {
    /// The label left of the axis.
    pub label: String,
    /// The estimate and its interval.
    pub(crate) est: Est,
    /// The bar or point colour.
    pub(crate) color: RGBColor,
}

/// How a forest shows each estimate.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Mark {
    /// A bar from zero (shares).
    Bar,
    /// A point (differences, means).
    Point,
}

/// A forest chart: rows top to bottom, an estimate and its interval bar on each.
pub(crate) struct Forest<'a> {
    /// The caption above the panel.
    pub(crate) caption: String,
    /// The x axis description, with its unit.
    pub(crate) x_desc: String,
    /// The rows, top first.
    pub items: Vec<Item>,
    /// Bars or points.
    pub(crate) mark: Mark,
    /// Draw a vertical line at zero (difference charts).
    pub(crate) zero_line: bool,
    /// The value printed right of each interval.
    pub value: &'a dyn Fn(&Est) -> String,
    /// The tick labels of the x axis.
    pub(crate) x_fmt: &'a dyn Fn(f64) -> String,
    /// Colour legend entries (empty: none).
    pub(crate) legend: Vec<(String, RGBColor)>,
    /// Rows after which a thin separator is drawn (e.g. between tuning rounds).
    pub breaks: Vec<usize>,
}

/// The pixel height a forest needs: its rows, and room above them for its legend.
pub(crate) fn forest_height(f: &Forest) -> u32 {
    90 + 60 + ROW_PX * f.items.len() as u32 + legend_px(f.legend.len())
}

/// The height of a legend of `entries` entries (0 for none).
fn legend_px(entries: usize) -> u32 {
    if entries == 0 {
        0
    } else {
        24 * entries as u32 + 24
    }
}

/// The pixel width of the label area for these labels.
pub(crate) fn label_width(labels: impl Iterator<Item = String>) -> u32 {
    labels.map(|l| text_px(&l, TEXT / 1.24)).max().unwrap_or(0) + 20
}

/// Draws a forest on `area`, with `label_px` pixels for the row labels.
pub(crate) fn forest(area: &Area, f: &Forest, label_px: u32) -> anyhow::Result<()> {
    let n = f.items.len();
    let plot_px = area.dim_in_pixel().0.saturating_sub(label_px + 40).max(100);
    let text_w = f
        .items
        .iter()
        .map(|i| text_px(&(f.value)(&i.est), TEXT / 1.24))
        .max()
        .unwrap_or(0)
        + 14;
    let (x0, x1) = x_range(f, plot_px, text_w);
    let labels: Vec<String> = f.items.iter().map(|i| i.label.clone()).collect();
    let y_of = |i: usize| (n - 1 - i) as f64;
    let keys = (0..n).map(|i| i as f64).collect();
    let top = n as f64 - 0.4 + f64::from(legend_px(f.legend.len())) / f64::from(ROW_PX);
    let mut chart = ChartBuilder::on(area)
        .caption(&f.caption, (FONT, CAPTION))
        .margin(12)
        .margin_right(36)
        .x_label_area_size(56)
        .y_label_area_size(label_px)
        .build_cartesian_2d(x0..x1, ticks(-0.6..top, keys))
        .map_err(err)?;
    let ylab = |y: &f64| {
        let row = n as f64 - 1.0 - y.round();
        labels.get(row as usize).cloned().unwrap_or_default()
    };
    let xlab = |x: &f64| (f.x_fmt)(*x);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .max_light_lines(0)
        .bold_line_style(RGBColor(225, 225, 225))
        .y_label_formatter(&ylab)
        .x_label_formatter(&xlab)
        .x_labels(8)
        .x_desc(&f.x_desc)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .draw()
        .map_err(err)?;
    for &b in &f.breaks {
        let y = y_of(b) + 0.5;
        hline(&mut chart, y, x0, x1)?;
    }
    if f.zero_line {
        let line = vec![(0.0, -0.6), (0.0, top)];
        chart
            .draw_series(std::iter::once(PathElement::new(
                line,
                ZERO.stroke_width(2),
            )))
            .map_err(err)?;
    }
    for (i, item) in f.items.iter().enumerate() {
        let y = y_of(i);
        mark(&mut chart, f.mark, item, y)?;
        interval_h(&mut chart, &item.est, y)?;
        // The figures on a white box, so the zero line or a grid line does not cross them.
        let text = (f.value)(&item.est);
        let w = text_px(&text, TEXT / 1.24) as i32;
        let at = EmptyElement::at((item.est.hi.max(item.est.mid), y))
            + Rectangle::new([(5, -10), (w + 11, 10)], WHITE.filled())
            + Text::new(text, (8, 0), left_text());
        chart.draw_series(std::iter::once(at)).map_err(err)?;
    }
    legend(&mut chart, &f.legend)
}

type Chart<'a, 'b, X> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, RangedCoordf64>>;
type ForestChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, Ticks<RangedCoordf64>>>;

/// A coordinate with ticks exactly at the given values (plotters' `WithKeyPoints` over `f64`
/// cannot take a label formatter).
pub(crate) struct Ticks<R> {
    inner: R,
    keys: Vec<f64>,
}

/// `range` with ticks at `keys`.
fn ticks<R: AsRangedCoord<Value = f64>>(range: R, keys: Vec<f64>) -> Ticks<R::CoordDescType> {
    Ticks {
        inner: range.into(),
        keys,
    }
}

impl<R: Ranged<ValueType = f64>> Ranged for Ticks<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.keys.clone()
        }
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> std::ops::Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

/// The x range: the intervals (and zero for bars and difference charts), padded, with room on
/// the right for the value text (`text_w` of `plot_px` pixels).
fn x_range(f: &Forest, plot_px: u32, text_w: u32) -> (f64, f64) {
    let with_zero = f.zero_line || f.mark == Mark::Bar;
    let lo = f
        .items
        .iter()
        .map(|i| i.est.lo.min(i.est.mid))
        .fold(if with_zero { 0.0 } else { f64::INFINITY }, f64::min);
    let hi = f
        .items
        .iter()
        .map(|i| i.est.hi.max(i.est.mid))
        .fold(if with_zero { 0.0 } else { f64::NEG_INFINITY }, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let lo = if f.mark == Mark::Bar && lo >= 0.0 {
        0.0
    } else {
        lo - 0.05 * span
    };
    let text = f64::from(text_w) / f64::from(plot_px.saturating_sub(text_w).max(1));
    (lo, hi + span * (0.03 + text.min(2.0)))
}

fn left_text() -> TextStyle<'static> {
    (FONT, TEXT)
        .into_font()
        .color(&RGBColor(40, 40, 40))
        .pos(Pos::new(HPos::Left, VPos::Center))
}

fn hline(chart: &mut ForestChart, y: f64, x0: f64, x1: f64) -> anyhow::Result<()> {
    let line = vec![(x0, y), (x1, y)];
    chart
        .draw_series(std::iter::once(PathElement::new(
            line,
            RGBColor(190, 190, 190).stroke_width(1),
        )))
        .map_err(err)?;
    Ok(())
}

fn mark(chart: &mut ForestChart, m: Mark, item: &Item, y: f64) -> anyhow::Result<()> {
    match m {
        Mark::Bar => chart
            .draw_series(std::iter::once(Rectangle::new(
                [(0.0, y - 0.3), (item.est.mid, y + 0.3)],
                item.color.mix(0.85).filled(),
            )))
            .map(|_| ()),
        Mark::Point => chart
            .draw_series(std::iter::once(Circle::new(
                (item.est.mid, y),
                6,
                item.color.filled(),
            )))
            .map(|_| ()),
    }
    .map_err(err)
}

/// A horizontal interval bar with end caps, as one polyline.
fn interval_h(chart: &mut ForestChart, e: &Est, y: f64) -> anyhow::Result<()> {
    let c = 0.18;
    let path = vec![
        (e.lo, y - c),
        (e.lo, y + c),
        (e.lo, y),
        (e.hi, y),
        (e.hi, y + c),
        (e.hi, y - c),
    ];
    chart
        .draw_series(std::iter::once(PathElement::new(
            path,
            INTERVAL.stroke_width(2),
        )))
        .map_err(err)?;
    Ok(())
}

/// A vertical interval bar with end caps `cap` wide (in x units), as one polyline.
fn interval_v<X: Ranged<ValueType = f64>>(
    chart: &mut Chart<X>,
    x: f64,
    e: &Est,
    cap: (f64, f64),
    stroke: u32,
) -> anyhow::Result<()> {
    let path = vec![
        (cap.0, e.lo),
        (cap.1, e.lo),
        (x, e.lo),
        (x, e.hi),
        (cap.0, e.hi),
        (cap.1, e.hi),
    ];
    chart
        .draw_series(std::iter::once(PathElement::new(
            path,
            INTERVAL.stroke_width(stroke),
        )))
        .map_err(err)?;
    Ok(())
}

/// Legend entries as colour boxes, at the lower right.
fn legend<'a, 'b: 'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    entries: &[(String, RGBColor)],
) -> anyhow::Result<()>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    if entries.is_empty() {
        return Ok(());
    }
    for (name, color) in entries {
        let color = *color;
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, TEXT))
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(160, 160, 160))
        .draw()
        .map_err(err)
}

/// One series of a histogram: bars at integer values.
pub(crate) struct Bars {
    /// The legend name.
    pub name: String,
    /// `(value, share)` pairs.
    pub(crate) bars: Vec<(f64, Est)>,
}

/// A histogram of shares with interval whiskers; several series side by side.
pub(crate) struct Histogram {
    /// The caption above the panel.
    pub(crate) caption: String,
    /// The x axis description.
    pub(crate) x_desc: String,
    /// The y axis description.
    pub(crate) y_desc: String,
    /// The series.
    pub(crate) series: Vec<Bars>,
}

/// The height of a histogram panel.
pub(crate) const HIST_PX: u32 = 520;

/// The extent of a histogram: the smallest and largest bar value, the smallest gap between
/// bar values (1 for a single value), and the top of the y axis (room above the highest
/// whisker, more with several series side by side).
fn histogram_bounds(h: &Histogram) -> (f64, f64, f64, f64) {
    let mut values: Vec<f64> = h
        .series
        .iter()
        .flat_map(|s| s.bars.iter().map(|b| b.0))
        .collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let (vmin, vmax) = (values[0], values[values.len() - 1]);
    let gap = values
        .windows(2)
        .map(|w| w[1] - w[0])
        .fold(f64::INFINITY, f64::min);
    let gap = if gap.is_finite() { gap } else { 1.0 };
    let top = h
        .series
        .iter()
        .flat_map(|s| s.bars.iter().map(|b| b.1.hi.max(b.1.mid)))
        .fold(0.0, f64::max);
    let room = if h.series.len() > 1 {
        0.1 * h.series.len() as f64
    } else {
        0.0
    };
    let top = if top > 0.0 { top * (1.1 + room) } else { 1.0 };
    (vmin, vmax, gap, top)
}

/// Draws a histogram on `area`.
pub(crate) fn histogram(area: &Area, h: &Histogram) -> anyhow::Result<()> {
    let (vmin, vmax, gap, top) = histogram_bounds(h);
    let (x0, x1) = (vmin - 0.6 * gap, vmax + 0.6 * gap);
    let mut chart = ChartBuilder::on(area)
        .caption(&h.caption, (FONT, CAPTION))
        .margin(12)
        .margin_right(36)
        .x_label_area_size(56)
        .y_label_area_size(80)
        .build_cartesian_2d(ticks(x0..x1, tick_values(vmin, vmax, gap)), 0.0..top)
        .map_err(err)?;
    let d = decimals(top * 100.0).saturating_sub(1);
    let ylab = |y: &f64| format!("{:.*}%", d, 100.0 * y);
    let xd = decimals(gap).saturating_sub(2);
    let xlab = |x: &f64| format!("{x:.xd$}");
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(0)
        .bold_line_style(RGBColor(225, 225, 225))
        .y_label_formatter(&ylab)
        .x_label_formatter(&xlab)
        .x_desc(&h.x_desc)
        .y_desc(&h.y_desc)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .draw()
        .map_err(err)?;
    let w = 0.8 * gap / h.series.len() as f64;
    let plot_px = f64::from(area.dim_in_pixel().0.saturating_sub(130));
    // Narrow bars get thin whiskers without caps, so the whiskers do not hide the bars.
    let wide = plot_px * w / (x1 - x0) >= 5.0;
    for (k, s) in h.series.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        for (v, e) in &s.bars {
            let left = v - 0.4 * gap + k as f64 * w;
            let rect = Rectangle::new([(left, 0.0), (left + w, e.mid)], color.mix(0.85).filled());
            chart.draw_series(std::iter::once(rect)).map_err(err)?;
            let x = left + w / 2.0;
            let cap = (w * 0.25).min(6.0 * (x1 - x0) / plot_px);
            let (cap, stroke) = if wide { (cap, 2) } else { (0.0, 1) };
            interval_v(&mut chart, x, e, (x - cap, x + cap), stroke)?;
        }
    }
    if let [only] = h.series.as_slice() {
        shares_above(&mut chart, only)?;
    }
    let entries: Vec<(String, RGBColor)> = if h.series.len() > 1 {
        h.series
            .iter()
            .enumerate()
            .map(|(k, s)| (s.name.clone(), PALETTE[k % PALETTE.len()]))
            .collect()
    } else {
        Vec::new()
    };
    legend(&mut chart, &entries)
}

/// A single series of at most 16 bars gets each share written above its whisker, with enough
/// decimals to show a third of the widest interval.
fn shares_above<X: Ranged<ValueType = f64>>(chart: &mut Chart<X>, s: &Bars) -> anyhow::Result<()> {
    if s.bars.len() > 16 {
        return Ok(());
    }
    let widest = s.bars.iter().map(|b| b.1.hi - b.1.lo).fold(0.0, f64::max);
    let d = decimals(100.0 * widest / 3.0).saturating_sub(1).min(3);
    let style = (FONT, TEXT)
        .into_font()
        .color(&RGBColor(40, 40, 40))
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    for (v, e) in &s.bars {
        let text = format!("{:.*}%", d, 100.0 * e.mid);
        let at = EmptyElement::at((*v, e.hi.max(e.mid))) + Text::new(text, (0, -6), style.clone());
        chart.draw_series(std::iter::once(at)).map_err(err)?;
    }
    Ok(())
}

/// The most ticks an axis gets (a bound on the loop, whatever the values).
const MAX_TICKS: usize = 64;

/// Ticks of a histogram's value axis: every value when there are at most 30, otherwise the
/// multiples of a round step (1, 2 or 5 times a power of ten, at least `gap`) in range; at most
/// [`MAX_TICKS`].
fn tick_values(vmin: f64, vmax: f64, gap: f64) -> Vec<f64> {
    let slots = ((vmax - vmin) / gap).round() as usize + 1;
    if slots <= 30 {
        return (0..slots).map(|i| vmin + i as f64 * gap).collect();
    }
    let rough = (vmax - vmin) / 10.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= rough)
        .unwrap_or(10.0 * power)
        .max(gap);
    let first = (vmin / step).ceil() as i64;
    let last = (vmax / step).floor() as i64;
    (first..=last)
        .take(MAX_TICKS)
        .map(|i| i as f64 * step)
        .collect()
}

/// A curve of estimates against a log x axis, with interval bars and a zero line.
pub(crate) struct Curve {
    /// The caption above the panel.
    pub(crate) caption: String,
    /// The x axis description.
    pub(crate) x_desc: String,
    /// The y axis description.
    pub(crate) y_desc: String,
    /// `(x, estimate, note above the point)`.
    pub points: Vec<(f64, Est, String)>,
}

/// The height of a curve panel.
pub(crate) const CURVE_PX: u32 = 560;

/// Draws `c` on `area`, x on a log scale with a tick at every point (round ticks when there
/// are many, [`curve_ticks`]).
pub(crate) fn curve(area: &Area, c: &Curve) -> anyhow::Result<()> {
    let xs: Vec<f64> = c.points.iter().map(|p| p.0).collect();
    let (xmin, xmax) = extent(&xs);
    let (xmin, xmax) = (xmin / 1.4, xmax * 1.4);
    let lo = c.points.iter().map(|p| p.1.lo).fold(0.0, f64::min);
    let hi = c.points.iter().map(|p| p.1.hi).fold(0.0, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let (y0, y1) = (lo - 0.06 * span, hi + 0.12 * span);
    let mut chart = ChartBuilder::on(area)
        .caption(&c.caption, (FONT, CAPTION))
        .margin(12)
        .margin_right(30)
        .x_label_area_size(56)
        .y_label_area_size(80)
        .build_cartesian_2d(ticks((xmin..xmax).log_scale(), curve_ticks(&xs)), y0..y1)
        .map_err(err)?;
    let d = decimals(span);
    let ylab = |y: &f64| super::label::signed(*y, d.saturating_sub(1));
    let many = xs.len() > MAX_CURVE_LABELS;
    let xlab = |x: &f64| if many { compact(*x) } else { format!("{x:.0}") };
    chart
        .configure_mesh()
        .max_light_lines(0)
        .bold_line_style(RGBColor(225, 225, 225))
        .y_label_formatter(&ylab)
        .x_label_formatter(&xlab)
        .x_desc(&c.x_desc)
        .y_desc(&c.y_desc)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(xmin, 0.0), (xmax, 0.0)],
            ZERO.stroke_width(2),
        )))
        .map_err(err)?;
    let color = PALETTE[0];
    let many = c.points.len() > MAX_CURVE_LABELS;
    if many {
        // The intervals as one band: a hundred bars on a log axis would hide each other.
        let band: Vec<(f64, f64)> = (c.points.iter().map(|p| (p.0, p.1.hi)))
            .chain(c.points.iter().rev().map(|p| (p.0, p.1.lo)))
            .collect();
        let area = Polygon::new(band, color.mix(0.18).filled());
        chart.draw_series(std::iter::once(area)).map_err(err)?;
    }
    let line: Vec<(f64, f64)> = c.points.iter().map(|p| (p.0, p.1.mid)).collect();
    chart
        .draw_series(std::iter::once(PathElement::new(
            line,
            color.mix(0.6).stroke_width(2),
        )))
        .map_err(err)?;
    let note = |(x, e, note): &(f64, Est, String)| {
        let style = (FONT, TEXT)
            .into_font()
            .color(&RGBColor(40, 40, 40))
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        EmptyElement::at((*x, e.hi)) + Text::new(note.clone(), (0, -8), style)
    };
    if !many {
        for p @ (x, e, _) in &c.points {
            interval_v(&mut chart, *x, e, (x / 1.06, x * 1.06), 2)?;
            let dot = Circle::new((*x, e.mid), 6, color.filled());
            chart.draw_series(std::iter::once(dot)).map_err(err)?;
            chart.draw_series(std::iter::once(note(p))).map_err(err)?;
        }
        return Ok(());
    }
    let dots = (c.points.iter()).map(|(x, e, _)| Circle::new((*x, e.mid), 3, color.filled()));
    chart.draw_series(dots).map_err(err)?;
    let noted = noted_points(&xs);
    let notes = c.points.iter().zip(&noted).filter(|(_, &n)| n);
    chart
        .draw_series(notes.map(|(p, _)| note(p)))
        .map_err(err)?;
    Ok(())
}

/// The most points of a curve that each get an x tick and a note; a longer curve (a learning
/// curve) gets round ticks and every few points a note, so that no two labels overlap.
const MAX_CURVE_LABELS: usize = 8;

/// The x ticks of a curve through `xs` (log scale): every point when few, else 1, 2 and 5 times
/// the powers of ten within the points' range.
fn curve_ticks(xs: &[f64]) -> Vec<f64> {
    if xs.len() <= MAX_CURVE_LABELS {
        return xs.to_vec();
    }
    let (lo, hi) = extent(xs);
    let (first, last) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    (first..=last)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
        .filter(|&t| t >= lo / 1.4 && t <= hi * 1.4)
        .collect()
}

/// Which points of a curve through `xs` (log scale, in order) get their note: all when few,
/// else the last and, going back, each at least a tenth of the axis from the next noted one.
fn noted_points(xs: &[f64]) -> Vec<bool> {
    if xs.len() <= MAX_CURVE_LABELS {
        return vec![true; xs.len()];
    }
    let logs: Vec<f64> = xs.iter().map(|x| x.log10()).collect();
    let (lo, hi) = extent(&logs);
    let gap = (hi - lo) / 10.0;
    let mut noted = vec![false; xs.len()];
    let mut next = f64::INFINITY;
    for i in (0..xs.len()).rev() {
        if next - logs[i] >= gap {
            noted[i] = true;
            next = logs[i];
        }
    }
    noted
}

/// The least and the greatest of `xs`.
fn extent(xs: &[f64]) -> (f64, f64) {
    let fold = |(a, b): (f64, f64), &x: &f64| (a.min(x), b.max(x));
    xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), fold)
}

/// A round number shortly: 2000000 as 2M, 50000 as 50k.
fn compact(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{}G", x / 1e9),
        x if x >= 1e6 => format!("{}M", x / 1e6),
        x if x >= 1e3 => format!("{}k", x / 1e3),
        x => format!("{x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_curve_gets_round_ticks_and_spaced_notes() {
        let xs: Vec<f64> = (1..=104).map(|i| i as f64 * 1e6 + 7.0).collect();
        let ticks = curve_ticks(&xs);
        assert_eq!(ticks, [1e6, 2e6, 5e6, 1e7, 2e7, 5e7, 1e8]);
        assert_eq!(compact(5e7), "50M");
        let noted = noted_points(&xs);
        assert!(noted[103], "the last point is noted");
        let n = noted.iter().filter(|&&b| b).count();
        assert!((5..=11).contains(&n), "{n} notes");
        // A short curve keeps a tick and a note at every point.
        assert_eq!(curve_ticks(&xs[..4]), xs[..4]);
        assert!(noted_points(&xs[..4]).iter().all(|&b| b));
    }
}
