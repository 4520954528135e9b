package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
)

// Report is a JUnit XML document as read back: the totals of its
// testsuites element and its suites.
type Report struct {
	Tests, Failures, Errors int
	Suites                  []Suite
}

// NoReason is the Skipped of a case read as skipped without a message, so
// that Skipped != "" says skipped for every case read.
const NoReason = "(no reason given)"

// Read reads a JUnit XML document of the schema Write writes.
func Read(r io.Reader) (Report, error) {
	var doc xmlSuites
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		return Report{}, fmt.Errorf("junit: %w", err)
	}
	rep := Report{Tests: doc.Tests, Failures: doc.Failures, Errors: doc.Errors}
	for _, xs := range doc.Suites {
		s := Suite{Name: xs.Name, Properties: unprops(xs.Properties)}
		for _, xc := range xs.Cases {
			c := Case{Name: xc.Name, Classname: xc.Classname, Properties: unprops(xc.Properties),
				Failure: unproblem(xc.Failure), Error: unproblem(xc.Error)}
			if xc.Skipped != nil {
				c.Skipped = xc.Skipped.Message
				if c.Skipped == "" {
					c.Skipped = NoReason
				}
			}
			s.Cases = append(s.Cases, c)
		}
		rep.Suites = append(rep.Suites, s)
	}
	return rep, nil
}

// ReadFile reads the JUnit XML document at path.
func ReadFile(path string) (Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return Report{}, err
	}
	defer f.Close()
	rep, err := Read(f)
	if err != nil {
		return Report{}, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// Property is the value of the case's property name, "" when it has none.
func (c Case) Property(name string) string {
	for _, p := range c.Properties {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

func unprops(x *xmlProps) []Property {
	if x == nil {
		return nil
	}
	return x.Props
}

func unproblem(x *xmlProblem) *Problem {
	if x == nil {
		return nil
	}
	return &Problem{Message: x.Message, Type: x.Type, Text: x.Text}
}
