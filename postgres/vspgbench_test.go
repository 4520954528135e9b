package postgres

import (
	"context"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rlspec/rlspec/internal/pgcluster/pgtest"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// BenchmarkVsPgbench pairs, for every design, the reference's optimistic
// path with pgbench sending the very statements that path sent (replay):
// round by round on one database, b.N decisions each per round for 9
// rounds, it reports the median of the rounds' ratios (×pgbench) with
// their min and max beside each side's median rate, and the median ratio
// of the same statements sent from Go with nothing else (pgx-×pgbench):
// the Go client's share of the gap. On a shared machine a
// ratio taken within a round holds where separate runs drift apart.
//
//	go test -run '^$' -bench VsPgbench -benchtime 1000x ./postgres
func BenchmarkVsPgbench(b *testing.B) {
	pgbench := pgbenchPath(b)
	const rounds = 9
	for _, d := range benchDesigns(b) {
		for _, callers := range []int{1, 10} {
			b.Run(fmt.Sprintf("design=%s/callers=%d", d.name, callers), func(b *testing.B) {
				rec := &recorder{bucket: benchBucket(0)}
				s := open(b, WithMaxConns(callers), withTracer(rec))
				refs := make([]*reference.Reference, callers)
				for c := range refs {
					refs[c] = d.reference(b, s)
				}
				decideRate(b, refs, callers*(2*benchQuota+replayLen)) // to the steady state
				sc := rec.script(b)
				var ratios, bare, ours, theirs []float64
				for range rounds {
					r := decideRate(b, refs, b.N)
					g := sc.pgxRate(b, s, callers, b.N)
					p := sc.rate(b, pgbench, s, callers, b.N)
					ratios, bare, ours, theirs = append(ratios, r.perSec/p), append(bare, g/p), append(ours, r.perSec), append(theirs, p)
				}
				b.ReportMetric(median(ratios), "×pgbench")
				b.ReportMetric(slices.Min(ratios), "min-×pgbench")
				b.ReportMetric(slices.Max(ratios), "max-×pgbench")
				b.ReportMetric(median(bare), "pgx-×pgbench")
				b.ReportMetric(median(ours), "decisions/s")
				b.ReportMetric(median(theirs), "pgbench-tps")
			})
		}
	}
}

// A design's benchmark runs at a quota of benchQuota per minute, each
// caller's requests 750 ms apart on its own clock (stepClock): 80% of the
// quota's rate, so every request is allowed and each bucket's state (a
// sliding log of 80 times, a bucket's level) is the same at every step,
// whatever the machine's speed.
const (
	benchQuota  = 100
	benchWindow = time.Minute
	benchStep   = benchWindow * 5 / (4 * benchQuota)
)

type benchDesign struct {
	name string
	m    model.Model
}

// benchDesigns are the registered designs (their default alignment) and
// penalties around the PRD's.
func benchDesigns(tb testing.TB) []benchDesign {
	var out []benchDesign
	for _, p := range profile.All() {
		ps := p.AtQuota(profile.Params{Window: benchWindow, Rate: benchQuota / benchWindow.Seconds(), Align: p.Defaults.Align}, benchQuota)
		m, err := p.Design(ps)
		if err != nil {
			tb.Fatalf("%s: %v", p.Name, err)
		}
		out = append(out, benchDesign{string(p.Name), m})
	}
	prd, err := model.NewPRD(benchQuota, benchWindow)
	if err != nil {
		tb.Fatal(err)
	}
	return append(out, benchDesign{"penalties", model.Penalties{Inner: prd, Tiers: []model.PenaltyTier{{Count: 1, Duration: time.Minute}}}})
}

// reference is the design's reference on s for one caller, on a clock of
// its own.
func (d benchDesign) reference(tb testing.TB, s *Store) *reference.Reference {
	ref, err := reference.New(d.m, s, reference.WithClock(&stepClock{now: time.Unix(1_800_000_000, 0), step: benchStep}))
	if err != nil {
		tb.Fatal(err)
	}
	return ref
}

// stepClock moves on by step at every reading; one caller reads it.
type stepClock struct {
	now  time.Time
	step time.Duration
}

func (c *stepClock) Now() time.Time {
	c.now = c.now.Add(c.step)
	return c.now
}

// replayLen is how many consecutive decisions of one bucket the replay
// sends, again and again.
const replayLen = 10

// recorder keeps the last replayLen optimistic writes of bucket with their
// arguments, as pgx sent them.
type recorder struct {
	bucket string
	mu     sync.Mutex
	sent   []stmt
}

func withTracer(t pgx.QueryTracer) Option {
	return func(o *options) error { o.tracer = t; return nil }
}

func (r *recorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, q pgx.TraceQueryStartData) context.Context {
	if strings.HasPrefix(q.SQL, "WITH l AS") && len(q.Args) > 1+2*len(stateTypes) && q.Args[0] == r.bucket {
		r.mu.Lock()
		r.sent = append(r.sent, stmt{q.SQL, slices.Clone(q.Args)})
		if len(r.sent) > replayLen {
			r.sent = r.sent[1:]
		}
		r.mu.Unlock()
	}
	return ctx
}

func (*recorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// replay is a pgbench script of the recorded statements, each its own
// transaction, on bucket 20 + the client's number. Its last write puts
// back the state its first expects, so the script runs again and again,
// every statement writing: the same statements, arguments and sizes of
// state the reference sent, the only change one state written twice.
type replay struct {
	script string
	vars   []string // -D name=value
	first  []any    // the state the first statement expects
	stmts  []stmt   // the statements, the last one's write changed
}

func (r *recorder) script(tb testing.TB) replay {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.sent) < replayLen {
		tb.Fatalf("recorded %d optimistic writes of %s, want %d", len(r.sent), r.bucket, replayLen)
	}
	n := len(stateTypes)
	rp := replay{first: r.sent[0].args[1 : 1+n]}
	var sb strings.Builder
	sb.WriteString("\\set b 20 + :client_id\n")
	param := regexp.MustCompile(`\$[0-9]+`)
	for i, s := range r.sent {
		args := slices.Clone(s.args)
		if i == len(r.sent)-1 {
			copy(args[1+n:1+2*n], rp.first)
		}
		rp.stmts = append(rp.stmts, stmt{s.sql, args})
		sb.WriteString(param.ReplaceAllStringFunc(s.sql, func(p string) string {
			k, _ := strconv.Atoi(p[1:])
			switch {
			case k == 1:
				return ":b"
			case args[k-1] == "":
				return "''" // pgbench takes no empty -D value
			}
			return fmt.Sprintf(":s%d_%d", i, k)
		}) + ";\n")
		for k, v := range args[1:] {
			if v == "" {
				continue
			}
			if b, ok := v.([]byte); ok {
				v = `\x` + hex.EncodeToString(b)
			}
			rp.vars = append(rp.vars, "-D", fmt.Sprintf("s%d_%d=%v", i, k+2, v))
		}
	}
	rp.script = sb.String()
	return rp
}

// reset sets buckets from+0, from+1, … to the state the replay starts
// from.
func (rp replay) reset(tb testing.TB, s *Store, from, clients int) {
	for c := range clients {
		if _, err := s.pool.Exec(context.Background(), sqlPutBucket, append([]any{strconv.Itoa(from + c)}, rp.first...)...); err != nil {
			tb.Fatal(err)
		}
	}
}

// pgxRate sends the replay's statements from Go as the store sends them
// (QueryRow on its pool), each caller on bucket 30 + its number, about n
// in all; statements per second. Beside pgbench it is the Go client's own
// share of the gap, beside the reference the decision's.
func (rp replay) pgxRate(tb testing.TB, s *Store, callers, n int) float64 {
	rp.reset(tb, s, 30, callers)
	per := max(1, n/(callers*replayLen)) * replayLen
	var wg sync.WaitGroup
	start := time.Now()
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				st := rp.stmts[i%replayLen]
				args := slices.Clone(st.args)
				args[0] = strconv.Itoa(30 + c)
				var wrote int
				if err := s.pool.QueryRow(context.Background(), st.sql, args...).Scan(&wrote); err != nil || wrote != 1 {
					tb.Errorf("replay from pgx: %d rows written, %v", wrote, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(callers*per) / time.Since(start).Seconds()
}

// rate sets the clients' buckets to the state the script starts from and
// runs it, about n statements in all; statements per second.
func (rp replay) rate(tb testing.TB, pgbench string, s *Store, clients, n int) float64 {
	tb.Helper()
	rp.reset(tb, s, 20, clients)
	rides := func() (n int) {
		if err := s.pool.QueryRow(context.Background(), `SELECT count(*) FROM ride_ingest`).Scan(&n); err != nil {
			tb.Fatal(err)
		}
		return n
	}
	before, per := rides(), max(1, n/(clients*replayLen))
	tps := pgtest.Pgbench(tb, pgbench, tb.TempDir(), rp.script, clients, per, append(rp.vars, s.pool.Config().ConnString())...)
	if got, want := rides()-before, clients*per*replayLen; got != want {
		tb.Fatalf("the replay wrote %d of its %d statements", got, want)
	}
	return tps * replayLen
}
