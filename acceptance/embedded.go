package acceptance

import (
	"errors"
	"net/netip"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/target"
)

// Embedded is the in-process reference: an enabled instance and its
// flag-off twin on loopback, with Config pointing the suite at them
// (TARGET_DB at the enabled instance's database, schema prd).
type Embedded struct {
	Config   target.Config
	Enabled  *fakeserver.Running
	Disabled *fakeserver.Running
}

// StartEmbedded starts both instances with tc's limit, window and sentinel.
func StartEmbedded(tc target.Config, fault fakeserver.Fault) (*Embedded, error) {
	base := fakeserver.DefaultConfig()
	base.Limit, base.Window, base.Sentinel, base.Fault = tc.Limit, tc.Window, tc.Sentinel, fault
	if tc.ClientIPs == target.ClientIPsXFF {
		base.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	}
	on, err := fakeserver.Start(base, "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	off := base
	off.Enabled = false
	disabled, err := fakeserver.Start(off, "127.0.0.1:0")
	if err != nil {
		return nil, errors.Join(err, on.Close())
	}
	tc.URL, tc.DisabledURL = on.URL, disabled.URL
	tc.DB, tc.Schema = "sqlite:"+on.DBPath, target.SchemaPRD
	return &Embedded{Config: tc, Enabled: on, Disabled: disabled}, nil
}

// Close stops both instances.
func (e *Embedded) Close() error {
	return errors.Join(e.Enabled.Close(), e.Disabled.Close())
}
