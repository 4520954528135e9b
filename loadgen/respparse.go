package loadgen

import (
	"bytes"
	"errors"
	"fmt"
)

// respParser is readResponse for an event loop: it is fed whatever bytes
// have arrived and keeps its place between calls. It understands the same
// responses (respHead does the status line and headers for both): 1xx
// skipped, 204/304 without body, Content-Length, chunked, body until close.
type respParser struct {
	phase  int
	head   respHead
	remain int64 // body or chunk bytes still to discard
	fed    bool  // some byte of this response has been consumed
}

// Parser phases.
const (
	phStatus     = iota // waiting for the status line
	phHeader            // header lines up to the empty line
	phBody              // remain bytes of a Content-Length body
	phChunkSize         // a chunk-size line
	phChunkData         // remain bytes of a chunk
	phChunkEnd          // the CRLF after a chunk
	phTrailer           // trailer lines up to the empty line
	phUntilClose        // everything until the connection ends
)

var errShortResponse = errors.New("connection closed in the middle of a response")

// reset prepares for the next response.
func (p *respParser) reset() { *p = respParser{} }

// feed consumes a prefix of b. It returns how many bytes it consumed and
// done when a complete response has ended there (its status and
// closeAfter are then in p.head). When it consumed less than len(b) and is
// not done, it needs more bytes than b holds for the current line.
func (p *respParser) feed(b []byte) (n int, done bool, err error) {
	for n < len(b) {
		switch p.phase {
		case phBody, phChunkData:
			k := int64(len(b) - n)
			if k > p.remain {
				k = p.remain
			}
			n += int(k)
			p.remain -= k
			p.fed = true
			if p.remain > 0 {
				continue
			}
			if p.phase == phBody {
				return n, true, nil
			}
			p.phase = phChunkEnd
		case phUntilClose:
			return len(b), false, nil
		default: // line phases
			i := bytes.IndexByte(b[n:], '\n')
			if i < 0 {
				return n, false, nil
			}
			line := trimLineEnd(b[n : n+i])
			n += i + 1
			p.fed = true
			if len(line) > maxLine {
				return n, false, fmt.Errorf("line longer than %d bytes", maxLine)
			}
			if done, err := p.line(line); done || err != nil {
				return n, done, err
			}
		}
	}
	return n, false, nil
}

// line handles one line of a line phase.
func (p *respParser) line(line []byte) (done bool, err error) {
	switch p.phase {
	case phStatus:
		if err := p.head.statusLine(line); err != nil {
			return false, err
		}
		p.phase = phHeader
	case phHeader:
		if len(line) > 0 {
			return false, p.head.header(line)
		}
		if p.head.interim() {
			p.phase = phStatus
			return false, nil
		}
		switch p.head.framing() {
		case bodyNone:
			return true, nil
		case bodyChunked:
			p.phase = phChunkSize
		case bodyLength:
			if p.head.length == 0 {
				return true, nil
			}
			p.phase, p.remain = phBody, p.head.length
		case bodyUntilClose:
			p.phase = phUntilClose
			p.head.closeAfter = true
		}
	case phChunkSize:
		size, err := parseChunkSize(line)
		if err != nil {
			return false, err
		}
		if size == 0 {
			p.phase = phTrailer
		} else {
			p.phase, p.remain = phChunkData, size
		}
	case phChunkEnd:
		p.phase = phChunkSize
	case phTrailer:
		if len(line) == 0 {
			return true, nil
		}
	}
	return false, nil
}

// eof is the connection ending: done for a body until close, an error
// otherwise (errConnBroken when nothing of this response had arrived, as
// the blocking path reports it).
func (p *respParser) eof() (done bool, err error) {
	switch {
	case p.phase == phUntilClose:
		return true, nil
	case !p.fed:
		return false, errConnBroken
	case p.phase == phStatus:
		return false, fmt.Errorf("read status line: %w", errShortResponse)
	case p.phase == phHeader:
		return false, fmt.Errorf("read headers: %w", errShortResponse)
	default:
		return false, fmt.Errorf("read body: %w", errShortResponse)
	}
}
