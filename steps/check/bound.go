package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// AllowedAtLeast is a violation of refs unless at least want of run were
// allowed (2xx): a lower bound, which holds whatever the timing.
func AllowedAtLeast(refs clause.Refs, run []*httpclient.Exchange, want int, what string) error {
	got := 0
	for _, ex := range run {
		if ex.Err == nil && ex.Status/100 == 2 {
			got++
		}
	}
	if got >= want {
		return nil
	}
	return scenario.Violate(refs, what, fmt.Sprintf("at least %d of the %d requests allowed", want, len(run)),
		fmt.Sprintf("%d allowed (%s)", got, statusCounts(run)), run...)
}

// statusCounts is "3× 200, 2× 429" for run.
func statusCounts(run []*httpclient.Exchange) string {
	n := map[int]int{}
	var order []int
	for _, ex := range run {
		if n[ex.Status] == 0 {
			order = append(order, ex.Status)
		}
		n[ex.Status]++
	}
	parts := make([]string, len(order))
	for i, st := range order {
		name := strconv.Itoa(st)
		if st == 0 {
			name = "no response"
		}
		parts[i] = fmt.Sprintf("%d× %s", n[st], name)
	}
	return strings.Join(parts, ", ")
}
