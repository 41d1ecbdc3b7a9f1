package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"siteplan/export"
	"siteplan/site"
	"siteplan/store"
)

// liveSite serves a small site's robots.txt and sitemaps on loopback.
func liveSite(t *testing.T, urlset func(base string) string) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nSitemap: " + srv.URL + "/sitemap.xml\n"))
		case "/sitemap.xml":
			w.Write([]byte(urlset(srv.URL)))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func urlsetXML(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="` + site.SitemapNamespace + `">`)
	for _, l := range locs {
		b.WriteString("<url><loc>" + l + "</loc></url>")
	}
	return b.String() + "</urlset>"
}

func exitCode(err error) int {
	var e *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &e):
		return e.code
	}
	return 1
}

// TestCheckCLI: check prints the files read and each file's problems,
// as text or JSON, and exits 0 without errors, 1 with, 2 when the source
// cannot be read; loopback is refused without --allow-private.
func TestCheckCLI(t *testing.T) {
	clean := liveSite(t, func(b string) string { return urlsetXML(b+"/", b+"/about") })
	dirty := liveSite(t, func(b string) string {
		return `<urlset xmlns="` + site.SitemapNamespace + `"><url><loc>` + b + `/a</loc><lastmod>2026-11-01T10:00</lastmod></url>` +
			`<url><loc>` + b + `/a</loc></url><url><loc>https://elsewhere.example/x</loc></url></urlset>`
	})
	var out bytes.Buffer
	err := run([]string{"check", "--allow-private", clean.URL}, nil, &out)
	if exitCode(err) != 0 || !strings.Contains(out.String(), "2 URLs") || !strings.Contains(out.String(), "0 errors, 0 warnings.") {
		t.Errorf("a clean site: exit %d (%v)\n%s", exitCode(err), err, out.String())
	}

	out.Reset()
	err = run([]string{"check", "--allow-private", dirty.URL}, nil, &out)
	report := out.String()
	if exitCode(err) != 1 {
		t.Errorf("a site with errors: exit %d (%v), want 1", exitCode(err), err)
	}
	for _, want := range []string{"robots.txt: " + dirty.URL + "/robots.txt", dirty.URL + "/sitemap.xml", "listed by " + dirty.URL + "/robots.txt",
		"error   lastmod-zone", "warning duplicate", "error   off-host", "2 errors, 1 warning."} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}

	out.Reset()
	err = run([]string{"check", "--json", "--allow-private", dirty.URL}, nil, &out)
	var js struct {
		Source string `json:"source"`
		Errors int    `json:"errors"`
		Files  []struct {
			Loc      string `json:"loc"`
			URLs     int    `json:"urls"`
			Problems []struct {
				Rule  string `json:"rule"`
				Line  int    `json:"line"`
				Error bool   `json:"error"`
			} `json:"problems"`
		} `json:"files"`
	}
	if jerr := json.Unmarshal(out.Bytes(), &js); jerr != nil || exitCode(err) != 1 || js.Errors != 2 || len(js.Files) != 1 || js.Files[0].URLs != 3 || len(js.Files[0].Problems) != 3 {
		t.Errorf("--json: exit %d, %v, %+v\n%s", exitCode(err), jerr, js, out.String())
	}

	out.Reset()
	err = run([]string{"check", clean.URL}, nil, &out)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "loopback") || !strings.Contains(err.Error(), "--allow-private") {
		t.Errorf("loopback without --allow-private: exit %d, %v", exitCode(err), err)
	}
	err = run([]string{"check", "--allow-private", clean.URL + "/missing.xml"}, nil, &out)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "404") {
		t.Errorf("a missing sitemap: exit %d, %v", exitCode(err), err)
	}
	if err := run([]string{"check"}, nil, &out); exitCode(err) != 2 {
		t.Errorf("no source: exit %d, %v", exitCode(err), err)
	}
}

// TestImportSitemapCLI: import makes a plan of a live site's sitemaps,
// and of a gzipped sitemap file, and its export gives back the URLs.
func TestImportSitemapCLI(t *testing.T) {
	srv := liveSite(t, func(b string) string {
		return urlsetXML(b+"/", b+"/products", b+"/products/widgets", b+"/legal/imprint")
	})
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	file := filepath.Join(dir, "sitemap.xml.gz")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(urlsetXML("https://files.example/", "https://files.example/a")))
	zw.Close()
	os.WriteFile(file, gz.Bytes(), 0o644)

	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, "--allow-private", "--name", "Live", srv.URL, file}, nil, &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "1\n2\n" {
		t.Fatalf("import printed %q", out.String())
	}
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, want := range map[int64][]string{
		1: {srv.URL + "/", srv.URL + "/legal/imprint", srv.URL + "/products", srv.URL + "/products/widgets"},
		2: {"https://files.example/", "https://files.example/a"},
	} {
		tr, err := s.Pages.Tree(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		entries, _, err := export.Collect(tr, export.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Loc)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("project %d exports %q, want %q", id, got, want)
		}
		if id == 1 && tr.Project.Name != "Live" {
			t.Errorf("project 1 is named %q", tr.Project.Name)
		}
	}
	if err := run([]string{"import", "--db", db, srv.URL}, nil, &out); err == nil || !strings.Contains(err.Error(), "nothing was imported") {
		t.Errorf("loopback without --allow-private: %v", err)
	}
}

// TestImportTellsJSONFromSitemaps: a file named .json, or one that
// starts with {, is a siteplan/1 document whatever its name.
func TestImportTellsJSONFromSitemaps(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cli.db")
	plan := filepath.Join(dir, "plan.export")
	os.WriteFile(plan, []byte("\n  "+`{"format":"siteplan/1","project":{"name":"Doc","base_url":"https://doc.example"},"pages":[{"title":"Home","slug":""}]}`), 0o644)
	var out bytes.Buffer
	if err := run([]string{"import", "--db", db, plan}, nil, &out); err != nil || out.String() != "1\n" {
		t.Errorf("a JSON document without .json: %q, %v", out.String(), err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("https://example.com/\n"), 0o644)
	if err := run([]string{"import", "--db", db, bad}, nil, &out); err == nil || !strings.Contains(err.Error(), "this is not JSON") {
		t.Errorf("a .json file that is no JSON: %v", err)
	}
}
