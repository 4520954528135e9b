package main

import (
	"io"
	"strings"
)

// flagGiven reports whether -name (or --name) is among args.
func flagGiven(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

// prefixed writes each Fprintf'd line to w behind prefix.
func prefixed(w io.Writer, prefix string) io.Writer { return prefixWriter{w, prefix} }

type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
