package envflag

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A setting mistyped is a setting ignored: TARGET_ULR=… leaves TARGET_URL
// unset and, without a target, the embedded reference runs. The names a
// command knows are those its flags looked up while they were bound
// (Recorder), so there is no second list to keep; Unknown
// warns about the rest of rlspec's namespace.

// Recorder is a Getenv that remembers every name looked up through it.
type Recorder struct {
	getenv Getenv
	names  map[string]bool
}

// Record wraps getenv (nil: os.LookupEnv's default through the flags).
func Record(getenv Getenv) *Recorder {
	return &Recorder{getenv: getenv, names: map[string]bool{}}
}

// Lookup is the Getenv to bind a command's settings with.
func (r *Recorder) Lookup(name string) (string, bool) {
	r.names[name] = true
	if r.getenv == nil {
		return "", false
	}
	return r.getenv(name)
}

// Names are the names looked up so far, sorted.
func (r *Recorder) Names() []string {
	return slices.Sorted(maps.Keys(r.names))
}

// settingPrefixes are the namespaces of rlspec's own variables: anything
// under them a command does not read is a mistake worth a warning.
var settingPrefixes = []string{"TARGET_", "RL_"}

// Unknown returns one sentence per variable of environ ("NAME=value"
// entries) that is not in known but is under rlspec's prefixes (TARGET_*,
// RL_*) or one letter away from a known name (TAG for TAGS, PROFLE), with
// the nearest known name when one is close: "TARGET_ULR is not a setting
// of rlspec acceptance; did you mean TARGET_URL?".
func Unknown(environ, known []string, command string) []string {
	var out []string
	seen := map[string]bool{}
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == "" || seen[name] || slices.Contains(known, name) {
			continue
		}
		seen[name] = true
		near, d := nearest(name, known)
		ours := slices.ContainsFunc(settingPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
		if !ours && !(d == 1 && len(near) >= 4) {
			continue
		}
		if near != "" && d <= max(2, len(near)/4) {
			out = append(out, fmt.Sprintf("%s is not a setting of %s; did you mean %s?", name, command, near))
		} else {
			out = append(out, fmt.Sprintf("%s is not a setting of %s; it is ignored", name, command))
		}
	}
	slices.Sort(out)
	return out
}

// nearest is the known name closest to name and its edit distance.
func nearest(name string, known []string) (string, int) {
	best, bd := "", -1
	for _, k := range known {
		if d := editDistance(name, k); bd < 0 || d < bd {
			best, bd = k, d
		}
	}
	return best, bd
}

// editDistance is the Levenshtein distance of a and b, with a swap of two
// neighbouring letters (ULR for URL) counted as one edit.
func editDistance(a, b string) int {
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// InCI reports whether the CI variable says the run is in CI (GitHub
// Actions and GitLab set CI=true).
func InCI(getenv Getenv) bool {
	v, _ := getenv("CI")
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "true" || v == "1" || v == "yes"
}
