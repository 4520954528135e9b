package service

import (
	"errors"
	"strings"
)

// TargetEmbedded is the TARGET_URL that asks for rlspec's embedded
// reference in place of a service.
const TargetEmbedded = "embedded"

// ChooseEmbedded settles whether a command starts its embedded reference,
// and clears URL when it does. TARGET_URL=embedded asks for it. With no
// target at all (urlSet false, other false: no TARGET_URLS, TARGET_IMAGE or
// TARGET_SQL) it is started too, except in CI (ci), where a run that tests
// no service must be asked for: a gate whose TARGET_URL went missing would
// pass on rlspec's own reference. A TARGET_URL set but empty (a secret or
// input that did not arrive) is a mistake, not a choice.
func (c *Config) ChooseEmbedded(urlSet, other, ci bool) (bool, error) {
	switch {
	case strings.TrimSpace(c.URL) == TargetEmbedded:
		if other {
			return false, errors.New("TARGET_URL=embedded starts the embedded reference: unset TARGET_URLS, TARGET_IMAGE and TARGET_SQL")
		}
		c.URL = ""
		return true, nil
	case c.URL != "" || other:
		return false, nil
	case urlSet:
		return false, errors.New("TARGET_URL is set but empty (a secret or input that did not arrive?): set it to the service's base URL, or to embedded to test rlspec's own reference")
	case ci:
		return false, errors.New("CI=true and no TARGET_URL, TARGET_URLS, TARGET_IMAGE or TARGET_SQL: no service would be tested, only rlspec's own reference; set TARGET_URL to your service, or TARGET_URL=embedded to run the reference on purpose")
	}
	return true, nil
}
