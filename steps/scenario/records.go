package scenario

import "github.com/rlspec/rlspec/service"

// Last is the record a step that sends one request leaves for the steps
// that check it.
type Last struct {
	Req   service.Request   // what was sent
	Ex    *service.Exchange // what came back
	Keyed *service.Exchange // the exchange a replay or a reused key repeats
}

// Batch is the record a concurrent or bulk step leaves for the steps that
// check it.
type Batch struct {
	Exchanges []*service.Exchange
	Sent      int                   // requests sent at once
	Left      int                   // units the bucket had before them
	Rounds    [][]*service.Exchange // its rounds (identical requests, boundary race)
}
