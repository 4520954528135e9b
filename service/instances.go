package service

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/envflag"
)

// Several instances of one service on one store (profiles.md MI-1): running
// ones named by TARGET_URLS, or REPLICAS started by the command
// (TARGET_IMAGE's containers, the embedded reference's servers).

// Instances are the TARGET_URLS and REPLICAS settings as given.
type Instances struct {
	URLs     []string // TARGET_URLS, parsed; nil: not given
	Replicas int      // REPLICAS; at least 1
}

// InstancesVar binds TARGET_URLS and REPLICAS to fs (flags -target-urls and
// -replicas over the environment); the values are parsed and checked by
// the function it returns, to be called after fs.Parse.
func InstancesVar(fs *flag.FlagSet, getenv envflag.Getenv, replicasUsage string) func() (Instances, error) {
	var urls, replicas string
	envflag.StringVar(fs, getenv, &urls, "target-urls", "TARGET_URLS", "base URLs of several instances of one service sharing one store, comma-separated (replaces TARGET_URL)")
	envflag.StringVar(fs, getenv, &replicas, "replicas", "REPLICAS", replicasUsage)
	return func() (Instances, error) {
		in := Instances{Replicas: 1}
		var errs []error
		if s := strings.TrimSpace(replicas); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				errs = append(errs, fmt.Errorf("REPLICAS=%q must be an integer of at least 1", replicas))
			} else {
				in.Replicas = n
			}
		}
		if strings.TrimSpace(urls) != "" {
			list, err := ParseTargetURLs(urls)
			errs = append(errs, err)
			in.URLs = list
		}
		return in, errors.Join(errs...)
	}
}

// ParseTargetURLs splits TARGET_URLS and checks each is an http(s) base URL.
func ParseTargetURLs(s string) ([]string, error) {
	var list []string
	for _, u := range strings.Split(s, ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		if err := CheckBaseURL(u); err != nil {
			return nil, fmt.Errorf("TARGET_URLS: %w", err)
		}
		list = append(list, u)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("TARGET_URLS=%q names no URL", s)
	}
	return list, nil
}

// Check reports settings that cannot go with in: TARGET_URLS names running
// instances, so it replaces TARGET_URL and TARGET_IMAGE and leaves nothing
// to start; REPLICAS starts instances (TARGET_IMAGE's or the embedded
// reference's); neither applies to TARGET_SQL.
func (in Instances) Check(c Config, image string) error {
	var errs []error
	if c.SQL != "" {
		if in.Replicas > 1 || len(in.URLs) > 0 {
			errs = append(errs, errors.New("REPLICAS and TARGET_URLS do not apply to TARGET_SQL"))
		}
		return errors.Join(errs...)
	}
	if in.Replicas > 1 && c.URL != "" {
		errs = append(errs, errors.New("REPLICAS needs TARGET_IMAGE or the embedded reference, not TARGET_URL"))
	}
	if len(in.URLs) > 0 {
		switch {
		case c.URL != "" || image != "":
			errs = append(errs, errors.New("TARGET_URLS replaces TARGET_URL and TARGET_IMAGE: set one"))
		case in.Replicas > 1:
			errs = append(errs, errors.New("REPLICAS starts instances; TARGET_URLS names running ones: set one"))
		}
	}
	return errors.Join(errs...)
}
