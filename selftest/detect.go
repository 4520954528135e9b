package selftest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rlspec/rlspec/fault"
)

// detected reports whether caught of runs meets the detection bar: 19 of
// 20 (every run, for fewer than 20).
func detected(caught, runs int) bool { return caught*20 >= 19*runs }

// detect runs row's suite c.detect times against its fault, each a
// single run, and counts per scenario how often it failed; the row's first
// run stands as its Acceptance, and its Missed are the required scenarios
// below the bar.
func detect(ctx context.Context, row *Row, fi fault.Fault, c config) error {
	row.Detections, row.Runs = map[string]int{}, c.detect
	for k := range c.detect {
		r, err := runFault(ctx, row, fi, c)
		if err != nil {
			return err
		}
		if k == 0 {
			row.Acceptance = r
		}
		for _, id := range r.FailedIDs {
			row.Detections[id]++
		}
	}
	row.Missed = nil
	for _, id := range row.Scenarios {
		if !detected(row.Detections[id], row.Runs) {
			row.Missed = append(row.Missed, id)
		}
	}
	return nil
}

// detectionLine is a row's required scenarios with their counts:
// "FW-3-02 20/20, FW-2-01 19/20".
func (r Row) detectionLine() string {
	var parts []string
	for _, id := range r.Scenarios {
		parts = append(parts, fmt.Sprintf("%s %d/%d", id, r.Detections[id], r.Runs))
	}
	if len(parts) == 0 {
		return "no scenario required"
	}
	return strings.Join(parts, ", ")
}

// WriteDetection prints the detection table: each fault's required
// scenarios and how many of the single runs caught it, with the bar.
func (m *Matrix) WriteDetection(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FAULT\tSCENARIO\tCAUGHT\tBAR (19/20)")
	for _, r := range m.Rows {
		if r.Runs == 0 {
			continue
		}
		for _, id := range r.Scenarios {
			bar := "ok"
			if !detected(r.Detections[id], r.Runs) {
				bar = "BELOW"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\n", r.Fault, id, r.Detections[id], r.Runs, bar)
		}
	}
	tw.Flush()
}
