package main

import (
	"fmt"
	"io"
	"os"

	"github.com/rlspec/rlspec/internal/junit"
)

// couldNotRun ends a command that could not run: the one sentence on stderr
// ("rlspec <cmd>: <msg>") and a junit.xml in dir with one error case saying
// why, so CI finds a report on exit 2 too. An empty dir is REPORT_DIR from
// the environment, or its default.
func couldNotRun(stderr io.Writer, cmd, dir, msg string) int {
	fmt.Fprintf(stderr, "rlspec %s: %s\n", cmd, msg)
	if err := junit.WriteError(junit.ReportDir(dir, os.LookupEnv), "rlspec "+cmd, msg); err != nil {
		fmt.Fprintf(stderr, "rlspec %s: %v\n", cmd, err)
	}
	return 2
}
