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

// GenerateBriefs gives every page of d a full brief, as an agency writes
// one: SEO fields of their usual lengths, five blocks with notes, a word
// target, an owner and a due date. It returns d.
func GenerateBriefs(d *Document) *Document {
	n := 0
	var walk func(ps []*DocPage)
	walk = func(ps []*DocPage) {
		for _, p := range ps {
			n++
			id := strconv.Itoa(n)
			p.Brief = &Brief{SEOTitle: p.Title + " | Aurora outdoor gear " + id,
				MetaDescription: "Everything about " + p.Title + ": tested on three continents, with free returns for a year (" + id + ").",
				H1:              p.Title, Keyword: "outdoor gear " + id, Intent: IntentCommercial,
				Blocks: []Block{{Kind: "hero", Note: "Big photo of the product in use"}, {Kind: "text", Note: "Intro in two paragraphs"},
					{Kind: "cards", Note: "Three features"}, {Kind: "faq", Note: "Five questions from support"}, {Kind: "cta", Note: "Shop now"}},
				WordTarget: 600, Owner: "Mara", Due: "2026-12-15"}
			walk(p.Children)
		}
	}
	walk(d.Pages)
	return d
}
