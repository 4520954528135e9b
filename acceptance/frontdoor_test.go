package acceptance

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/service"
)

// hostsAt resolves every host to one address, without DNS.
type hostsAt string

func (a hostsAt) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr(string(a))}, nil
}

// TestBindTowardsAnotherHostCouldNotRun: with the default CLIENT_IPS=bind,
// a target that resolves to another host is exit 2 with the setting to
// change, decided from the resolved address before any request (the
// resolver here answers without DNS, and nothing listens there).
func TestBindTowardsAnotherHostCouldNotRun(t *testing.T) {
	tc := service.DefaultConfig()
	tc.URL = "http://api.compose.test:8080"
	_, err := Run(context.Background(), Config{Target: tc}, WithoutReports(), WithResolver(hostsAt("172.18.0.3")))
	var cnr *CouldNotRun
	if !errors.As(err, &cnr) || !strings.Contains(cnr.Reason, "resolves to 172.18.0.3") || !strings.Contains(cnr.Reason, "set CLIENT_IPS=xff") {
		t.Fatalf("err %v, want could not run naming CLIENT_IPS", err)
	}
}
