// Package fixedwindow holds the steps of the fixed-window design (FW-1 to
// FW-7) for every WINDOW_ALIGN: the window bound and the boundary burst,
// the headers at a window's end, a window opened by a first request told
// from a grid, a retrying client's next window, and (the scenarios tagged
// @align:key-grid and @align:grid) the key's grid's next window after an
// idle gap and one grid's Reset a window after the first.
package fixedwindow
