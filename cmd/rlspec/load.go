package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// runLoad is `rlspec load`: `loadgen run` with the same flags, by the
// loadgen command installed beside rlspec (go install, the harness image's
// /loadgen, make's bin/) or else on PATH. Its exit status is loadgen's.
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	bin, err := loadgenBinary(os.Executable, exec.LookPath)
	if err != nil {
		fmt.Fprintf(stderr, "rlspec: cannot run load: %v\n", err)
		return 2
	}
	cmd := exec.CommandContext(ctx, bin, append([]string{"run"}, args...)...)
	cmd.Stdout, cmd.Stderr, cmd.Env = stdout, stderr, os.Environ()
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	}
	fmt.Fprintf(stderr, "rlspec: cannot run load: %s: %v\n", bin, err)
	return 2
}

// loadgenBinary finds loadgen beside the running executable, else on PATH.
func loadgenBinary(executable func() (string, error), lookPath func(string) (string, error)) (string, error) {
	if self, err := executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), "loadgen")
		if fi, err := os.Stat(beside); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return beside, nil
		}
	}
	if p, err := lookPath("loadgen"); err == nil {
		return p, nil
	}
	return "", errors.New("the loadgen command is neither beside rlspec nor on PATH (go install github.com/rlspec/rlspec/cmd/loadgen@latest, or make)")
}
