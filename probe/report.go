package probe

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/rlspec/rlspec/dialect"
)

// Report is what a probe writes: where it went, what it saw, the
// suggested settings and what it could not tell.
type Report struct {
	Endpoint string // method and URL, credentials masked
	Local    bool
	Session  *Session
	Suggest  Suggestion
	// Target are the settings that say where the target is, each Value
	// already one shell word with credentials as variable references
	// (redact.CurlURL, redact.Headers); Notes say which
	// variables to export.
	Target []Setting
	Notes  []string
}

// Write writes the report, ending with the command to paste.
func (r Report) Write(w io.Writer) {
	s, f := r.Session, &r.Session.F
	where := "on loopback"
	if !r.Local {
		where = "not on loopback"
	}
	fmt.Fprintf(w, "rlspec probe: %s (%s): %d of %d requests sent, %s waited\n", r.Endpoint, where, s.Sent(), s.budget, s.waited.Round(time.Second))
	fmt.Fprintf(w, "\nseen (findings, not a verdict):\n")
	fmt.Fprintf(w, "  statuses: %s\n", statuses(s.Seen))
	fmt.Fprintf(w, "  %s\n", f.Detection.Sentence("the first answer"))
	if f.First != nil {
		fmt.Fprintf(w, "  first answer: %s\n", answerLine(*f.First))
	}
	if q := f.Queue; q != nil {
		fmt.Fprintf(w, "  late answers: %s on one key (each sent once the one before was answered); then %d sent at once on a fresh key: %d allowed over %s, %d refused\n",
			durations(f.Delays), q.Sent, q.Allowed, q.Span.Round(10*time.Millisecond), q.Sent-q.Allowed)
	} else if f.LimitHeader > 0 {
		fmt.Fprintf(w, "  limit: %d (the Limit field); %d allowed on a fresh key before the first refusal\n", f.LimitHeader, f.Allowed)
	} else if f.Refusal != nil {
		fmt.Fprintf(w, "  limit: %d allowed on a fresh key before the first refusal (no Limit field)\n", f.Allowed)
	}
	if f.Refusal != nil {
		fmt.Fprintf(w, "  refusal: %s\n", answerLine(*f.Refusal))
	}
	if f.Keying != KeyedUnknown {
		fmt.Fprintf(w, "  clients: keyed by %s — %s\n", f.Keying, f.KeyingHow)
	}
	if rf := f.Refilled; rf != nil && rf.First != nil {
		fmt.Fprintf(w, "  after waiting %s: %d allowed again on the refused key (first: %s)\n", rf.Waited.Round(time.Second), rf.Allowed, answerLine(*rf.First))
	}
	g := r.Suggest
	fmt.Fprintf(w, "\nsuggested settings (settings to try, not a verdict):\n")
	width := 0
	for _, st := range g.Settings {
		width = max(width, len(st.Name+"="+Word(st.Value)))
	}
	for _, st := range g.Settings {
		fmt.Fprintf(w, "  %-*s  # %s\n", width, st.Name+"="+Word(st.Value), st.Why)
	}
	if len(g.Unknown) > 0 {
		fmt.Fprintf(w, "\nnot determined:\n")
		for _, u := range g.Unknown {
			fmt.Fprintf(w, "  - %s\n", u)
		}
	}
	for _, n := range r.Notes {
		if n != "" {
			fmt.Fprintf(w, "\n%s\n", n)
		}
	}
	fmt.Fprintf(w, "\nto run the acceptance suite with these settings:\n\n  %s\n", Command(r.Target, g))
}

// Command is the acceptance run's command line: target's settings (shell
// words already), then the suggestion's, quoted.
func Command(target []Setting, g Suggestion) string {
	var b strings.Builder
	given := map[string]bool{}
	for _, st := range g.Settings {
		given[st.Name] = true
	}
	for _, st := range target {
		if given[st.Name] {
			continue
		}
		b.WriteString(st.Name + "=" + st.Value + " ")
	}
	for _, st := range g.Settings {
		b.WriteString(st.Name + "=" + Word(st.Value) + " ")
	}
	b.WriteString("rlspec acceptance")
	return b.String()
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]*$`)

// Word is v as one shell word.
func Word(v string) string {
	if plainWord.MatchString(v) && v != "" {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}

// statuses summarises the statuses per probe key in the order sent:
// "key A: 5×200, 429; key B: 200".
func statuses(seen []Seen) string {
	type group struct {
		label string
		st    []string
	}
	var gs []group
	for _, sn := range seen {
		st := "error"
		if sn.Ex.Err == nil {
			st = fmt.Sprint(sn.Ex.Status)
		}
		label := "key " + sn.Key
		if sn.Client > 0 {
			label += " from another address"
		}
		if len(gs) == 0 || gs[len(gs)-1].label != label {
			gs = append(gs, group{label: label})
		}
		gs[len(gs)-1].st = append(gs[len(gs)-1].st, st)
	}
	parts := make([]string, 0, len(gs))
	for _, g := range gs {
		var run []string
		for i := 0; i < len(g.st); {
			j := i
			for j < len(g.st) && g.st[j] == g.st[i] {
				j++
			}
			if j-i > 1 {
				run = append(run, fmt.Sprintf("%d×%s", j-i, g.st[i]))
			} else {
				run = append(run, g.st[i])
			}
			i = j
		}
		parts = append(parts, g.label+": "+strings.Join(run, ", "))
	}
	return strings.Join(parts, "; ")
}

// answerLine is an answer's status, the rate-limit lines read and its body.
func answerLine(sn Seen) string {
	ex := sn.Ex
	if ex.Err != nil {
		return "no answer: " + ex.Err.Error()
	}
	lines := sn.Obs.Lines
	if len(lines) == 0 {
		lines = []string{"no rate-limit fields"}
	}
	s := fmt.Sprintf("HTTP %d [%s]", ex.Status, strings.Join(lines, "; "))
	if sn.Obs.Refused || ex.Status/100 != 2 {
		s += excerpt(ex.RespBody)
	}
	if sn.Obs.Has(dialect.FieldReset) && sn.Obs.Err == nil {
		s += fmt.Sprintf(" (Reset %s ahead)", sn.Obs.Reset.Sub(ex.Received).Round(time.Second))
	}
	return s
}
