package fleet

import (
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/api/types/swarm"
)

func task(slot int, state swarm.TaskState, created time.Time, exit int) swarm.Task {
	t := swarm.Task{Slot: slot, Status: swarm.TaskStatus{State: state, ContainerStatus: &swarm.ContainerStatus{ExitCode: exit}}}
	t.Meta.CreatedAt = created
	return t
}

// TestOutcomes: slot n is generator n-1, its latest task counts; the wait
// is done only when every slot's task has ended; a failed task carries
// its exit status, a slot without a task says so.
func TestOutcomes(t *testing.T) {
	p := Plan{Name: "svc", Generators: 3}
	t0 := time.Unix(1_700_000_000, 0)
	tasks := []swarm.Task{
		task(1, swarm.TaskStateComplete, t0, 0),
		task(2, swarm.TaskStateFailed, t0, 1), // an older task of slot 2
		task(2, swarm.TaskStateFailed, t0.Add(time.Second), 137),
		task(3, swarm.TaskStateRunning, t0, 0),
	}
	out, done := outcomes(p, tasks)
	if done {
		t.Error("done with slot 3 still running")
	}
	if out[0].Err != nil || out[0].Index != 0 || out[0].Name != "svc.1" {
		t.Errorf("slot 1: %+v", out[0])
	}
	if out[1].Err == nil || !strings.Contains(out[1].Err.Error(), "exit status 137") {
		t.Errorf("slot 2: %v, want the latest task's exit status 137", out[1].Err)
	}
	tasks[3] = task(3, swarm.TaskStateShutdown, t0, 0)
	if out, done = outcomes(p, tasks); !done || out[2].Err == nil {
		t.Errorf("slot 3 shut down: done %v err %v", done, out[2].Err)
	}
	if out, done = outcomes(p, tasks[:1]); done || !strings.Contains(out[2].Err.Error(), "no task") {
		t.Errorf("missing slots: done %v %+v", done, out)
	}
}
