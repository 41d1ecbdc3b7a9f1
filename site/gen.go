package site

import "strconv"

// GenerateDocument builds a synthetic plan of sections × subsections ×
// leaves pages under a home page, for benchmarks and load tests.
func GenerateDocument(name string, sections, subsections, leaves int) *Document {
	home := &DocPage{Key: "home", Title: "Home", Slug: new(string)}
	for s := 0; s < sections; s++ {
		sec := &DocPage{Key: "s" + strconv.Itoa(s), Title: "Section " + strconv.Itoa(s), Type: "section"}
		for u := 0; u < subsections; u++ {
			sub := &DocPage{Title: "Topic " + strconv.Itoa(s) + "." + strconv.Itoa(u), Status: Statuses[u%len(Statuses)]}
			for l := 0; l < leaves; l++ {
				sub.Children = append(sub.Children, &DocPage{Title: "Article " + strconv.Itoa(s) + "." + strconv.Itoa(u) + "." + strconv.Itoa(l), Type: "article"})
			}
			sec.Children = append(sec.Children, sub)
		}
		home.Children = append(home.Children, sec)
	}
	d := &Document{Format: FormatV1, Project: DocProject{Name: name, BaseURL: "https://bench.example/"}, Pages: []*DocPage{home}}
	if sections > 1 {
		d.Links = []DocLink{{From: "home", To: "s1", Label: "hero"}}
	}
	return d
}
