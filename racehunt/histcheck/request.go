package histcheck

import "fmt"

// Kind is what one request of a workload does.
type Kind int

// Kinds of requests.
const (
	// Fresh is a request on a device bucket with a new Idempotency-Key (or
	// none): it spends a unit when one is left.
	Fresh Kind = iota
	// Keyed sends idempotency group Group's key with the group's body: the
	// first of a group spends, every later (or concurrent) one is a replay.
	Keyed
	// Conflict sends group Group's key with a different body: never answered
	// with the cached response.
	Conflict
	// NoBucket omits device_bucket: keyed by the client address.
	NoBucket
	// BadBucket sends an invalid device_bucket: keyed by the client address.
	BadBucket
)

var kindNames = [...]string{"fresh", "keyed", "conflict", "no-bucket", "bad-bucket"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Req is one request of a burst.
type Req struct {
	Kind   Kind
	Client int // index of the client address (and base URL, round-robin)
	Bucket int // index of the device bucket (Fresh, Keyed, Conflict)
	Group  int // idempotency group (Keyed, Conflict)
}

func (r Req) String() string {
	switch r.Kind {
	case Fresh:
		return fmt.Sprintf("fresh(c%d,b%d)", r.Client, r.Bucket)
	case Keyed, Conflict:
		return fmt.Sprintf("%s(c%d,g%d)", r.Kind, r.Client, r.Group)
	default:
		return fmt.Sprintf("%s(c%d)", r.Kind, r.Client)
	}
}
