package web

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"siteplan/diagram"
	"siteplan/site"
)

// TestBrowserMermaid: the plan as a Mermaid flowchart is read by the
// mermaid package's own parser (npm, in Chromium) and rendered: every
// page's title in the drawing as written, a title with quotes, an
// ampersand and markup included (the sample plan's “Café & "Bar" <b>”),
// the utility and footer navigation as subgraphs, a cross-link dotted.
func TestBrowserMermaid(t *testing.T) {
	ctx, _, _ := browser(t)
	c := newClient(t)
	pid, _ := c.fixture()
	tr, _ := c.db.Pages.Tree(context.Background(), pid)
	links, _ := c.db.Links.Links(context.Background(), pid)
	var out bytes.Buffer
	if _, err := diagram.Render(context.Background(), &out, tr, links, diagram.Options{Format: diagram.FormatMermaid, Links: true}); err != nil {
		t.Fatal(err)
	}
	src := out.String()
	if !strings.HasPrefix(src, "flowchart TD\n") || !strings.Contains(src, "subgraph footer") || strings.Contains(src, `"Bar"`) {
		t.Fatalf("the flowchart:\n%s", src)
	}
	script, err := os.ReadFile("../node_modules/mermaid/dist/mermaid.min.js")
	if err != nil {
		t.Fatalf("mermaid is not installed (npm ci): %v", err)
	}
	var parsed bool
	var texts string
	run(t, ctx, "parse and draw it with mermaid",
		chromedp.Navigate("about:blank"),
		chromedp.Evaluate(string(script), nil),
		chromedp.Evaluate(`mermaid.initialize({startOnLoad: false, securityLevel: "strict"})`, nil),
		chromedp.Evaluate(`mermaid.parse(`+jsString(src)+`).then(r => !!r)`, &parsed, awaitPromise),
		chromedp.Evaluate(`mermaid.render("plan", `+jsString(src)+`).then(r => { document.body.innerHTML = r.svg; return document.body.textContent })`, &texts, awaitPromise),
	)
	if !parsed {
		t.Fatal("mermaid did not parse the flowchart")
	}
	for _, p := range tr.Pages() {
		if !strings.Contains(texts, p.Title) {
			t.Errorf("the drawing lacks %q", p.Title)
		}
	}
	if !strings.Contains(texts, "Footer navigation") {
		t.Errorf("no footer subgraph in %q", texts)
	}
}

// TestBrowserMermaidHandWritten: the diagrams the site package's tests
// read as people and agents write them (site/testdata/mermaid) are
// Mermaid as the mermaid package reads it: it parses and draws each,
// and every page title siteplan reads from one is in its drawing.
func TestBrowserMermaidHandWritten(t *testing.T) {
	ctx, _, _ := browser(t)
	files, err := filepath.Glob("../site/testdata/mermaid/*.mmd")
	if err != nil || len(files) < 4 {
		t.Fatalf("the hand-written diagrams: %v %v", files, err)
	}
	script, err := os.ReadFile("../node_modules/mermaid/dist/mermaid.min.js")
	if err != nil {
		t.Fatalf("mermaid is not installed (npm ci): %v", err)
	}
	run(t, ctx, "load mermaid",
		chromedp.Navigate("about:blank"),
		chromedp.Evaluate(string(script), nil),
		chromedp.Evaluate(`mermaid.initialize({startOnLoad: false, securityLevel: "strict"})`, nil),
	)
	for i, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := site.ParseMermaid(string(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			var problem, texts string
			run(t, ctx, "parse and draw "+f,
				chromedp.Evaluate(`mermaid.parse(`+jsString(string(src))+`).then(() => "", e => "refused: " + (e.message || e))`, &problem, awaitPromise),
			)
			if problem != "" {
				t.Fatalf("mermaid %s", problem)
			}
			run(t, ctx, "draw "+f,
				chromedp.Evaluate(`mermaid.render("d`+strconv.Itoa(i)+`", `+jsString(string(src))+`).then(r => { document.body.innerHTML = r.svg; return document.body.textContent })`, &texts, awaitPromise),
			)
			var walk func([]*site.DocPage)
			walk = func(pages []*site.DocPage) {
				for _, p := range pages {
					if !strings.Contains(texts, p.Title) {
						t.Errorf("siteplan reads a page %q that mermaid's drawing does not show: %q", p.Title, texts)
					}
					walk(p.Children)
				}
			}
			walk(doc.Pages)
		})
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
