package racehunt

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/racehunt/histcheck"

	"pgregory.net/rapid"
)

func TestWorkloadsStayInBounds(t *testing.T) {
	o := GenOptions{Limits: []int{1, 3}, MaxBursts: 3, MaxBurst: 6, Boundaries: true}
	rapid.Check(t, func(rt *rapid.T) {
		w := Workloads(o).Draw(rt, "w")
		if w.Limit != 1 && w.Limit != 3 {
			rt.Fatalf("limit %d", w.Limit)
		}
		if len(w.Bursts) < 1 || len(w.Bursts) > 3 {
			rt.Fatalf("%d bursts", len(w.Bursts))
		}
		for i, b := range w.Bursts {
			if len(b.Reqs) < 1 || len(b.Reqs) > min(6, 2*w.Limit+3) {
				rt.Fatalf("burst %d has %d requests", i, len(b.Reqs))
			}
			if i == 0 && b.Advance != Stay {
				rt.Fatalf("first burst moves time")
			}
			for _, r := range b.Reqs {
				if r.Client >= w.Clients || r.Bucket >= w.Buckets || r.Group >= w.Groups || r.Kind > histcheck.BadBucket {
					rt.Fatalf("request %+v out of %d clients, %d buckets, %d groups", r, w.Clients, w.Buckets, w.Groups)
				}
				if (r.Kind == histcheck.Keyed || r.Kind == histcheck.Conflict) && r.Bucket != w.GroupBucket(r.Group) {
					rt.Fatalf("group %d on bucket %d", r.Group, r.Bucket)
				}
			}
		}
		if !strings.Contains(w.String(), "burst 0") {
			rt.Fatalf("String: %q", w.String())
		}
	})
}
