package docgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/acceptance"
)

// TestScreenshotIsOfTheCurrentLayout: docs/report.png shows report.html as
// it is now. make screenshot records the layout it was taken of; a change
// to the report's template makes the picture stale until it is taken
// again.
func TestScreenshotIsOfTheCurrentLayout(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", ScreenshotDigestFile))
	if err != nil {
		t.Fatalf("%v: run make screenshot (it needs chromium)", err)
	}
	if got, want := strings.TrimSpace(string(raw)), acceptance.ReportLayoutDigest(); got != want {
		t.Fatalf("docs/report.png was taken of report layout %s; the report is now %s: run make screenshot (it needs chromium: apt-get install chromium)", got, want)
	}
}
