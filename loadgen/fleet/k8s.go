package fleet

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// The manifest's own types: the few fields of a batch/v1 Job it sets,
// named as the Kubernetes API names them (the tests decode it strictly
// into k8s.io/api's batchv1.Job).
type (
	k8sJob struct {
		APIVersion string     `yaml:"apiVersion"`
		Kind       string     `yaml:"kind"`
		Metadata   k8sMeta    `yaml:"metadata"`
		Spec       k8sJobSpec `yaml:"spec"`
	}
	k8sMeta struct {
		Name   string            `yaml:"name,omitempty"`
		Labels map[string]string `yaml:"labels"`
	}
	k8sJobSpec struct {
		CompletionMode string      `yaml:"completionMode"`
		Completions    int         `yaml:"completions"`
		Parallelism    int         `yaml:"parallelism"`
		BackoffLimit   int         `yaml:"backoffLimit"`
		Template       k8sTemplate `yaml:"template"`
	}
	k8sTemplate struct {
		Metadata k8sMeta    `yaml:"metadata"`
		Spec     k8sPodSpec `yaml:"spec"`
	}
	k8sPodSpec struct {
		RestartPolicy string         `yaml:"restartPolicy"`
		Containers    []k8sContainer `yaml:"containers"`
		Volumes       []k8sVolume    `yaml:"volumes"`
	}
	k8sContainer struct {
		Name         string     `yaml:"name"`
		Image        string     `yaml:"image"`
		Command      []string   `yaml:"command"`
		Env          []k8sEnv   `yaml:"env"`
		VolumeMounts []k8sMount `yaml:"volumeMounts"`
	}
	k8sEnv struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	}
	k8sMount struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	}
	k8sVolume struct {
		Name string   `yaml:"name"`
		PVC  k8sClaim `yaml:"persistentVolumeClaim"`
	}
	k8sClaim struct {
		ClaimName string `yaml:"claimName"`
	}
)

// ClaimName is the PersistentVolumeClaim the Job's pods write their
// reports to (ReadWriteMany, created beforehand): one directory per pod,
// generator-<JOB_COMPLETION_INDEX>, merged afterwards with
// `loadgen merge <claim>/generator-*/load.hlog`.
func ClaimName(p Plan) string { return p.Name + "-reports" }

// Job is the plan as a Kubernetes Indexed Job manifest (YAML):
// completions = parallelism = Generators, every pod the same but for
// JOB_COMPLETION_INDEX, which the Job controller sets and which picks the
// pod's share; no retries (backoffLimit 0), so a generator that died is
// missing from the Job's completions rather than run twice.
func Job(p Plan) ([]byte, error) {
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	labels := map[string]string{Label: p.Name}
	env := make([]k8sEnv, 0, len(p.Environ()))
	for _, kv := range p.Environ() {
		k, v, _ := bytes.Cut([]byte(kv), []byte("="))
		env = append(env, k8sEnv{Name: string(k), Value: string(v)})
	}
	j := k8sJob{
		APIVersion: "batch/v1", Kind: "Job",
		Metadata: k8sMeta{Name: p.Name, Labels: labels},
		Spec: k8sJobSpec{
			CompletionMode: "Indexed", Completions: p.Generators, Parallelism: p.Generators,
			Template: k8sTemplate{
				Metadata: k8sMeta{Labels: labels},
				Spec: k8sPodSpec{
					RestartPolicy: "Never",
					Containers: []k8sContainer{{
						Name: "loadgen", Image: p.Image, Command: p.Command(), Env: env,
						VolumeMounts: []k8sMount{{Name: "reports", MountPath: ReportDirIn}},
					}},
					Volumes: []k8sVolume{{Name: "reports", PVC: k8sClaim{ClaimName: ClaimName(p)}}},
				},
			},
		},
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(j); err != nil {
		return nil, fmt.Errorf("encode job: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode job: %w", err)
	}
	return buf.Bytes(), nil
}
