package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// InvalidBucketKey is the fault InvalidBucketKeyName (its Name says what it breaks).
func InvalidBucketKey() fault.Fault {
	return fault.Fault{
		Name:        InvalidBucketKeyName,
		Breaks:      clause.Of(clause.AC9, clause.FR2),
		Description: "any string device_bucket, valid or not, is used as the key",
		Detectors:   fault.Detectors{Scenarios: []string{"AC9-01.1", "AC9-02"}},
		Wrap: fault.Rekey(func(k fakeserver.Keyer, r *http.Request, ride fakeserver.Ride) string {
			if ride.HasBucket && ride.DeviceBucket != "" && !fakeserver.ValidDeviceBucket(ride.DeviceBucket) {
				return ride.DeviceBucket
			}
			return k.Key(r, ride)
		}),
	}
}
