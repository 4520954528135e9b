package loadgen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Log is an interval log read back: its intervals (one Histograms per
// interval start) in time order.
type Log struct {
	Intervals []LoggedInterval
	// Generator is what the log's generator comment says (WithStartAt),
	// zero without one; Name is set by whoever read the log.
	Generator GeneratorRun
}

// LoggedInterval is one interval of a log.
type LoggedInterval struct {
	Start, End time.Time
	H          *Histograms
}

// ReadHlog reads an interval log written by an attack (WithHlog).
func ReadHlog(r io.Reader) (*Log, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read interval log: %w", err)
	}
	if i := bytes.LastIndexByte(raw, '\n'); i >= 0 && i < len(raw)-1 {
		raw = raw[:i+1] // a writer that died mid-line: keep the whole lines
	}
	gen, _, err := parseGeneratorComment(raw)
	if err != nil {
		return nil, fmt.Errorf("read interval log: %w", err)
	}
	lr := hdr.NewHistogramLogReader(bytes.NewReader(raw))
	byStart := map[int64]*LoggedInterval{}
	for {
		h, err := lr.NextIntervalHistogram()
		if err != nil {
			return nil, fmt.Errorf("read interval log: %w", err)
		}
		if h == nil {
			break
		}
		key := h.StartTimeMs()
		iv := byStart[key]
		if iv == nil {
			iv = &LoggedInterval{Start: time.UnixMilli(h.StartTimeMs()), End: time.UnixMilli(h.EndTimeMs()), H: NewHistograms()}
			byStart[key] = iv
		}
		dst := iv.H.byTag(h.Tag())
		if dst == nil {
			return nil, fmt.Errorf("read interval log: histogram tag %q is not one of loadgen's (corrected, uncorrected, lag, status)", h.Tag())
		}
		if dropped := dst.Merge(h); dropped > 0 {
			return nil, fmt.Errorf("read interval log: %d values of tag %s out of range", dropped, h.Tag())
		}
	}
	if len(byStart) == 0 {
		return nil, errors.New("read interval log: no interval histograms in it")
	}
	l := &Log{Generator: gen}
	for _, iv := range byStart {
		l.Intervals = append(l.Intervals, *iv)
	}
	sort.Slice(l.Intervals, func(i, j int) bool { return l.Intervals[i].Start.Before(l.Intervals[j].Start) })
	return l, nil
}

// MergeLogs combines logs (e.g. from several machines running at once) into
// one result: totals merged, intervals aligned on the wall clock by rounding
// their starts to the interval length.
func MergeLogs(logs []*Log, interval time.Duration) *Result {
	if interval <= 0 {
		interval = DefaultInterval
	}
	res := &Result{Meta: Meta{Mode: "merged"}, Totals: NewHistograms()}
	slots := map[int64]*LoggedInterval{}
	for _, l := range logs {
		g := l.Generator
		for _, iv := range l.Intervals {
			g.Requests += iv.H.Requests()
			res.Totals.Merge(iv.H)
			if res.Start.IsZero() || iv.Start.Before(res.Start) {
				res.Start = iv.Start
			}
			if iv.End.After(res.End) {
				res.End = iv.End
			}
			k := iv.Start.Round(interval).UnixNano()
			s := slots[k]
			if s == nil {
				s = &LoggedInterval{Start: iv.Start, End: iv.End, H: NewHistograms()}
				slots[k] = s
			}
			s.H.Merge(iv.H)
			if iv.Start.Before(s.Start) {
				s.Start = iv.Start
			}
			if iv.End.After(s.End) {
				s.End = iv.End
			}
		}
		res.Generators = append(res.Generators, g)
	}
	keys := make([]int64, 0, len(slots))
	for k := range slots {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, k := range keys {
		s := slots[k]
		res.Intervals = append(res.Intervals, summarise(s.H, s.Start, s.End))
	}
	// The logs carry no settings: 429s recorded under a penalty say
	// penalties were read.
	res.Meta.Penalties = StatusCountsOf(res.Totals.Status).Penalty > 0
	return res
}

// MergeFiles reads interval logs from files and merges them.
func MergeFiles(paths []string, interval time.Duration) (*Result, error) {
	if len(paths) == 0 {
		return nil, errors.New("merge needs at least one .hlog file")
	}
	var logs []*Log
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		l, err := ReadHlog(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		l.Generator.Name = p
		logs = append(logs, l)
	}
	return MergeLogs(logs, interval), nil
}

// WriteHlog writes res's totals as one interval log (used by merge so the
// merged result can be merged again).
func WriteHlog(w io.Writer, res *Result) error {
	lw := hdr.NewHistogramLogWriter(w)
	if err := writeHlogHeader(lw, res.Meta, res.Start); err != nil {
		return err
	}
	return writeHlogInterval(lw, res.Totals, res.Start, res.End)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
