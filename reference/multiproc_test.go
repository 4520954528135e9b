package reference_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/sqlite"
)

// Helper process protocol: the child opens the store, prints "ready", waits
// for a line on stdin (the start barrier), runs RLSPEC_HELPER_N concurrent
// decisions on RLSPEC_HELPER_BUCKET and prints them as JSON.
const helperEnv = "RLSPEC_REFERENCE_HELPER"

type helperResult struct {
	Outcomes  []reference.Outcome `json:"outcomes"`
	Remaining []int               `json:"remaining"`
	Errors    []string            `json:"errors"`
}

func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("helper process only")
	}
	if err := runHelper(); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

func runHelper() error {
	n, err := strconv.Atoi(os.Getenv("RLSPEC_HELPER_N"))
	if err != nil {
		return err
	}
	ctx := context.Background()
	s, err := openReference(ctx, os.Getenv("RLSPEC_HELPER_DB"))
	if err != nil {
		return err
	}
	defer s.Close()
	b := os.Getenv("RLSPEC_HELPER_BUCKET")
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		return fmt.Errorf("barrier: %w", err)
	}
	res := helperResult{Outcomes: make([]reference.Outcome, n), Remaining: make([]int, n)}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			d, err := s.Decide(ctx, req(b))
			res.Outcomes[i], res.Remaining[i], errs[i] = d.Outcome, d.Remaining, err
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			res.Errors = append(res.Errors, err.Error())
		}
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// runProcesses starts procs helper processes sharing one database file with
// a bucket seeded to quota 500, releases them together and collects their
// decisions.
func runProcesses(t *testing.T, procs, each int) []helperResult {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "shared.db")
	b := bucket(42)
	s, err := openReference(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(context.Background(), req(b)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().(*sqlite.Store).DB().Exec(`UPDATE rate_limit_buckets SET quota_remaining=500, reset_utc=? WHERE bucket_id=?`, time.Now().Add(time.Hour).Unix(), b); err != nil {
		t.Fatal(err)
	}
	s.Close()

	type child struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   *bufio.Reader
	}
	children := make([]child, procs)
	for i := range children {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.timeout=60s")
		cmd.Env = append(os.Environ(), helperEnv+"=1", "RLSPEC_HELPER_DB="+db,
			"RLSPEC_HELPER_BUCKET="+b, "RLSPEC_HELPER_N="+strconv.Itoa(each))
		cmd.Stderr = os.Stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		children[i] = child{cmd, stdin, bufio.NewReader(stdout)}
	}
	for i, c := range children {
		line, err := c.out.ReadString('\n')
		if err != nil || line != "ready\n" {
			t.Fatalf("child %d: %q %v", i, line, err)
		}
	}
	for _, c := range children {
		if _, err := io.WriteString(c.stdin, "go\n"); err != nil {
			t.Fatal(err)
		}
	}
	results := make([]helperResult, procs)
	for i, c := range children {
		if err := json.NewDecoder(c.out).Decode(&results[i]); err != nil {
			t.Fatalf("child %d result: %v", i, err)
		}
		if err := c.cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v", i, err)
		}
		for _, e := range results[i].Errors {
			t.Errorf("child %d: %s", i, e)
		}
	}
	return results
}

// AC7 across replicas: 4 OS processes sharing one database file make 1,000
// concurrent spends on a bucket with 500 left: exactly 500 succeed with
// Remaining 499…0 each once.
func TestMultiProcessSpends(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	results := runProcesses(t, 4, 250)
	var ds []reference.Decision
	for _, r := range results {
		for i := range r.Outcomes {
			ds = append(ds, reference.Decision{Outcome: r.Outcomes[i], Remaining: r.Remaining[i]})
		}
	}
	if len(ds) != 1000 {
		t.Fatalf("%d decisions", len(ds))
	}
	checkSpends(t, ds, 500, 500)
}

// openReference is the PRD's reference (500 per hour) on the file at path.
func openReference(ctx context.Context, path string) (*reference.Reference, error) {
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	return reference.New(model.PRD{Limit: 500, Window: time.Hour}, st)
}
