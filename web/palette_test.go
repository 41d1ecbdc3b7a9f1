package web

import (
	"regexp"
	"strconv"
	"testing"

	"siteplan/site"
	"siteplan/static"
)

// TestTypeColoursMatchDiagram: the outline's type swatches (.type.t0 to
// .t7 in app.css) are the colours the diagram draws each type's band in,
// so a type looks the same in both.
func TestTypeColoursMatchDiagram(t *testing.T) {
	css, err := static.FS.ReadFile("app.css")
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`\.type\.t(\d+) \{ border-color: (#[0-9a-f]{6}); \}`)
	found := 0
	for _, m := range rule.FindAllStringSubmatch(string(css), -1) {
		i, _ := strconv.Atoi(m[1])
		if i >= len(site.TypeColors) || m[2] != site.TypeColors[i] {
			t.Errorf(".type.t%s is %s in app.css; the diagram draws swatch %s in %v", m[1], m[2], m[1], site.TypeColors)
		}
		found++
	}
	if found != len(site.TypeColors) {
		t.Errorf("app.css has %d type swatches, want %d", found, len(site.TypeColors))
	}
}
