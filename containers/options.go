package containers

import (
	"errors"
	"fmt"
	"io"
	"time"
)

type config struct {
	limit          int
	window         time.Duration
	port           int
	env            map[string]string
	labels         map[string]string
	replicas       int
	volume         string
	keepVolume     bool
	twin           bool
	startupTimeout time.Duration
	stopTimeout    time.Duration
	log            io.Writer
	network        string // also attach to this network (WithNetwork)
	alias          string
}

// Option configures StartTarget.
type Option func(*config) error

// WithLimit sets BMTC_RATE_LIMIT_PER_HOUR (RL_LIMIT); unset, the image's
// own default applies.
func WithLimit(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("limit %d must be at least 1", n)
		}
		c.limit = n
		return nil
	}
}

// WithWindow sets BMTC_RATE_LIMIT_WINDOW_SECONDS (RL_WINDOW); the window must
// be a whole number of seconds.
func WithWindow(d time.Duration) Option {
	return func(c *config) error {
		if d < time.Second || d%time.Second != 0 {
			return fmt.Errorf("window %s must be a whole number of seconds, at least 1s", d)
		}
		c.window = d
		return nil
	}
}

// WithPort sets the container port (TARGET_PORT); default 8080.
func WithPort(p int) Option {
	return func(c *config) error {
		if p < 1 || p > 65535 {
			return fmt.Errorf("port %d out of range", p)
		}
		c.port = p
		return nil
	}
}

// WithEnv adds an environment variable to every container started. The
// contract's variables set by other options win over it.
func WithEnv(key, value string) Option {
	return func(c *config) error {
		if key == "" {
			return errors.New("empty environment variable name")
		}
		c.env[key] = value
		return nil
	}
}

// WithLabel adds a Docker label to every container and volume started,
// e.g. a CI run id to find leftovers by.
func WithLabel(key, value string) Option {
	return func(c *config) error {
		if key == "" {
			return errors.New("empty label name")
		}
		c.labels[key] = value
		return nil
	}
}

// WithFault sets FAULT, the reference server's self-test fault.
func WithFault(name string) Option { return WithEnv(EnvFault, name) }

// WithReplicas starts n flag-on containers; with n > 1 they share one named
// volume at /data (see WithVolume), created and removed by StartTarget and
// Terminate unless named by WithVolume.
func WithReplicas(n int) Option {
	return func(c *config) error {
		if n < 1 || n > 64 {
			return fmt.Errorf("replicas %d must be between 1 and 64", n)
		}
		c.replicas = n
		return nil
	}
}

// WithVolume mounts the named Docker volume at /data in every flag-on
// replica. A volume named here is created if missing and kept by
// Terminate, so state persists across runs.
func WithVolume(name string) Option {
	return func(c *config) error {
		if name == "" {
			return errors.New("empty volume name")
		}
		c.volume, c.keepVolume = name, true
		return nil
	}
}

// WithNetwork attaches every container to the Docker network name (instead
// of the default bridge) under alias, the flag-off twin under alias-off;
// Target.NetworkURL and NetworkDisabledURL address them from that network.
// Ports are still published on loopback.
func WithNetwork(name, alias string) Option {
	return func(c *config) error {
		if name == "" || alias == "" {
			return errors.New("WithNetwork: empty network name or alias")
		}
		c.network, c.alias = name, alias
		return nil
	}
}

// WithDisabledTwin also starts one container with
// BMTC_RATE_LIMIT_ENABLED=false (Target.DisabledURL), for AC8.
func WithDisabledTwin() Option {
	return func(c *config) error { c.twin = true; return nil }
}

// WithStartupTimeout bounds how long each container may take to answer HTTP.
func WithStartupTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("startup timeout %s must be positive", d)
		}
		c.startupTimeout = d
		return nil
	}
}

// WithLog sends testcontainers' progress lines to w (default: discarded).
func WithLog(w io.Writer) Option {
	return func(c *config) error {
		if w == nil {
			w = io.Discard
		}
		c.log = w
		return nil
	}
}
