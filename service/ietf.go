package service

import (
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

// AnswersIETF reports whether the target is to answer in the IETF fields:
// DIALECT=ietf or feature ietf-headers claimed (an embedded reference then
// adds them beside X-RateLimit-*).
func (c Config) AnswersIETF() bool {
	return c.Dialect == dialect.IETF || c.Claims(profile.IETFHeaders)
}
