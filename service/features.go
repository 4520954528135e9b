package service

import "errors"

// validateFeatures reports contradictory claims and half-given store
// commands.
func (c Config) validateFeatures() error {
	var errs []error
	if c.Claims(profile.FailOpen) && c.Claims(profile.FailClosed) {
		errs = append(errs, errors.New("FEATURES claims both fail-open and fail-closed: a store outage either allows requests or refuses them"))
	}
	if (c.StoreDownCmd == "") != (c.StoreUpCmd == "") {
		errs = append(errs, errors.New("STORE_DOWN_CMD and STORE_UP_CMD go together: set both or neither"))
	}
	return errors.Join(append(errs, c.validatePenalties())...)
}
