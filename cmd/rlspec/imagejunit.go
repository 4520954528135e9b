package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rlspec/rlspec/internal/junit"
)

// imageSteps collects the steps of `rlspec image` (builds, smoke tests) as
// JUnit cases: a build that could not run is an error, a smoke test that
// failed a failure.
type imageSteps struct {
	started time.Time
	cases   []junit.Case
}

// step records one step that began at start; err nil passed, failed says
// whether err is the image's failure (else the step could not run).
func (s *imageSteps) step(name string, start time.Time, err error, failed bool) {
	c := junit.Case{Name: name, Classname: "rlspec.image", Elapsed: time.Since(start)}
	if err != nil {
		p := &junit.Problem{Message: oneLine(err.Error()), Text: err.Error()}
		if failed {
			p.Type, c.Failure = "SmokeTest", p
		} else {
			p.Type, c.Error = "CouldNotRun", p
		}
	}
	s.cases = append(s.cases, c)
}

// write writes junit.xml to REPORT_DIR (or its default) and returns code.
func (s *imageSteps) write(stderr io.Writer, code int) int {
	dir := junit.ReportDir("", os.LookupEnv)
	suite := junit.Suite{Name: "rlspec image", Started: s.started, Elapsed: time.Since(s.started), Cases: s.cases}
	if err := junit.WriteFile(dir, suite); err != nil {
		fmt.Fprintf(stderr, "rlspec image: %v\n", err)
		return max(code, 2)
	}
	return code
}
