package histcheck

import (
	"slices"
	"unsafe"
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

// grow is m with one more variable, x_n, unbounded.
func (m vdbm) grow() vdbm {
	n := m.n + 1
	g := vdbm{n, make([]int64, n*n)}
	for i := range n {
		row := g.d[i*n : i*n+n]
		if i < m.n {
			copy(row, m.d[i*m.n:(i+1)*m.n])
			row[m.n] = zInf
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

// logZone is a vdbm as a comparable, hashable value: the memory of its
// bounds, row by row, as a string (8-aligned: it was the []int64's).
type logZone string

// zone is m as a logZone; m's memory becomes the string's, so m must not
// be written after.
func (m vdbm) zone() logZone {
	return logZone(unsafe.String((*byte)(unsafe.Pointer(unsafe.SliceData(m.d))), 8*len(m.d)))
}

// view is z's matrix, read only: its memory is the string's.
func (z logZone) view() vdbm {
	d := unsafe.Slice((*int64)(unsafe.Pointer(unsafe.StringData(string(z)))), len(z)/8)
	n := 0
	for n*n < len(d) {
		n++
	}
	return vdbm{n, d}
}
