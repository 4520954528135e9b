package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/moby/moby/api/types/mount"
	"github.com/moby/moby/api/types/swarm"
	"github.com/moby/moby/client"
)

// Label marks every Swarm service a plan starts (value: the plan's name).
const Label = "org.rlspec.load"

// Swarm runs a plan as a Docker Swarm service of Generators replicas on
// the engine's swarm (`docker swarm init` makes this machine a one-node
// one): the image is the local one, no registry is asked; each replica
// runs `/loadgen run` with the plan's settings and SWARM_TASK_SLOT (its
// slot, from 1); the plan's report directory is bind-mounted at /reports,
// so on a swarm of several nodes it must be a shared file system mounted
// at the same path on each. Replicas never restart: one that exits is
// finished or failed. The service is removed when Run returns.
type Swarm struct {
	Client *client.Client
	// Network the replicas join: "host" (the default) lets them reach what
	// this machine reaches, 127.0.0.1 included, with its addresses.
	Network string
	// Poll is how often the tasks are listed while waiting (default 250 ms).
	Poll time.Duration
	// User runs the replicas ("uid:gid"; default this process's), so the
	// reports they write are this user's.
	User string
	Log  io.Writer // progress lines; nil: none
}

var _ Orchestrator = Swarm{}

// Run creates the service, waits for its tasks to end and removes it.
func (s Swarm) Run(ctx context.Context, p Plan) ([]Outcome, error) {
	if s.Client == nil {
		return nil, errors.New("swarm: no Docker client")
	}
	info, err := s.Client.Info(ctx, client.InfoOptions{})
	if err != nil {
		return nil, fmt.Errorf("swarm: docker info: %w", err)
	}
	if !info.Info.Swarm.ControlAvailable {
		return nil, errors.New("swarm: this Docker engine is not a Swarm manager (docker swarm init makes it one)")
	}
	if err := os.MkdirAll(p.ReportDir, 0o755); err != nil {
		return nil, fmt.Errorf("swarm: report dir: %w", err)
	}
	created, err := s.Client.ServiceCreate(ctx, client.ServiceCreateOptions{Spec: s.spec(p)})
	if err != nil {
		return nil, fmt.Errorf("swarm: create service %s: %w", p.Name, err)
	}
	s.logf("swarm: service %s: %d generators of %s, start at %s", p.Name, p.Generators, p.Image, p.StartAt.UTC().Format(time.RFC3339Nano))
	defer func() {
		// Removed also when ctx has ended, so not with ctx.
		rm, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, err := s.Client.ServiceRemove(rm, created.ID, client.ServiceRemoveOptions{}); err != nil {
			s.logf("swarm: remove service %s: %v", p.Name, err)
		}
	}()
	return s.wait(ctx, p, created.ID)
}

func (s Swarm) spec(p Plan) swarm.ServiceSpec {
	replicas := uint64(p.Generators)
	none := swarm.RestartPolicyConditionNone
	network := s.Network
	if network == "" {
		network = "host"
	}
	user := s.User
	if user == "" {
		user = fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid())
	}
	return swarm.ServiceSpec{
		Annotations: swarm.Annotations{Name: p.Name, Labels: map[string]string{Label: p.Name}},
		TaskTemplate: swarm.TaskSpec{
			ContainerSpec: &swarm.ContainerSpec{
				Image:   p.Image,
				Command: p.Command(),
				Env:     append(p.Environ(), EnvSwarmSlot+"={{.Task.Slot}}"),
				User:    user,
				Labels:  map[string]string{Label: p.Name},
				Mounts:  []mount.Mount{{Type: mount.TypeBind, Source: p.ReportDir, Target: ReportDirIn}},
			},
			RestartPolicy: &swarm.RestartPolicy{Condition: none},
			Networks:      []swarm.NetworkAttachmentConfig{{Target: network}},
		},
		Mode: swarm.ServiceMode{Replicated: &swarm.ReplicatedService{Replicas: &replicas}},
	}
}

// wait lists the service's tasks every Poll until each slot's task has
// ended, ctx ends or the plan's deadline passes.
func (s Swarm) wait(ctx context.Context, p Plan, id string) ([]Outcome, error) {
	poll := s.Poll
	if poll <= 0 {
		poll = 250 * time.Millisecond
	}
	ctx, cancel := context.WithDeadline(ctx, p.Deadline)
	defer cancel()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		tasks, err := s.Client.TaskList(ctx, client.TaskListOptions{Filters: make(client.Filters).Add("service", id)})
		if err == nil {
			if out, done := outcomes(p, tasks.Items); done {
				return out, nil
			}
		}
		select {
		case <-ctx.Done():
			out, _ := outcomes(p, tasks.Items)
			for i := range out {
				if out[i].Err == nil {
					out[i].Err = fmt.Errorf("still running when the wait ended (%v)", ctx.Err())
				}
			}
			return out, fmt.Errorf("swarm: wait for %s: %w", p.Name, ctx.Err())
		case <-tick.C:
		}
	}
}

// outcomes maps the tasks to generators (slot n is generator n-1): done
// when every slot's task has ended. A slot without a task, or whose task
// has not ended, is an outcome with an error.
func outcomes(p Plan, tasks []swarm.Task) ([]Outcome, bool) {
	bySlot := map[int]swarm.Task{}
	for _, t := range tasks {
		if cur, ok := bySlot[t.Slot]; !ok || t.Meta.CreatedAt.After(cur.Meta.CreatedAt) {
			bySlot[t.Slot] = t
		}
	}
	done := true
	out := make([]Outcome, 0, p.Generators)
	for i := range p.Generators {
		t, ok := bySlot[i+1]
		o := Outcome{Index: i, Name: p.Name + "." + strconv.Itoa(i+1)}
		switch {
		case !ok:
			done = false
			o.Err = errors.New("no task was started")
		case t.Status.State == swarm.TaskStateComplete:
		case ended(t.Status.State):
			o.Err = taskError(t)
		default:
			done = false
			o.Err = fmt.Errorf("task %s", t.Status.State)
		}
		out = append(out, o)
	}
	return out, done
}

func ended(s swarm.TaskState) bool {
	switch s {
	case swarm.TaskStateComplete, swarm.TaskStateFailed, swarm.TaskStateRejected,
		swarm.TaskStateShutdown, swarm.TaskStateRemove, swarm.TaskStateOrphaned:
		return true
	}
	return false
}

func taskError(t swarm.Task) error {
	msg := fmt.Sprintf("task %s", t.Status.State)
	if cs := t.Status.ContainerStatus; cs != nil && cs.ExitCode != 0 {
		msg += fmt.Sprintf(", exit status %d", cs.ExitCode)
	}
	if t.Status.Err != "" {
		msg += ": " + t.Status.Err
	}
	return errors.New(msg)
}

func (s Swarm) logf(format string, args ...any) {
	if s.Log != nil {
		fmt.Fprintf(s.Log, format+"\n", args...)
	}
}
