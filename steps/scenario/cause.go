package scenario

import (
	"errors"
	"strings"
)

// Precondition marks a violation found while a step set the scenario up:
// the scenario never reached the clause it checks.
func Precondition(err error) error {
	var v *Violation
	if errors.As(err, &v) {
		v.Precondition = true
	}
	return err
}

// CauseOf is the root cause of a failure that is not a violation: its
// first line.
func CauseOf(err error) string {
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}
