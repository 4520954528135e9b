package fleet

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite testdata/job.yaml")

func k8sPlan() Plan {
	return Plan{Name: "rlspec-load-0a1b2c3d", Image: "rlspec:latest", Generators: 4,
		StartAt: time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC),
		Args:    []string{"-rate=4000", "-buckets=1000", "-duration=60s", "-target-url=http://limiter.default.svc:8080"}}
}

// TestJobGolden: the manifest is testdata/job.yaml (go test -update
// rewrites it) and decodes strictly (no unknown or duplicate field) into
// a batchv1.Job: Indexed, completions = parallelism = 4, no retries, every
// pod told GENERATORS and START_AT, its index left to JOB_COMPLETION_INDEX.
func TestJobGolden(t *testing.T) {
	got, err := Job(k8sPlan())
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "job.yaml")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("manifest differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(got, &job); err != nil {
		t.Fatalf("strict decode into batchv1.Job: %v", err)
	}
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Name != "rlspec-load-0a1b2c3d" {
		t.Errorf("%s %s %s", job.APIVersion, job.Kind, job.Name)
	}
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion ||
		s.Completions == nil || *s.Completions != 4 || s.Parallelism == nil || *s.Parallelism != 4 ||
		s.BackoffLimit == nil || *s.BackoffLimit != 0 {
		t.Errorf("spec %+v: want Indexed, completions = parallelism = 4, backoffLimit 0", s)
	}
	pod := s.Template.Spec
	if pod.RestartPolicy != "Never" || len(pod.Containers) != 1 {
		t.Fatalf("pod %+v", pod)
	}
	c := pod.Containers[0]
	if c.Image != "rlspec:latest" || c.Command[0] != "/loadgen" || c.Command[1] != "run" {
		t.Errorf("container %s %v", c.Image, c.Command)
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	if env[EnvGenerators] != "4" || env[EnvStartAt] != "2026-11-25T23:00:00Z" || env[EnvReportDir] != ReportDirIn {
		t.Errorf("env %v", env)
	}
	for _, k := range []string{EnvIndex, EnvJobIndex, EnvSwarmSlot} {
		if _, ok := env[k]; ok {
			t.Errorf("%s set in the template: the index must come from the Job controller", k)
		}
	}
	if len(pod.Volumes) != 1 || pod.Volumes[0].PersistentVolumeClaim == nil || pod.Volumes[0].PersistentVolumeClaim.ClaimName != "rlspec-load-0a1b2c3d-reports" ||
		len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != ReportDirIn {
		t.Errorf("volumes %+v mounts %+v", pod.Volumes, c.VolumeMounts)
	}
}

// TestJobStrictDecodeCatchesAnUnknownField: the strict decoding the golden
// test relies on refuses a field batchv1.Job does not have.
func TestJobStrictDecodeCatchesAnUnknownField(t *testing.T) {
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte("apiVersion: batch/v1\nkind: Job\nspec:\n  completionIndex: 3\n"), &job); err == nil {
		t.Fatal("an unknown field decoded")
	}
}
