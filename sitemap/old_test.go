package sitemap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"siteplan/site"
)

// TestReadClicks reads Search Console's Pages export and an Analytics
// export (comment lines, paths without a host, thousands separators, a
// page listed twice), and refuses a file without the columns or with a
// count that is no number, naming the line.
func TestReadClicks(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		want       map[string]int
		err        string
	}{
		{"search console", "Top pages,Clicks,Impressions,CTR,Position\nhttps://old.example/a,\"1,200\",40000,3%,4.1\nhttps://old.example/b,3,90,3.3%,7.5\n",
			map[string]int{"https://old.example/a": 1200, "https://old.example/b": 3}, ""},
		{"analytics", "# ----------------------------------------\n# Landing page report\n# ----------------------------------------\n\nLanding page,Sessions,Users\n/a,10,9\n/b?x=1,5,5\n/a,2,2\n(not set),7,7\nTotal,24,23\n",
			map[string]int{"https://old.example/a": 12, "https://old.example/b?x=1": 5}, ""},
		{"no columns", "Address,Visits\nhttps://old.example/a,3\n", nil, "needs a page column"},
		{"not a number", "Page,Clicks\nhttps://old.example/a,3\nhttps://old.example/b,many\n", nil, "Line 3 of the traffic file: \"many\""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadClicks(strings.NewReader(tt.file), "https://old.example/")
			if tt.err != "" {
				if site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// TestReadOldCrawl reads a Screaming Frog "Internal" export and a plain
// list: titles and H1s kept, rows that did not answer 2xx or 3xx left out
// and noted, each URL once, and more than the limit refused.
func TestReadOldCrawl(t *testing.T) {
	dir := t.TempDir()
	crawl := filepath.Join(dir, "internal_all.csv")
	os.WriteFile(crawl, []byte(`"Address","Content Type","Status Code","Title 1","H1-1"
"https://old.example/a.html","text/html","200","A | Old","A heading"
"https://old.example/gone.html","text/html","404","Not found","Not found"
"https://old.example/moved","text/html","301","",""
"https://old.example/broken","text/html","500","",""
`), 0o644)
	list := filepath.Join(dir, "urls.txt")
	os.WriteFile(list, []byte("https://old.example/a.html\nhttps://old.example/c\n"), 0o644)
	olds, reps, err := (&Reader{Local: true}).ReadOld(context.Background(), []string{crawl, list}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := "[{https://old.example/a.html A | Old A heading 0} {https://old.example/moved   0} {https://old.example/c   0}]"
	if fmt.Sprint(olds) != want {
		t.Errorf("got  %v\nwant %s", olds, want)
	}
	var noted int
	for _, p := range reps[0].Files[0].Problems {
		if p.Rule == "crawl-status" {
			noted = p.Count
		}
	}
	if noted != 2 {
		t.Errorf("%d rows noted as not answering, want 2", noted)
	}
	if _, _, err := (&Reader{Local: true}).ReadOld(context.Background(), []string{crawl, list}, 2); site.ErrorCode(err) != site.EInvalid {
		t.Errorf("past the limit: %v", err)
	}
}

// TestReadOldRefusesJunk: a binary file attached as the old site is
// refused with the reader's own error, and a list's line that is no
// absolute http(s) URL is left out (the reading says why), never an old
// URL to match.
func TestReadOldRefusesJunk(t *testing.T) {
	png, err := os.ReadFile("../docs/editor.png")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = (&Reader{Local: true}).ReadOldUpload(context.Background(), "site.png", strings.NewReader(string(png[:3000])), 100)
	if site.ErrorCode(err) != site.EInvalid || !strings.Contains(err.Error(), "site.png lists no URL") || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("a PNG: %v, want it refused with the reader's error", err)
	}
	olds, rep, err := (&Reader{Local: true}).ReadOldUpload(context.Background(), "urls.txt", strings.NewReader("https://old.example/a\n\x1a\nmailto:x@old.example\n/relative\nhttps://old.example/b\n"), 100)
	if err != nil || fmt.Sprint(olds) != "[{https://old.example/a   0} {https://old.example/b   0}]" {
		t.Errorf("a list with junk lines: %v, %v", olds, err)
	}
	if rep == nil || len(rep.Files) == 0 || len(rep.Files[0].Problems) == 0 {
		t.Errorf("the junk lines are not reported: %+v", rep)
	}
}
