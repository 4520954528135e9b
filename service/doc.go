// Package service describes the service under test and how rlspec talks to
// it: the target contract's settings (Config, filled at the CLI edge), the
// request bodies it sends (Body), the client addresses it sends them from
// (Client), and how it reads the rate-limit headers that come back
// (ParseRateLimit).
//
// Every other part of rlspec — the acceptance steps, the race hunter and the
// load generator — drives targets through this package, so a target is
// addressed the same way everywhere.
package service
