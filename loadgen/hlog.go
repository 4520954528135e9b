package loadgen

import (
	"bytes"
	"fmt"
	"io"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

func writeHlogHeader(w *hdr.HistogramLogWriter, m Meta, start time.Time) error {
	if err := w.OutputLogFormatVersion(); err != nil {
		return err
	}
	if err := w.OutputComment(fmt.Sprintf("[rlspec loadgen target=%s mode=%s rate=%g connections=%d buckets=%d; values in ns; tags corrected, uncorrected, lag, status (value = HTTP status, 0 = transport error), queue and service (a modelled queue's delay, latency less it)]",
		m.Target, m.Mode, m.Rate, m.Connections, m.Buckets)); err != nil {
		return err
	}
	if !m.StartAt.IsZero() {
		if err := w.OutputComment(generatorComment(m)); err != nil {
			return err
		}
	}
	if err := w.OutputStartTime(start.UnixMilli()); err != nil {
		return err
	}
	return w.OutputLegend()
}

func writeHlogInterval(w *hdr.HistogramLogWriter, h *Histograms, start, end time.Time) error {
	for _, t := range tags {
		x := h.byTag(t)
		if x.TotalCount() == 0 {
			continue
		}
		x.SetTag(t)
		x.SetStartTimeMs(start.UnixMilli())
		x.SetEndTimeMs(end.UnixMilli())
		if err := w.OutputIntervalHistogram(x); err != nil {
			return err
		}
	}
	return nil
}

// hlogFile writes an interval log in whole pieces: the header, then each
// interval's histograms, each in one Write. A generator killed between two
// writes leaves only whole intervals, so its log never holds an interval's
// latencies without the statuses that count its requests.
type hlogFile struct {
	out io.Writer
	buf bytes.Buffer
	w   *hdr.HistogramLogWriter
}

func newHlogFile(out io.Writer) *hlogFile {
	f := &hlogFile{out: out}
	f.w = hdr.NewHistogramLogWriter(&f.buf)
	return f
}

func (f *hlogFile) header(m Meta, start time.Time) error {
	return f.flush(writeHlogHeader(f.w, m, start))
}

func (f *hlogFile) interval(h *Histograms, start, end time.Time) error {
	return f.flush(writeHlogInterval(f.w, h, start, end))
}

// flush writes what err's writer left in the buffer, in one Write.
func (f *hlogFile) flush(err error) error {
	defer f.buf.Reset()
	if err != nil {
		return err
	}
	_, err = f.out.Write(f.buf.Bytes())
	return err
}
