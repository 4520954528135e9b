package service

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
)

func parse(t *testing.T, env map[string]string, args ...string) (Config, error) {
	t.Helper()
	c := DefaultConfig()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	c.RegisterFlags(fs, envflag.Map(env))
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if err := envflag.Errors(fs); err != nil {
		return c, err
	}
	return c, c.Validate()
}

func TestConfigDefaults(t *testing.T) {
	c, err := parse(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "/v1/ride_summary" || c.Limit != 500 || c.Window != time.Hour || c.Sentinel != 999 ||
		c.Schema != SchemaPRD || c.ClientIPs != httpclient.Bind || c.Profile != profile.PRD {
		t.Fatalf("defaults differ from the contract: %+v", c)
	}
}

func TestConfigEnvironmentAndFlags(t *testing.T) {
	env := map[string]string{
		"TARGET_URL":     "http://127.0.0.1:8080",
		"RL_LIMIT":       "20",
		"RL_WINDOW":      "3",
		"TARGET_HEADERS": "Authorization: Bearer abc; X-Team: a:b",
		"DB_SCHEMA":      "tokens",
		"TARGET_DB":      "sqlite:/tmp/x.db",
		"CLIENT_IPS":     "xff",
	}
	c, err := parse(t, env, "-rl-window", "5s")
	if err != nil {
		t.Fatal(err)
	}
	if c.URL != "http://127.0.0.1:8080" || c.Limit != 20 || c.Window != 5*time.Second ||
		c.Schema != SchemaTokens || c.ClientIPs != httpclient.XFF {
		t.Fatalf("got %+v", c)
	}
	if got := c.Headers.Get("Authorization"); got != "Bearer abc" {
		t.Fatalf("Authorization = %q", got)
	}
	if got := c.Headers.Get("X-Team"); got != "a:b" {
		t.Fatalf("X-Team = %q", got)
	}
	if p, _ := c.DBPath(); p != "/tmp/x.db" {
		t.Fatalf("DBPath = %q", p)
	}
	if got := c.Endpoint("http://h:1/"); got != "http://h:1/v1/ride_summary" {
		t.Fatalf("Endpoint = %q", got)
	}
}

// rejection is settings parse must refuse, and what its error must name.
type rejection struct {
	env  map[string]string
	want string
}

// checkRejected parses each case's settings and wants an error of one
// sentence naming the case's want.
func checkRejected(t *testing.T, cases map[string]rejection) {
	t.Helper()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parse(t, tc.env)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one sentence naming %s", err, tc.want)
			}
		})
	}
}

func TestConfigRejectsBadSettings(t *testing.T) {
	checkRejected(t, map[string]rejection{
		"limit":     {map[string]string{"RL_LIMIT": "many"}, "RL_LIMIT"},
		"zero":      {map[string]string{"RL_LIMIT": "0"}, "RL_LIMIT"},
		"window":    {map[string]string{"RL_WINDOW": "soon"}, "RL_WINDOW"},
		"url":       {map[string]string{"TARGET_URL": "localhost:8080"}, "TARGET_URL"},
		"db":        {map[string]string{"TARGET_DB": "mysql://x"}, "TARGET_DB"},
		"pgbad":     {map[string]string{"TARGET_DB": "postgres://u:pw@[bad/db"}, "TARGET_DB"},
		"relative":  {map[string]string{"TARGET_DB": "sqlite:rel.db"}, "TARGET_DB"},
		"schema":    {map[string]string{"DB_SCHEMA": "mysql"}, "DB_SCHEMA"},
		"clientips": {map[string]string{"CLIENT_IPS": "dhcp"}, "CLIENT_IPS"},
		"headers":   {map[string]string{"TARGET_HEADERS": "no colon here"}, "TARGET_HEADERS"},
		"path":      {map[string]string{"TARGET_PATH": "v1"}, "TARGET_PATH"},
		"template":  {map[string]string{"BODY_TEMPLATE": "/nonexistent/body.json"}, "BODY_TEMPLATE"},
	})
}

func TestConfigAcceptsPostgresTargetDB(t *testing.T) {
	for _, dsn := range []string{"postgres://u:secretpw@db:5432/app?sslmode=disable", "postgresql:///app?host=/tmp"} {
		c, err := parse(t, map[string]string{"TARGET_DB": dsn})
		if err != nil || !c.DBIsPostgres() {
			t.Fatalf("%s: err = %v, DBIsPostgres = %v", redact.DSN(dsn), err, c.DBIsPostgres())
		}
	}
	_, err := parse(t, map[string]string{"TARGET_DB": "postgres://u:secretpw@[bad/db"})
	if err == nil || strings.Contains(err.Error(), "secretpw") {
		t.Fatalf("err = %v, want an error without the password", err)
	}
}

func TestFlagOverridesBadEnvironment(t *testing.T) {
	c, err := parse(t, map[string]string{"RL_LIMIT": "many"}, "-rl-limit", "7")
	if err != nil || c.Limit != 7 {
		t.Fatalf("c.Limit=%d err=%v", c.Limit, err)
	}
}
