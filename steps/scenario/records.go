package scenario

import "github.com/rlspec/rlspec/httpclient"

// Last is the record a step that sends one request leaves for the steps
// that check it.
type Last struct {
	Req   httpclient.Request   // what was sent
	Ex    *httpclient.Exchange // what came back
	Keyed *httpclient.Exchange // the exchange a replay or a reused key repeats
}

// Batch is the record a concurrent or bulk step leaves for the steps that
// check it.
type Batch struct {
	Exchanges []*httpclient.Exchange
	Sent      int                      // requests sent at once
	Left      int                      // units the bucket had before them
	Rounds    [][]*httpclient.Exchange // its rounds (identical requests, boundary race)
}
