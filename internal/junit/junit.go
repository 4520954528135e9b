// Package junit writes JUnit XML (the Ant/Jenkins schema CI systems read)
// for every rlspec command: one suite of test cases, each passed, failed,
// in error or skipped, with properties. WriteError writes the report of a
// run that could not start, so CI always finds a junit.xml.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/rlspec/rlspec/service"
)

// FileName is the report's name inside REPORT_DIR.
const FileName = "junit.xml"

// Suite is one run of a command.
type Suite struct {
	Name       string
	Started    time.Time
	Elapsed    time.Duration
	Properties []Property
	Cases      []Case
}

// Case is one test case. At most one of Failure, Error and Skipped is set.
type Case struct {
	Name       string
	Classname  string
	Elapsed    time.Duration
	Properties []Property
	Failure    *Problem // the target broke the check
	Error      *Problem // the check could not run
	Skipped    string   // why it was skipped; "" when it ran
}

// Problem is a failure or an error: a one-line message, a type and the
// full text.
type Problem struct {
	Message, Type, Text string
}

// Property is a name and value shown with a suite or a case.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Prop is a Property of any printable value.
func Prop(name string, value any) Property { return Property{Name: name, Value: fmt.Sprint(value)} }

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Time     string     `xml:"time,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name       string    `xml:"name,attr"`
	Tests      int       `xml:"tests,attr"`
	Failures   int       `xml:"failures,attr"`
	Errors     int       `xml:"errors,attr"`
	Skipped    int       `xml:"skipped,attr"`
	Time       string    `xml:"time,attr"`
	Timestamp  string    `xml:"timestamp,attr"`
	Hostname   string    `xml:"hostname,attr"`
	Properties *xmlProps `xml:"properties,omitempty"`
	Cases      []xmlCase `xml:"testcase"`
}

type xmlProps struct {
	Props []Property `xml:"property"`
}

type xmlCase struct {
	Name       string      `xml:"name,attr"`
	Classname  string      `xml:"classname,attr"`
	Time       string      `xml:"time,attr"`
	Properties *xmlProps   `xml:"properties,omitempty"`
	Failure    *xmlProblem `xml:"failure,omitempty"`
	Error      *xmlProblem `xml:"error,omitempty"`
	Skipped    *xmlSkipped `xml:"skipped,omitempty"`
}

type xmlProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type xmlSkipped struct {
	Message string `xml:"message,attr"`
}

func secs(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func props(ps []Property) *xmlProps {
	if len(ps) == 0 {
		return nil
	}
	return &xmlProps{Props: ps}
}

func problem(p *Problem) *xmlProblem {
	if p == nil {
		return nil
	}
	return &xmlProblem{Message: p.Message, Type: p.Type, Text: p.Text}
}

// Write writes s as a JUnit XML document.
func Write(w io.Writer, s Suite) error {
	host, _ := os.Hostname()
	started := s.Started
	if started.IsZero() {
		started = time.Now()
	}
	xs := xmlSuite{Name: s.Name, Tests: len(s.Cases), Time: secs(s.Elapsed), Timestamp: started.UTC().Format("2006-01-02T15:04:05"),
		Hostname: host, Properties: props(s.Properties)}
	for _, c := range s.Cases {
		xc := xmlCase{Name: c.Name, Classname: c.Classname, Time: secs(c.Elapsed), Properties: props(c.Properties),
			Failure: problem(c.Failure), Error: problem(c.Error)}
		switch {
		case c.Failure != nil:
			xs.Failures++
		case c.Error != nil:
			xs.Errors++
		case c.Skipped != "":
			xs.Skipped++
			xc.Skipped = &xmlSkipped{Message: c.Skipped}
		}
		xs.Cases = append(xs.Cases, xc)
	}
	// testsuites has no skipped attribute in the Jenkins junit-10.xsd schema.
	doc := xmlSuites{Name: "rlspec", Tests: xs.Tests, Failures: xs.Failures, Errors: xs.Errors, Time: xs.Time, Suites: []xmlSuite{xs}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteFile writes s to dir/junit.xml, creating dir.
func WriteFile(dir string, s Suite) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	if err := Write(f, s); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// ReportDir is dir, or when it is empty (the settings could not be read)
// REPORT_DIR from getenv, or its default.
func ReportDir(dir string, getenv func(string) (string, bool)) string {
	if dir != "" {
		return dir
	}
	if d, ok := getenv("REPORT_DIR"); ok && d != "" {
		return d
	}
	return service.DefaultReportDir
}

// WriteError writes dir/junit.xml for a run of suite that could not run:
// one test case in error saying why.
func WriteError(dir, suite, reason string) error {
	return WriteFile(dir, Suite{Name: suite, Cases: []Case{{
		Name: "could not run", Classname: "rlspec",
		Error: &Problem{Message: reason, Type: "CouldNotRun", Text: reason},
	}}})
}
