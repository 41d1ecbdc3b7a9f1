package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImportRules keeps DESIGN.md section 1 true: who may import whom.
func TestImportRules(t *testing.T) {
	rules := map[string]struct{ allowed, forbidden []string }{
		"siteplan/site":   {allowed: nil, forbidden: []string{"database/sql", "net/http", "github.com/labstack"}},
		"siteplan/store":  {allowed: []string{"siteplan/site", "siteplan/internal/proc"}, forbidden: []string{"net/http", "github.com/labstack", "github.com/a-h/templ"}},
		"siteplan/views":  {allowed: []string{"siteplan/site"}, forbidden: []string{"database/sql", "github.com/labstack", "modernc.org"}},
		"siteplan/web":    {allowed: []string{"siteplan/site", "siteplan/views", "siteplan/export", "siteplan/sitemap", "siteplan/diagram", "siteplan/fetch", "siteplan/internal/proc"}, forbidden: []string{"database/sql", "modernc.org"}},
		"siteplan/static": {allowed: nil, forbidden: nil},
		// Every file siteplan hands over; it never pays for compiling Graphviz.
		"siteplan/export": {allowed: []string{"siteplan/site"}, forbidden: []string{"database/sql", "net/http", "github.com/labstack", "modernc.org", "github.com/goccy"}},
		// Reading and checking other sites' sitemaps, and planning a site from its URLs.
		"siteplan/sitemap": {allowed: []string{"siteplan/site"}, forbidden: []string{"database/sql", "net/http", "github.com/labstack", "modernc.org", "github.com/goccy"}},
		"siteplan/diagram": {allowed: []string{"siteplan/site"}, forbidden: []string{"database/sql", "net/http", "github.com/labstack", "modernc.org"}},
		// The one package that talks to other sites needs nothing but the standard library.
		"siteplan/fetch": {allowed: nil, forbidden: []string{"github.com", "golang.org", "modernc.org"}},
		// Whether a process runs, for what dead ones left behind.
		"siteplan/internal/proc": {allowed: nil, forbidden: []string{"github.com", "golang.org", "modernc.org"}},
	}
	for pkg, r := range rules {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == pkg {
				continue
			}
			if strings.HasPrefix(dep, "siteplan/") && !slices.Contains(r.allowed, dep) {
				t.Errorf("%s imports %s; DESIGN.md does not allow it", pkg, dep)
			}
			for _, f := range r.forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") || strings.HasPrefix(dep, f) && strings.Contains(f, ".") {
					t.Errorf("%s depends on %s; DESIGN.md forbids it", pkg, dep)
				}
			}
		}
	}
}
