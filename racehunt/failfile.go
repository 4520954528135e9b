package racehunt

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"unicode"
)

// failFiles keeps rapid's fail files of one target out of the working
// directory. rapid writes a fail file under testdata/rapid/<name>/ of the
// working directory and replays the ones it finds there first; a hunt
// gives rapid a name unique to the target, hands it the newest fail file
// kept for that target (rapid.failfile) and, once rapid is done, moves the
// new file to the kept directory and removes the directories rapid made.
type failFiles struct {
	name    string // rapid's test name: the hunt's Name and the target's key
	dir     string // where this target's fail files are kept
	created []string
}

// newFailFiles returns the fail files of the target named key under root.
func newFailFiles(root, name, key string) *failFiles {
	sum := sha256.Sum256([]byte(key))
	n := safeName(name) + "-" + hex.EncodeToString(sum[:4])
	return &failFiles{name: n, dir: filepath.Join(root, n)}
}

// defaultFailRoot is REPORT_DIR/rapid, or the user's cache without one.
func defaultFailRoot(reportDir string) (string, error) {
	if reportDir != "" {
		return filepath.Join(reportDir, "rapid"), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no REPORT_DIR and no user cache directory for rapid's fail files: %w", err)
	}
	return filepath.Join(cache, "rlspec", "rapid"), nil
}

// latest is the newest kept fail file ("" when none).
func (f *failFiles) latest() string {
	files, _ := filepath.Glob(filepath.Join(f.dir, "*.fail"))
	sort.Slice(files, func(i, j int) bool { return modTime(files[i]) > modTime(files[j]) })
	if len(files) == 0 {
		return ""
	}
	return files[0]
}

func modTime(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.ModTime().UnixNano()
}

// before notes which of the directories rapid may create exist already.
func (f *failFiles) before() {
	f.created = nil
	for _, d := range []string{"testdata", filepath.Join("testdata", "rapid"), filepath.Join("testdata", "rapid", f.name)} {
		if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
			f.created = append(f.created, d)
		}
	}
}

// keep moves the fail file rapid wrote (path, relative to the working
// directory) to the kept directory, removes the directories rapid created
// and returns the new path. A path already under the kept directory (a
// replayed file that failed again) is returned as it is.
func (f *failFiles) keep(path string) (string, error) {
	defer f.tidy()
	if path == "" || filepath.IsAbs(path) || filepath.Dir(filepath.Clean(path)) == filepath.Clean(f.dir) {
		return path, nil
	}
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return "", fmt.Errorf("keep rapid's fail file: %w", err)
	}
	dst := filepath.Join(f.dir, filepath.Base(path))
	if err := moveFile(path, dst); err != nil {
		return "", fmt.Errorf("keep rapid's fail file: %w", err)
	}
	return dst, nil
}

// tidy removes the directories rapid created in the working directory,
// deepest first, when they are empty.
func (f *failFiles) tidy() {
	for i := len(f.created) - 1; i >= 0; i-- {
		_ = os.Remove(f.created[i])
	}
}

func moveFile(src, dst string) error {
	if err := os.Rename(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Remove(src)
}

// safeName is rapid's file-name form of a test name.
func safeName(s string) string {
	r := []rune(s)
	for i, c := range r {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && c != '-' && c != '_' {
			r[i] = '_'
		}
	}
	return string(r)
}
