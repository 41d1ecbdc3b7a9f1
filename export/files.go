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

// footerNodes collects, from a walk of the plan, the pages the footer may
// list: the main tree's top three levels and the footer navigation's
// top level, each with the URL it points at.
type footerNodes struct {
	depth int
	nodes []footerNode
	roots []int // the top-level pages' nodes
	open  []int // the nodes of the current page's ancestors, by depth
}

type footerNode struct {
	page     site.Page
	href     string
	children []int
}

// add takes a page of the walk if the footer may list it.
func (f *footerNodes) add(v *visit, href string) {
	p := &v.page
	limit := 3
	if p.Placement == site.PlacementFooter {
		limit = 1
	}
	if v.depth > limit || p.Placement == site.PlacementUtility {
		return
	}
	f.open = f.open[:v.depth-1]
	i := len(f.nodes)
	f.nodes = append(f.nodes, footerNode{page: site.Page{ID: p.ID, Title: p.Title, Slug: p.Slug, Path: p.Path, Kind: p.Kind, Placement: p.Placement, InHTMLSitemap: p.InHTMLSitemap}, href: href})
	if v.depth > 1 {
		parent := f.open[v.depth-2]
		f.nodes[parent].children = append(f.nodes[parent].children, i)
	} else {
		f.roots = append(f.roots, i)
	}
	f.open = append(f.open, i)
}

// links builds the footer sitemap: the main tree to depth (1 or 2) and
// the footer navigation, with only pages that have in_html_sitemap on.
// Groups appear as headings; placeholders never.
func (f *footerNodes) links() (main, footer []FooterLink) {
	depth := f.depth
	if depth < 1 || depth > 2 {
		depth = 2
	}
	var build func(list []int, level int) []FooterLink
	build = func(list []int, level int) []FooterLink {
		var out []FooterLink
		for _, i := range list {
			n := f.nodes[i]
			p := n.page
			if !p.InHTMLSitemap || p.Kind == site.KindPlaceholder {
				continue
			}
			l := FooterLink{Title: p.Title, Href: n.href}
			if p.Kind == site.KindGroup {
				l.Href = ""
			}
			if level < depth {
				l.Children = build(n.children, level+1)
			}
			out = append(out, l)
		}
		return out
	}
	var roots, foot []int
	for _, i := range f.roots {
		if f.nodes[i].page.Placement == site.PlacementMain {
			roots = append(roots, i)
		} else {
			foot = append(foot, i)
		}
	}
	// The home page is the footer's first link; its children are the sections.
	if len(roots) == 1 && f.nodes[roots[0]].page.Slug == "" && f.nodes[roots[0]].page.Path == "" {
		home := build(roots, 0)
		if len(home) == 1 {
			main = append([]FooterLink{{Title: home[0].Title, Href: home[0].Href}}, build(f.nodes[roots[0]].children, 1)...)
		}
	} else {
		main = build(roots, 1)
	}
	return main, build(foot, depth)
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

// WriteFooter writes the embeddable <nav aria-label="Sitemap"> snippet
// of a plan.
func WriteFooter(w io.Writer, src site.PlanReader, depth int) error {
	f := &footerNodes{depth: depth}
	proj := src.Project()
	err := walk(src, 0, func(v *visit) error {
		f.add(v, proj.FinishURL(&v.page, v.path))
		return nil
	})
	if err != nil {
		return err
	}
	m, ft := f.links()
	return footerTmpl.ExecuteTemplate(w, "nav", footerData{proj.Name, m, ft})
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
