package loadgen

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plots are drawn with gonum.org/v1/plot: latency over time and latency by
// percentile on log latency axes with the latency thresholds drawn in, and
// throughput, 429s and errors per second over time with the scheduled rate.

// Size of one plot; load.png stacks the three.
const (
	plotW = 9 * vg.Inch
	plotH = 3.6 * vg.Inch
	dpi   = 96
)

var (
	colP50    = color.RGBA{0x1f, 0x77, 0xb4, 0xff}
	colP95    = color.RGBA{0xff, 0x7f, 0x0e, 0xff}
	colP99    = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	colMax    = color.RGBA{0x55, 0x55, 0x55, 0xff}
	colUnc    = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	colLimit  = color.RGBA{0x94, 0x67, 0xbd, 0xff}
	colErrors = color.RGBA{0xd6, 0x27, 0x28, 0xff}
)

// minLatencyMs is where the log latency axes start: the histograms' lowest
// value (1 µs); a zero reading is drawn there.
const minLatencyMs = 0.001

// distribution is latency by percentile, precomputed from the histograms
// (the report does not keep them). X is log10(1/(1-q)): 1 = 90%, 2 = 99%.
type distribution struct {
	X, Corrected, Uncorrected []float64
}

// distributionOf reads the corrected and uncorrected latency at
// q = 1 - 10^(-i/10) for i = 0…50 (0% to 99.999%), and the maximum at 5.
func distributionOf(corrected, uncorrected *hdr.Histogram) distribution {
	var d distribution
	if corrected.TotalCount() == 0 {
		return d
	}
	for i := 0; i <= 50; i++ {
		q := 100 * (1 - math.Pow(10, -float64(i)/10))
		d.X = append(d.X, float64(i)/10)
		d.Corrected = append(d.Corrected, float64(corrected.ValueAtQuantile(q))/1e6)
		d.Uncorrected = append(d.Uncorrected, float64(uncorrected.ValueAtQuantile(q))/1e6)
	}
	d.X = append(d.X, 5)
	d.Corrected = append(d.Corrected, float64(corrected.Max())/1e6)
	d.Uncorrected = append(d.Uncorrected, float64(uncorrected.Max())/1e6)
	return d
}

// line is one series to draw.
type line struct {
	name   string
	col    color.RGBA
	dashed bool
	xs, ys []float64
}

func (l line) add(f *figure, floor float64) error {
	if len(l.xs) == 0 {
		return nil
	}
	pts := make(plotter.XYs, len(l.xs))
	for i := range l.xs {
		pts[i].X, pts[i].Y = l.xs[i], math.Max(l.ys[i], floor)
	}
	ln, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("plot %s: %w", l.name, err)
	}
	ln.Color = l.col
	ln.Width = vg.Points(1.5)
	if l.dashed {
		ln.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	f.p.Add(ln)
	f.legend.Add(l.name, ln)
	return nil
}

// figure is a plot with its legend, drawn beside it rather than over the
// lines.
type figure struct {
	p      *plot.Plot
	legend plot.Legend
}

// legendWidth is the width of f's legend on c, with a margin.
func (f *figure) legendWidth(c draw.Canvas) vg.Length {
	r := f.legend.Rectangle(c)
	return r.Max.X - r.Min.X + 4*vg.Millimeter
}

// draw draws the plot on c, narrowed by the legend strip of width w on the
// right, and the legend in that strip.
func (f *figure) draw(c draw.Canvas, w vg.Length) {
	f.p.Draw(draw.Crop(c, 0, -w, 0, 0))
	f.legend.Top, f.legend.Left = true, false
	f.legend.YOffs = -f.p.Title.TextStyle.Height(f.p.Title.Text) - 2*vg.Millimeter
	f.legend.Draw(c)
}

// newFigure is a plot with the common look: title, axis labels, grid.
func newFigure(title, x, y string) *figure {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = 2 * vg.Millimeter
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return &figure{p: p, legend: plot.NewLegend()}
}

// logLatencyAxis makes p's y axis a log latency axis.
func logLatencyAxis(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
}

// thresholdLines are the latency thresholds as horizontal lines over
// [x0, x1].
func (r *Report) thresholdLines(x0, x1 float64) []line {
	var out []line
	for _, v := range r.Thresholds {
		if !latencyMetrics[v.Metric] {
			continue
		}
		out = append(out, line{name: "threshold " + v.Expr, col: colLimit, dashed: true, xs: []float64{x0, x1}, ys: []float64{v.Limit, v.Limit}})
	}
	return out
}

// latencyPlot is corrected p50/p95/p99/max and uncorrected p99 per
// interval, on a log axis, with the latency thresholds.
func (r *Report) latencyPlot() (*figure, error) {
	f := newFigure("Latency over time (corrected unless marked)", "seconds since the start of measurement", "latency (ms, log scale)")
	logLatencyAxis(f.p)
	p50 := line{name: "p50", col: colP50}
	p95 := line{name: "p95", col: colP95}
	p99 := line{name: "p99", col: colP99}
	mx := line{name: "max", col: colMax}
	unc := line{name: "uncorrected p99", col: colUnc, dashed: true}
	var xmax float64
	for _, iv := range r.Intervals {
		x := iv.End.Sub(r.Start).Seconds()
		xmax = math.Max(xmax, x)
		for _, s := range []struct {
			l *line
			v float64
		}{{&p50, iv.P50}, {&p95, iv.P95}, {&p99, iv.P99}, {&mx, iv.Max}, {&unc, iv.UncorrectedP99}} {
			s.l.xs, s.l.ys = append(s.l.xs, x), append(s.l.ys, s.v)
		}
	}
	lines := append([]line{mx, p99, p95, p50, unc}, r.thresholdLines(0, math.Max(xmax, r.DurationSeconds))...)
	return f, f.addLines(lines, minLatencyMs)
}

// distributionPlot is latency by percentile, corrected and uncorrected, on
// log axes, with the latency thresholds.
func (r *Report) distributionPlot() (*figure, error) {
	f := newFigure("Latency by percentile", "percentile", "latency (ms, log scale)")
	logLatencyAxis(f.p)
	f.p.X.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0%"}, {Value: 1, Label: "90%"}, {Value: 2, Label: "99%"},
		{Value: 3, Label: "99.9%"}, {Value: 4, Label: "99.99%"}, {Value: 5, Label: "99.999%"}}
	f.p.X.Min, f.p.X.Max = 0, 5
	d := r.dist
	lines := []line{
		{name: "corrected", col: colP99, xs: d.X, ys: d.Corrected},
		{name: "uncorrected", col: colUnc, dashed: true, xs: d.X, ys: d.Uncorrected},
	}
	return f, f.addLines(append(lines, r.thresholdLines(0, 5)...), minLatencyMs)
}

// minRateInterval is the shortest interval, in seconds, whose rate is drawn.
const minRateInterval = 0.25

// throughputPlot is responses, 429s and errors per second per interval,
// with the scheduled rate of an open loop.
func (r *Report) throughputPlot() (*figure, error) {
	f := newFigure("Throughput and errors over time", "seconds since the start of measurement", "responses per second")
	done := line{name: "responses/s (all)", col: colP50}
	limited := line{name: "429/s", col: colP95}
	errs := line{name: "errors/s (neither 200 nor 429)", col: colErrors}
	var xmax float64
	for _, iv := range r.Intervals {
		secs := iv.End.Sub(iv.Start).Seconds()
		if secs < minRateInterval {
			continue // a rate over a few milliseconds (the last drain) says nothing
		}
		x := iv.End.Sub(r.Start).Seconds()
		xmax = math.Max(xmax, x)
		done.xs, done.ys = append(done.xs, x), append(done.ys, float64(iv.Requests)/secs)
		limited.xs, limited.ys = append(limited.xs, x), append(limited.ys, float64(iv.RateLimited)/secs)
		errs.xs, errs.ys = append(errs.xs, x), append(errs.ys, float64(iv.Errors)/secs)
	}
	lines := []line{done, limited, errs}
	if r.ScheduledRate > 0 {
		x1 := math.Max(xmax, r.DurationSeconds)
		lines = append(lines, line{name: "scheduled rate", col: colMax, dashed: true, xs: []float64{0, x1}, ys: []float64{r.ScheduledRate, r.ScheduledRate}})
	}
	f.p.Y.Min = 0
	return f, f.addLines(lines, math.Inf(-1))
}

// addLines adds lines to p; on a log axis (floor > 0) it keeps the range
// positive when there is nothing to draw.
func (f *figure) addLines(lines []line, floor float64) error {
	p := f.p
	for _, l := range lines {
		if err := l.add(f, floor); err != nil {
			return err
		}
	}
	// With nothing drawn the ranges are still infinite (gonum starts them
	// so): give them finite ones.
	if math.IsInf(p.X.Min, 0) || math.IsInf(p.X.Max, 0) {
		p.X.Min, p.X.Max = 0, 1
	}
	if floor > 0 {
		if math.IsInf(p.Y.Min, 0) || p.Y.Min < floor {
			p.Y.Min = floor
		}
		if math.IsInf(p.Y.Max, 0) || p.Y.Max <= p.Y.Min {
			p.Y.Max = p.Y.Min * 10
		}
	} else if math.IsInf(p.Y.Min, 0) || math.IsInf(p.Y.Max, 0) {
		p.Y.Min, p.Y.Max = 0, 1
	}
	return nil
}

// figures are the report's three plots, in order.
func (r *Report) figures() ([]*figure, error) {
	var out []*figure
	for _, mk := range []func() (*figure, error){r.latencyPlot, r.distributionPlot, r.throughputPlot} {
		p, err := mk()
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// svgs renders each plot as inline SVG for load.html.
func (r *Report) svgs() ([]template.HTML, error) {
	fs, err := r.figures()
	if err != nil {
		return nil, err
	}
	var out []template.HTML
	for _, f := range fs {
		c := vgsvg.New(plotW, plotH)
		dc := draw.New(c)
		f.draw(dc, f.legendWidth(dc))
		var b bytes.Buffer
		if _, err := c.WriteTo(&b); err != nil {
			return nil, fmt.Errorf("render svg: %w", err)
		}
		s := b.String()
		if i := strings.Index(s, "<svg"); i > 0 {
			s = s[i:] // inline: no XML prolog
		}
		out = append(out, template.HTML(s)) // drawn by gonum/plot from numbers and escaped labels
	}
	return out, nil
}

// WritePNG draws the three plots, stacked, as one PNG.
func (r *Report) WritePNG(w io.Writer) error {
	fs, err := r.figures()
	if err != nil {
		return err
	}
	c := vgimg.NewWith(vgimg.UseWH(plotW, vg.Length(len(fs))*plotH), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(c)
	// One legend strip for all, so that the plots' x axes line up.
	var strip vg.Length
	for _, f := range fs {
		strip = max(strip, f.legendWidth(dc))
	}
	tiles := draw.Tiles{Rows: len(fs), Cols: 1, PadY: 4 * vg.Millimeter, PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter}
	for i, f := range fs {
		f.draw(tiles.At(dc, 0, i), strip)
	}
	_, err = vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}

// logTicks labels a log axis at 1, 2 and 5 times powers of ten (only the
// powers when the range spans more than three decades), with minor ticks
// between.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 {
		lo = minLatencyMs
	}
	if hi <= lo {
		hi = lo * 10
	}
	labelled := map[int]bool{1: true, 2: true, 5: true}
	if math.Log10(hi/lo) > 3 {
		labelled = map[int]bool{1: true}
	}
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1; m < 10; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < lo*0.999 || v > hi*1.001 {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[m] {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
