package loadgen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/rlspec/rlspec/dialect"
)

// Penalties (profiles.md, feature penalties): a 429 is the algorithm's
// refusal, or a refusal under a penalty, whose body says penalty_active
// (PN-1). With penalties claimed the connections read 429 bodies for that
// marker and record a refusal under a penalty as StatusPenalty in the
// status histogram, so that the report counts the two apart and interval
// logs carry the split to a merge.

// StatusPenalty is the status value recorded for a 429 whose body marks a
// penalty; it counts as a 429 (rate_limited) everywhere, and apart as the
// penalty's.
const StatusPenalty = 929

// maxRefusalBody bounds the bytes of a 429's body read for the marker; the
// rest is discarded.
const maxRefusalBody = 64 << 10

// readRefusal reads the body of the 429 whose head is h and returns
// StatusPenalty when it marks a penalty, 429 otherwise.
func readRefusal(r *bufio.Reader, h *respHead) (status int, closeAfter bool, err error) {
	var body bytes.Buffer
	switch h.framing() {
	case bodyChunked:
		err = readChunked(r, &capped{b: &body})
	case bodyLength:
		_, err = io.CopyN(&capped{b: &body}, r, h.length)
	case bodyUntilClose:
		_, err = io.Copy(&capped{b: &body}, r)
		h.closeAfter = true
	}
	if err != nil {
		return h.status, true, fmt.Errorf("read body: %w", err)
	}
	if active, _ := dialect.PenaltyOf(body.Bytes()); active {
		return StatusPenalty, h.closeAfter, nil
	}
	return h.status, h.closeAfter, nil
}

// capped keeps the first maxRefusalBody bytes written to it and drops the
// rest.
type capped struct{ b *bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxRefusalBody - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
