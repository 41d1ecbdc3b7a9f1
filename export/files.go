package export

import (
	"archive/zip"
	"bufio"
	"bytes"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"siteplan/site"
)

// WriteText writes sitemap.txt: one URL a line, UTF-8.
func WriteText(w io.Writer, entries Entries) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	err := entries(func(e *Entry) error {
		bw.WriteString(e.Loc)
		return bw.WriteByte('\n')
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// WriteRobots writes the robots.txt lines that name the sitemaps.
func WriteRobots(w io.Writer, sitemaps []string) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("# Add these lines to the site's robots.txt.\n")
	for _, s := range sitemaps {
		bw.WriteString("Sitemap: " + s + "\n")
	}
	return bw.Flush()
}

// FooterLink is one entry of the HTML footer sitemap; a group has no Href.
type FooterLink struct {
	Title    string
	Href     string
	Children []FooterLink
}

// Footer builds the footer sitemap: the main tree to depth (1 or 2) and
// the footer navigation, with only pages that have in_html_sitemap on.
// Groups appear as headings; placeholders never.
func Footer(t *site.Tree, depth int) (main, footer []FooterLink) {
	if depth < 1 || depth > 2 {
		depth = 2
	}
	var build func(list []*site.Page, level int) []FooterLink
	build = func(list []*site.Page, level int) []FooterLink {
		var out []FooterLink
		for _, p := range list {
			if !p.InHTMLSitemap || p.Kind == site.KindPlaceholder {
				continue
			}
			l := FooterLink{Title: p.Title, Href: t.Location(p.ID)}
			if p.Kind == site.KindGroup {
				l.Href = ""
			}
			if level < depth {
				l.Children = build(t.Children(p.ID), level+1)
			}
			out = append(out, l)
		}
		return out
	}
	roots := t.Roots(site.PlacementMain)
	// The home page is the footer's first link; its children are the sections.
	if len(roots) == 1 && roots[0].Slug == "" && roots[0].Path == "" {
		home := build(roots, 0)
		if len(home) == 1 {
			main = append([]FooterLink{{Title: home[0].Title, Href: home[0].Href}}, build(t.Children(roots[0].ID), 1)...)
		}
	} else {
		main = build(roots, 1)
	}
	return main, build(t.Roots(site.PlacementFooter), depth)
}

var footerTmpl = template.Must(template.New("footer").Parse(`{{define "links"}}<ul>
{{- range .}}
<li>{{if .Href}}<a href="{{.Href}}">{{.Title}}</a>{{else}}<span>{{.Title}}</span>{{end}}{{if .Children}}{{template "links" .Children}}{{end}}</li>
{{- end}}
</ul>{{end}}
{{- define "nav"}}<nav aria-label="Sitemap" class="sitemap">
{{template "links" .Main}}
{{- if .Footer}}
{{template "links" .Footer}}
{{- end}}
</nav>
{{end}}
`))

type footerData struct {
	Name         string
	Main, Footer []FooterLink
}

// WriteFooter writes the embeddable <nav aria-label="Sitemap"> snippet.
func WriteFooter(w io.Writer, t *site.Tree, depth int) error {
	m, f := Footer(t, depth)
	return footerTmpl.ExecuteTemplate(w, "nav", footerData{t.Project.Name, m, f})
}

// Memory keeps an export's files in memory, in the order they were
// written.
type Memory struct {
	Names []string
	Files map[string]*bytes.Buffer
}

// Create starts a new in-memory file.
func (m *Memory) Create(name string) (io.WriteCloser, error) {
	if m.Files == nil {
		m.Files = map[string]*bytes.Buffer{}
	}
	m.Names = append(m.Names, name)
	m.Files[name] = &bytes.Buffer{}
	return nopWriteCloser{m.Files[name]}, nil
}

// DirOutput creates files in a directory.
type DirOutput string

// Create creates (or truncates) a file in the directory.
func (d DirOutput) Create(name string) (io.WriteCloser, error) {
	return os.Create(filepath.Join(string(d), filepath.Base(name)))
}

// ZipOutput adds files to a zip archive.
type ZipOutput struct {
	Z        *zip.Writer
	Modified time.Time // every entry's date (zip's zero date reads 1979-12-31)
}

// Create starts a new file in the archive; a file already gzipped is
// stored as it is.
func (z ZipOutput) Create(name string) (io.WriteCloser, error) {
	method := zip.Deflate
	if strings.HasSuffix(name, ".gz") {
		method = zip.Store
	}
	w, err := z.Z.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: z.Modified})
	return nopWriteCloser{w}, err
}
