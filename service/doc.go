// Package service describes an implementation under test and how rlspec
// talks to it: the settings of the target contract (Config, with how the
// target answers as a dialect.Settings: Config.Answer), the request bodies
// it sends (Body), the client addresses it sends them from (Client), and
// the exchanges it records, whose answers it reads through package dialect
// (Exchange.Observe, RateLimit, Refused).
//
// Every other part of rlspec — the acceptance steps, the race hunter and the
// load generator — drives targets through this package, so a target is
// addressed the same way everywhere.
package service
