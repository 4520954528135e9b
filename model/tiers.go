package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Tier is one entry of an RL_TIERS file (profiles.md SL-9, spec/002's
// endpoint categories): requests to Path with Method are limited to Limit
// in any Window, keyed as Key says ("" the profile's key), on a count of
// their own.
type Tier struct {
	Path   string
	Method string
	Limit  int
	Window time.Duration
	Key    string
}

// tierJSON is a Tier as the file spells it; window is seconds or a Go
// duration string.
type tierJSON struct {
	Path   string          `json:"path"`
	Method string          `json:"method"`
	Limit  int             `json:"limit"`
	Window json.RawMessage `json:"window"`
	Key    string          `json:"key"`
}

// ParseTiers reads an RL_TIERS file: a JSON array of {"path", "method"
// (default GET), "limit", "window" (seconds or "3s"), "key"}; paths are
// distinct and start with '/', limits >= 1, windows whole seconds >= 1 s.
func ParseTiers(data []byte) ([]Tier, error) {
	var raw []tierJSON
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not a JSON array of tiers: %w", err)
	}
	if len(raw) == 0 {
		return nil, errors.New("no tiers")
	}
	seen := map[string]bool{}
	out := make([]Tier, 0, len(raw))
	for i, r := range raw {
		t := Tier{Path: r.Path, Method: strings.ToUpper(strings.TrimSpace(r.Method)), Limit: r.Limit, Key: strings.TrimSpace(r.Key)}
		if t.Method == "" {
			t.Method = "GET"
		}
		w, err := tierWindow(r.Window)
		switch {
		case !strings.HasPrefix(t.Path, "/") || seen[t.Path]:
			return nil, fmt.Errorf("tier %d: path %q must start with / and differ from the others'", i+1, t.Path)
		case t.Limit < 1:
			return nil, fmt.Errorf("tier %d (%s): limit %d must be at least 1", i+1, t.Path, t.Limit)
		case err != nil:
			return nil, fmt.Errorf("tier %d (%s): window: %w", i+1, t.Path, err)
		}
		t.Window, seen[t.Path] = w, true
		out = append(out, t)
	}
	return out, nil
}

// tierWindow reads a window of seconds (a number) or a Go duration string.
func tierWindow(raw json.RawMessage) (time.Duration, error) {
	var secs int64
	if err := json.Unmarshal(raw, &secs); err == nil {
		return parseSeconds(fmt.Sprint(secs))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, errors.New("neither seconds nor a duration string")
	}
	return parseSeconds(s)
}
