package acceptance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rlspec/rlspec/steps"
)

// withNotClaimed adds to godog's cucumber JSON document (an array of
// features) the scenarios left out of the run because the target does
// not claim their feature, each SKIPPED with one step that says so: godog
// never saw them, and cucumber.json must hold the scenarios junit.xml
// holds.
func withNotClaimed(doc []byte, unclaimed []steps.ScenarioResult) ([]byte, error) {
	if len(unclaimed) == 0 {
		return doc, nil
	}
	features := []map[string]any{}
	if len(bytes.TrimSpace(doc)) > 0 {
		if err := json.Unmarshal(doc, &features); err != nil {
			return nil, fmt.Errorf("cucumber JSON: %w", err)
		}
	}
	for _, r := range unclaimed {
		var f map[string]any
		for _, g := range features {
			if g["uri"] == r.Feature {
				f = g
			}
		}
		if f == nil {
			id := strings.TrimSuffix(r.Feature, ".feature")
			f = map[string]any{"uri": r.Feature, "id": id, "keyword": "Feature", "name": id, "elements": []any{}}
			features = append(features, f)
		}
		elements, _ := f["elements"].([]any)
		f["elements"] = append(elements, map[string]any{
			"id": fmt.Sprintf("%v;%s", f["id"], strings.ToLower(r.ID)), "keyword": "Scenario", "type": "scenario", "name": r.Name,
			"tags": []map[string]any{{"name": "@id:" + r.ID}},
			"steps": []map[string]any{{"keyword": "Given ", "name": skippedStep(r),
				"result": map[string]any{"status": "skipped", "error_message": r.Reason}}},
		})
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetIndent("", "    ")
	err := enc.Encode(features)
	return out.Bytes(), err
}

// skippedStep is the one step of a scenario godog never saw: what it
// would have needed.
func skippedStep(r steps.ScenarioResult) string {
	if r.NotClaimed {
		return "the target claims the scenario's feature (FEATURES)"
	}
	return "rlspec has a scenario that checks it on this target"
}

// completeCucumber adds the scenarios not claimed to the run's cucumber
// JSON doc and gives it to w (RunAll's) and writes it to path (the report
// file), each where set.
func completeCucumber(w io.Writer, doc []byte, path string, unclaimed []steps.ScenarioResult) error {
	if w == nil && path == "" {
		return nil
	}
	full, err := withNotClaimed(doc, unclaimed)
	if err != nil {
		return fmt.Errorf("cucumber.json: %w", err)
	}
	if w != nil {
		if _, err := w.Write(full); err != nil {
			return err
		}
	}
	if path != "" {
		return os.WriteFile(path, full, 0o644)
	}
	return nil
}
