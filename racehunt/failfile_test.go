package racehunt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/racehunt/histcheck"

	"github.com/rlspec/rlspec/fault"
)

// TestHuntFailFilesPerTarget: rapid's fail file goes under ReportDir, not
// the working directory; it is replayed first against the same target and
// not against another one.
func TestHuntFailFilesPerTarget(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	reports := t.TempDir()
	opts := func() HuntOptions {
		return HuntOptions{Checks: 50, Repeat: 1, ShrinkTime: time.Second, ReportDir: reports, Gen: GenOptions{Boundaries: true}, Log: t.Logf}
	}
	faulty := startEmbedded(t, prd.CheckThenActName, 1)
	res, err := Hunt(context.Background(), faulty, opts())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || res.FailFile == "" || res.Replayed != "" {
		t.Fatalf("found %v, fail file %q, replayed %q", res.Found, res.FailFile, res.Replayed)
	}
	if !strings.HasPrefix(res.FailFile, filepath.Join(reports, "rapid")+string(filepath.Separator)) {
		t.Errorf("fail file %s is not under REPORT_DIR/rapid", res.FailFile)
	}
	if _, err := os.Stat(res.FailFile); err != nil {
		t.Errorf("fail file: %v", err)
	}
	if left, _ := os.ReadDir(cwd); len(left) > 0 {
		t.Errorf("the hunt left %s in the working directory", left[0].Name())
	}
	again, err := Hunt(context.Background(), faulty, opts())
	if err != nil {
		t.Fatal(err)
	}
	if again.Replayed != res.FailFile {
		t.Errorf("the same target replayed %q first, want %q", again.Replayed, res.FailFile)
	}
	other := startEmbedded(t, prd.ConcurrentReplaysName, 1)
	third, err := Hunt(context.Background(), other, opts())
	if err != nil {
		t.Fatal(err)
	}
	if third.Replayed != "" {
		t.Errorf("another target replayed %q first", third.Replayed)
	}
	if left, _ := os.ReadDir(cwd); len(left) > 0 {
		t.Errorf("the hunts left %s in the working directory", left[0].Name())
	}
}

// TestHuntReportsSeedOfCleanHunt: a hunt without a violation still says
// its seed, and that seed runs the same workloads again.
func TestHuntReportsSeedOfCleanHunt(t *testing.T) {
	e := startEmbedded(t, fault.None, 1)
	o := HuntOptions{Checks: 5, NoFailFile: true, Gen: GenOptions{Boundaries: true}}
	first, err := Hunt(context.Background(), e, o)
	if err != nil {
		t.Fatal(err)
	}
	if first.Found || first.SearchSeed == 0 {
		t.Fatalf("found %v, seed %d", first.Found, first.SearchSeed)
	}
	o.SearchSeed = first.SearchSeed
	second, err := Hunt(context.Background(), e, o)
	if err != nil {
		t.Fatal(err)
	}
	if second.SearchSeed != first.SearchSeed || second.Requests != first.Requests {
		t.Errorf("seed %d sent %d requests, then %d", first.SearchSeed, first.Requests, second.Requests)
	}
}

func TestOpStringShowsFullIDs(t *testing.T) {
	bucket := "dev:" + strings.Repeat("ab", 32)
	op := histcheck.Op{Bucket: bucket, IdemKey: "0f8fad5b-d9cb-469f-a165-70867728950e"}
	if s := op.String(); !strings.Contains(s, bucket) || !strings.Contains(s, op.IdemKey) || strings.Contains(s, "…") {
		t.Errorf("%s", s)
	}
}
