package loadgen

import (
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// chart is a line chart drawn both as inline SVG and as a PNG.
type chart struct {
	Title, XLabel, YLabel string
	Series                []series
	XTicks                []tick // positions in data units with labels
}

type series struct {
	Name   string
	Color  color.RGBA
	X, Y   []float64
	Dashed bool
}

type tick struct {
	At    float64
	Label string
}

var (
	colP50  = color.RGBA{0x1f, 0x77, 0xb4, 0xff}
	colP95  = color.RGBA{0xff, 0x7f, 0x0e, 0xff}
	colP99  = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	colMax  = color.RGBA{0x55, 0x55, 0x55, 0xff}
	colUnc  = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	colAxis = color.RGBA{0x33, 0x33, 0x33, 0xff}
	colGrid = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
)

// timeChart is corrected p50/p95/p99/max and uncorrected p99 per interval.
func (r *Report) timeChart() chart {
	c := chart{Title: "Latency over time", XLabel: "seconds since start of measurement", YLabel: "latency (ms)"}
	p50 := series{Name: "p50", Color: colP50}
	p95 := series{Name: "p95", Color: colP95}
	p99 := series{Name: "p99", Color: colP99}
	mx := series{Name: "max", Color: colMax}
	unc := series{Name: "uncorrected p99", Color: colUnc, Dashed: true}
	for _, iv := range r.Intervals {
		x := iv.End.Sub(r.Start).Seconds()
		p50.X, p50.Y = append(p50.X, x), append(p50.Y, iv.P50)
		p95.X, p95.Y = append(p95.X, x), append(p95.Y, iv.P95)
		p99.X, p99.Y = append(p99.X, x), append(p99.Y, iv.P99)
		mx.X, mx.Y = append(mx.X, x), append(mx.Y, iv.Max)
		unc.X, unc.Y = append(unc.X, x), append(unc.Y, iv.UncorrectedP99)
	}
	c.Series = []series{mx, p99, p95, p50, unc}
	return c
}

// percentileQuantiles are the x positions of the distribution chart:
// q = 1 - 10^(-i/10), from 0 to 99.999%.
func percentileQuantiles() []float64 {
	var qs []float64
	for i := 0; i <= 50; i++ {
		qs = append(qs, 100*(1-math.Pow(10, -float64(i)/10)))
	}
	return qs
}

// distributionChart is latency by percentile, x = log10(1/(1-q)).
func distributionChart(corrected, uncorrected *hdr.Histogram) chart {
	c := chart{Title: "Latency by percentile", XLabel: "percentile", YLabel: "latency (ms)"}
	for _, t := range []struct {
		x float64
		l string
	}{{0, "0%"}, {1, "90%"}, {2, "99%"}, {3, "99.9%"}, {4, "99.99%"}, {5, "99.999%"}} {
		c.XTicks = append(c.XTicks, tick{At: t.x, Label: t.l})
	}
	mk := func(name string, col color.RGBA, h *hdr.Histogram, dashed bool) series {
		s := series{Name: name, Color: col, Dashed: dashed}
		if h.TotalCount() == 0 {
			return s
		}
		for i, q := range percentileQuantiles() {
			s.X = append(s.X, float64(i)/10)
			s.Y = append(s.Y, float64(h.ValueAtQuantile(q))/1e6)
		}
		s.X = append(s.X, 5)
		s.Y = append(s.Y, float64(h.Max())/1e6)
		return s
	}
	c.Series = []series{mk("corrected", colP99, corrected, false), mk("uncorrected", colUnc, uncorrected, true)}
	return c
}

// bounds returns the data range, y from 0.
func (c chart) bounds() (x0, x1, y1 float64) {
	x0, x1 = math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for i := range s.X {
			x0, x1 = math.Min(x0, s.X[i]), math.Max(x1, s.X[i])
			y1 = math.Max(y1, s.Y[i])
		}
	}
	for _, t := range c.XTicks {
		x0, x1 = math.Min(x0, t.At), math.Max(x1, t.At)
	}
	if math.IsInf(x0, 0) {
		x0, x1 = 0, 1
	}
	if x1 <= x0 {
		x1 = x0 + 1
	}
	if y1 <= 0 {
		y1 = 1
	}
	return x0, x1, niceCeil(y1 * 1.05)
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

const (
	plotW, plotH           = 760, 300
	padL, padR, padT, padB = 60, 150, 30, 40
)

// svg renders c as inline SVG.
func (c chart) svg() template.HTML {
	x0, x1, y1 := c.bounds()
	W, H := float64(plotW-padL-padR), float64(plotH-padT-padB)
	px := func(x float64) float64 { return padL + (x-x0)/(x1-x0)*W }
	py := func(y float64) float64 { return padT + H - y/y1*H }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="14" font-weight="bold">%s</text>`, padL, template.HTMLEscapeString(c.Title))
	for i := 0; i <= 5; i++ {
		y := y1 * float64(i) / 5
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, px(x0), py(y), px(x1), py(y))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%g</text>`, padL-5, py(y)+4, y)
	}
	ticks := c.XTicks
	if len(ticks) == 0 {
		for i := 0; i <= 5; i++ {
			x := x0 + (x1-x0)*float64(i)/5
			ticks = append(ticks, tick{At: x, Label: secondsLabel(x, x1-x0)})
		}
	}
	for _, t := range ticks {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, px(t.At), py(0), px(t.At), py(y1))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, px(t.At), py(0)+15, template.HTMLEscapeString(t.Label))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#333"/>`, padL, padT, W, H)
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, padL+W/2, plotH-5, template.HTMLEscapeString(c.XLabel))
	fmt.Fprintf(&b, `<text transform="translate(14,%.1f) rotate(-90)" text-anchor="middle">%s</text>`, padT+H/2, template.HTMLEscapeString(c.YLabel))
	for i, s := range c.Series {
		var pts []string
		for j := range s.X {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.X[j]), py(s.Y[j])))
		}
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="5,3"`
		}
		col := fmt.Sprintf("#%02x%02x%02x", s.Color.R, s.Color.G, s.Color.B)
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.5"%s points="%s"/>`, col, dash, strings.Join(pts, " "))
		ly := padT + 10 + 16*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/><text x="%d" y="%d">%s</text>`,
			plotW-padR+10, ly, plotW-padR+30, ly, col, dash, plotW-padR+35, ly+4, template.HTMLEscapeString(s.Name))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // built from escaped parts above
}

// draw renders c into img at vertical offset oy: title, grid with tick
// labels, frame, axis labels, lines and the legend, in a 7x13 bitmap font.
func (c chart) draw(img *image.RGBA, oy int) {
	x0, x1, y1 := c.bounds()
	W, H := float64(plotW-padL-padR), float64(plotH-padT-padB)
	px := func(x float64) float64 { return padL + (x-x0)/(x1-x0)*W }
	py := func(y float64) float64 { return float64(oy) + padT + H - y/y1*H }
	text(img, padL, oy+18, c.Title, colAxis, alignLeft)
	for i := 0; i <= 5; i++ {
		v := y1 * float64(i) / 5
		y := py(v)
		line(img, px(x0), y, px(x1), y, colGrid, false)
		text(img, padL-5, int(y)+4, fmt.Sprintf("%g", v), colAxis, alignRight)
	}
	ticks := c.XTicks
	if len(ticks) == 0 {
		for i := 0; i <= 5; i++ {
			x := x0 + (x1-x0)*float64(i)/5
			ticks = append(ticks, tick{At: x, Label: secondsLabel(x, x1-x0)})
		}
	}
	for _, t := range ticks {
		line(img, px(t.At), py(0), px(t.At), py(y1), colGrid, false)
		text(img, int(px(t.At)), int(py(0))+15, t.Label, colAxis, alignCenter)
	}
	line(img, px(x0), py(0), px(x1), py(0), colAxis, false)
	line(img, px(x0), py(0), px(x0), py(y1), colAxis, false)
	line(img, px(x0), py(y1), px(x1), py(y1), colAxis, false)
	line(img, px(x1), py(0), px(x1), py(y1), colAxis, false)
	text(img, padL+int(W)/2, oy+plotH-5, c.XLabel, colAxis, alignCenter)
	text(img, plotW-padR+10, oy+padT+int(H), c.YLabel, colAxis, alignLeft)
	for i, s := range c.Series {
		for j := 1; j < len(s.X); j++ {
			line(img, px(s.X[j-1]), py(s.Y[j-1]), px(s.X[j]), py(s.Y[j]), s.Color, s.Dashed)
		}
		ly := float64(oy + padT + 10 + 16*i)
		for d := -1.0; d <= 1; d++ {
			line(img, plotW-padR+10, ly+d, plotW-padR+30, ly+d, s.Color, s.Dashed)
		}
		text(img, plotW-padR+35, int(ly)+4, s.Name, colAxis, alignLeft)
	}
}

// secondsLabel formats an x tick: whole seconds, or tenths on short runs.
func secondsLabel(x, span float64) string {
	if span < 10 {
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

type align int

const (
	alignLeft align = iota
	alignCenter
	alignRight
)

// text draws s with its baseline at y, anchored at x per a.
func text(img *image.RGBA, x, y int, s string, col color.RGBA, a align) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(col), Face: basicfont.Face7x13}
	w := d.MeasureString(s).Round()
	switch a {
	case alignCenter:
		x -= w / 2
	case alignRight:
		x -= w
	}
	d.Dot = fixed.P(x, y)
	d.DrawString(s)
}

// line draws from (xa,ya) to (xb,yb) by stepping along the longer axis.
func line(img *image.RGBA, xa, ya, xb, yb float64, col color.RGBA, dashed bool) {
	steps := int(math.Max(math.Abs(xb-xa), math.Abs(yb-ya))) + 1
	for i := 0; i <= steps; i++ {
		if dashed && (i/4)%2 == 1 {
			continue
		}
		t := float64(i) / float64(steps)
		x, y := int(math.Round(xa+(xb-xa)*t)), int(math.Round(ya+(yb-ya)*t))
		if image.Pt(x, y).In(img.Rect) {
			img.SetRGBA(x, y, col)
		}
	}
}

// WritePNG draws the two charts, stacked, as a PNG.
func (r *Report) WritePNG(w io.Writer) error {
	img := image.NewRGBA(image.Rect(0, 0, plotW, 2*plotH))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	r.timeChart().draw(img, 0)
	r.distChart.draw(img, plotH)
	return png.Encode(w, img)
}
