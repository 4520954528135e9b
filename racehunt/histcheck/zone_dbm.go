package histcheck

import (
	"encoding/binary"
	"slices"
	"strings"
)

// vdbm is a closed difference-bound matrix over n variables, x0 = 0:
// d[i*n+j] bounds x_i − x_j from above (zInf: no bound). Its variables are
// as many as a state has times (a sliding log's entries), where zone_bucket
// .go's are fixed. Every bound is added by tighten, which keeps it closed:
// a closed matrix holds the tightest bounds of its set, so that equal sets
// are equal matrices, any of its variables dropped (project) leaves the
// closed matrix of the rest, and an empty set shows as a negative cycle as
// the bound that makes it is added.
type vdbm struct {
	n int
	d []int64
}

// at is the bound on x_i − x_j.
func (m vdbm) at(i, j int) int64 { return m.d[i*m.n+j] }

func (m vdbm) clone() vdbm { return vdbm{m.n, slices.Clone(m.d)} }

// grown is the matrix of n variables whose k-th bound is at(k), with one
// more variable, x_n, unbounded.
func grown(n int, at func(k int) int64) vdbm {
	g := vdbm{n + 1, make([]int64, (n+1)*(n+1))}
	for i := range n + 1 {
		row := g.d[i*(n+1) : (i+1)*(n+1)]
		if i < n {
			for j := range n {
				row[j] = at(i*n + j)
			}
			row[n] = zInf
			continue
		}
		for j := range row {
			row[j] = zInf
		}
		row[i] = 0
	}
	return g
}

// tighten bounds x_i − x_j <= c, m closed before and after; false when
// that leaves m empty. A path newly shortened runs u → i → j → v: one pass
// over the pairs does, since no bound on i or j itself can improve without
// a negative cycle (checked first).
func (m vdbm) tighten(i, j int, c int64) bool {
	n, d := m.n, m.d
	if c >= d[i*n+j] {
		return true
	}
	if ji := d[j*n+i]; ji < zInf && c+ji < 0 {
		return false
	}
	jrow := d[j*n : j*n+n]
	for u := range n {
		ui := d[u*n+i]
		if ui >= zInf {
			continue
		}
		row := d[u*n : u*n+n]
		for v, jv := range jrow {
			if jv < zInf {
				row[v] = min(row[v], ui+c+jv)
			}
		}
	}
	return true
}

// project is m over the variables keep, in that order (one may be kept
// twice: two equal variables); keep[0] must be 0.
func (m vdbm) project(keep []int) vdbm {
	n := len(keep)
	p := vdbm{n, make([]int64, n*n)}
	for a, i := range keep {
		for b, j := range keep {
			p.d[a*n+b] = m.d[i*m.n+j]
		}
	}
	return p
}

// pin makes x_v = c, v's old bounds dropped: the matrix stays closed, x_v
// being x0 moved by c.
func (m vdbm) pin(v int, c int64) {
	n, d := m.n, m.d
	for u := range n {
		if u == v {
			continue
		}
		d[v*n+u], d[u*n+v] = zInf, zInf
		if b := d[u]; b < zInf {
			d[v*n+u] = c + b
		}
		if b := d[u*n]; b < zInf {
			d[u*n+v] = b - c
		}
	}
	d[v*n+v] = 0
}

// holds reports whether every point of o is in m (o over as many
// variables).
func (m vdbm) holds(o vdbm) bool {
	if m.n != o.n {
		return false
	}
	for i, b := range m.d {
		if b < o.d[i] {
			return false
		}
	}
	return true
}

// logZone is a vdbm as a comparable, hashable value: its bounds, row by
// row, 8 bytes each (little-endian), as a string.
type logZone string

// zone is m as a logZone (a copy: m may be written after).
func (m vdbm) zone() logZone {
	var b strings.Builder
	b.Grow(8 * len(m.d))
	var buf [8]byte
	for _, v := range m.d {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		b.Write(buf[:])
	}
	return logZone(b.String())
}

// view is z's matrix, a fresh copy.
func (z logZone) view() vdbm {
	d := make([]int64, len(z)/8)
	for i := range d {
		d[i] = z.word(i)
	}
	return vdbm{z.n(), d}
}

// grow is z's matrix with one more variable, unbounded,
// decoded straight into it.
func (z logZone) grow() vdbm { return grown(z.n(), z.word) }

// n is how many variables z has.
func (z logZone) n() int {
	n := 0
	for n*n < len(z)/8 {
		n++
	}
	return n
}

// at is z's bound on x_i − x_j, read in place; n is z.n(), which a caller
// reading several bounds finds once.
func (z logZone) at(n, i, j int) int64 { return z.word(i*n + j) }

// word is z's k-th bound.
func (z logZone) word(k int) int64 {
	return int64(binary.LittleEndian.Uint64([]byte(z[8*k : 8*k+8])))
}
