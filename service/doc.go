// Package service holds the settings of the service under test — the
// target contract's variables, one Config filled once at the CLI edge
// (flags over environment over defaults, through package envflag) and
// passed down by value: where the service answers (TARGET_URL and its
// twins), what it limits and how (PROFILE and its settings, FEATURES, KEY,
// RL_LIMIT, RL_WINDOW, the token-bucket, penalties, bypass and tiers
// settings), how it answers (Config.Answer, a dialect.Settings), how
// rlspec reaches it (CLIENT_IPS, TARGET_HEADERS: Config.Sending, which
// httpclient.New reads) and optional access to its state (TARGET_DB,
// TARGET_SQL). Config holds settings only: what a run learns once the
// service is up (the instances it started, an untrusting twin) is the
// run's (acceptance.Reached, steps.Env).
//
// It also holds the checks that turn a mistaken setting into one sentence
// before any verdict (Validate; no service to test, ChooseEmbedded; the
// endpoint from TARGET_URL's path, ResolvePath; a target CLIENT_IPS=bind
// cannot reach, CheckClientIPs; TargetNeeds), the defaults the embedded
// reference fills in (WithEmbeddedDefaults, SizedForEmbedded), and the run
// settings several commands share (REPORT_DIR, TARGET_IMAGE, MAX_WAIT,
// TARGET_URLS and REPLICAS).
package service
