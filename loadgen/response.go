package loadgen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// readResponse reads one HTTP/1.1 response (skipping 1xx), discarding its
// body. It returns the status and whether the server closes the connection.
// With penalties a 429's body is read for the penalty marker instead, and
// a 429 under a penalty returns StatusPenalty.
func readResponse(r *bufio.Reader, penalties bool) (status int, closeAfter bool, err error) {
	for {
		line, err := readLine(r)
		if err != nil {
			return 0, true, fmt.Errorf("read status line: %w", err)
		}
		var h respHead
		if err := h.statusLine(line); err != nil {
			return 0, true, err
		}
		for {
			hl, err := readLine(r)
			if err != nil {
				return h.status, true, fmt.Errorf("read headers: %w", err)
			}
			if len(hl) == 0 {
				break
			}
			if err := h.header(hl); err != nil {
				return h.status, true, err
			}
		}
		if h.interim() {
			continue // interim response; the real one follows
		}
		if penalties && h.status == 429 {
			return readRefusal(r, &h)
		}
		switch h.framing() {
		case bodyNone:
		case bodyChunked:
			if err := readChunked(r, nil); err != nil {
				return h.status, true, err
			}
		case bodyLength:
			if _, err := r.Discard(int(h.length)); err != nil {
				return h.status, true, fmt.Errorf("read body: %w", err)
			}
		case bodyUntilClose:
			if _, err := io.Copy(io.Discard, r); err != nil {
				return h.status, true, fmt.Errorf("read body: %w", err)
			}
			h.closeAfter = true
		}
		return h.status, h.closeAfter, nil
	}
}

// respHead is what a response's status line and headers say about it: its
// status and framing, filled line by line by readResponse.
type respHead struct {
	status     int
	closeAfter bool
	length     int64 // -1: no Content-Length
	chunked    bool
}

// Body framings.
const (
	bodyNone = iota
	bodyChunked
	bodyLength
	bodyUntilClose
)

// statusLine starts a response from its status line ("HTTP/1.1 200 OK",
// without the line end).
func (h *respHead) statusLine(line []byte) error {
	*h = respHead{length: -1}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return fmt.Errorf("malformed status line %.40q", line)
	}
	h.status = parseStatus(line[9:12])
	if h.status < 100 {
		h.status = 0
		return fmt.Errorf("malformed status line %.40q", line)
	}
	h.closeAfter = line[7] == '0' // HTTP/1.0 closes unless told otherwise
	return nil
}

// header reads one non-empty header line.
func (h *respHead) header(hl []byte) error {
	colon := bytes.IndexByte(hl, ':')
	if colon <= 0 {
		return fmt.Errorf("malformed header %.40q", hl)
	}
	name := hl[:colon]
	switch name[0] | 0x20 { // the first letters of the names below; others are skipped
	case 'c', 't':
	default:
		return nil
	}
	value := bytes.TrimSpace(hl[colon+1:])
	switch {
	case asciiEqualFold(name, "content-length"):
		n := parseDecimal(value)
		if n < 0 {
			return fmt.Errorf("bad Content-Length %.20q", value)
		}
		h.length = n
	case asciiEqualFold(name, "transfer-encoding"):
		h.chunked = containsFold(value, "chunked")
	case asciiEqualFold(name, "connection"):
		if containsFold(value, "close") {
			h.closeAfter = true
		} else if containsFold(value, "keep-alive") {
			h.closeAfter = false
		}
	}
	return nil
}

// interim reports a 1xx response: the real one follows.
func (h *respHead) interim() bool { return h.status >= 100 && h.status < 200 }

// framing says how the body is delimited.
func (h *respHead) framing() int {
	switch {
	case h.status == 204 || h.status == 304:
		return bodyNone
	case h.chunked:
		return bodyChunked
	case h.length >= 0:
		return bodyLength
	default:
		return bodyUntilClose
	}
}

// readChunked reads a chunked body into w, or discards it when w is nil
// (trailers skipped).
func readChunked(r *bufio.Reader, w io.Writer) error {
	for {
		line, err := readLine(r)
		if err != nil {
			return fmt.Errorf("read chunk size: %w", err)
		}
		n, err := parseChunkSize(line)
		if err != nil {
			return err
		}
		if n == 0 {
			return skipTrailers(r)
		}
		if w == nil {
			_, err = r.Discard(int(n))
		} else {
			_, err = io.CopyN(w, r, n)
		}
		if err != nil {
			return fmt.Errorf("read chunk: %w", err)
		}
		if _, err := readLine(r); err != nil {
			return fmt.Errorf("read chunk end: %w", err)
		}
	}
}

// skipTrailers reads a chunked body's trailers up to the empty line.
func skipTrailers(r *bufio.Reader) error {
	for {
		tl, err := readLine(r)
		if err != nil {
			return fmt.Errorf("read trailer: %w", err)
		}
		if len(tl) == 0 {
			return nil
		}
	}
}

// parseChunkSize reads a chunk-size line (hex, optional extensions).
func parseChunkSize(line []byte) (int64, error) {
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad chunk size %.20q", line)
	}
	return n, nil
}

// maxLine bounds a status or header line.
const maxLine = 64 << 10

func readLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		return nil, fmt.Errorf("line longer than %d bytes", r.Size())
	}
	if err != nil {
		if err == io.EOF && len(line) == 0 {
			return nil, errConnBroken
		}
		return nil, err
	}
	line = trimLineEnd(line)
	if len(line) > maxLine {
		return nil, fmt.Errorf("line longer than %d bytes", maxLine)
	}
	return line, nil
}

// trimLineEnd drops a line's trailing CR and LF bytes (bytes.TrimRight
// without building a cutset per line: this runs for every header line).
func trimLineEnd(line []byte) []byte {
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line
}

func asciiEqualFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// parseStatus reads three digits, -1 when they are not.
func parseStatus(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// parseDecimal reads a non-negative decimal of up to 18 digits, -1 otherwise.
func parseDecimal(b []byte) int64 {
	if len(b) == 0 || len(b) > 18 {
		return -1
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// containsFold reports whether b contains the lower-case ASCII word lower,
// ignoring case.
func containsFold(b []byte, lower string) bool {
	for i := 0; i+len(lower) <= len(b); i++ {
		if asciiEqualFold(b[i:i+len(lower)], lower) {
			return true
		}
	}
	return false
}
