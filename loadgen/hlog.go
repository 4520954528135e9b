package loadgen

import (
	"fmt"
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
