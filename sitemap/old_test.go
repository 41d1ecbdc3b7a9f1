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
