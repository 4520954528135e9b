// Package fixedwindow holds the steps of the fixed-window design (FW-1 to
// FW-7) for both WINDOW_ALIGN values: the window bound and the boundary
// burst, the headers at a window's end, a window opened by a first request
// told from an epoch grid, and a retrying client's next window.
package fixedwindow
