// Package service describes an implementation under test and how rlspec
// talks to it: the settings of the target contract (Config, with how the
// target answers as a dialect.Settings: Config.Answer) and the checks that
// turn a mistaken setting into one sentence before any verdict (a variable
// that is no setting, envflag.Unknown; no service to test, ChooseEmbedded;
// the endpoint from TARGET_URL's path, ResolvePath; a target
// CLIENT_IPS=bind cannot reach, CheckClientIPs), the request bodies it
// sends (Body), the client addresses it sends them from (Client), the
// exchanges it records, whose answers it reads through package dialect
// (httpclient.Exchange.Observe, RateLimit, Refused), and how credentials stay out of
// what it prints (redact.Headers, redact.URL).
//
// Every other part of rlspec — the acceptance steps, the race hunter and the
// load generator — drives targets through this package, so a target is
// addressed the same way everywhere.
package service
