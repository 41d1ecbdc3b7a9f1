// Package sitegen makes synthetic plans for benchmarks, load tests and
// test fixtures: sections × subsections × leaves under a home page, and
// full briefs.
package sitegen

import (
	"strconv"

	"siteplan/site"
)

// site.Document builds a synthetic plan of sections × subsections ×
// leaves pages under a home page, for benchmarks and load tests.
func Document(name string, sections, subsections, leaves int) *site.Document {
	home := &site.DocPage{Key: "home", Title: "Home", Slug: new(string)}
	for s := 0; s < sections; s++ {
		sec := &site.DocPage{Key: "s" + strconv.Itoa(s), Title: "Section " + strconv.Itoa(s), Type: "section"}
		for u := 0; u < subsections; u++ {
			sub := &site.DocPage{Title: "Topic " + strconv.Itoa(s) + "." + strconv.Itoa(u), Status: site.Statuses[u%len(site.Statuses)]}
			for l := 0; l < leaves; l++ {
				sub.Children = append(sub.Children, &site.DocPage{Title: "Article " + strconv.Itoa(s) + "." + strconv.Itoa(u) + "." + strconv.Itoa(l), Type: "article"})
			}
			sec.Children = append(sec.Children, sub)
		}
		home.Children = append(home.Children, sec)
	}
	d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: name, BaseURL: "https://bench.example/"}, Pages: []*site.DocPage{home}}
	if sections > 1 {
		d.Links = []site.DocLink{{From: "home", To: "s1", Label: "hero"}}
	}
	return d
}

// Briefs gives every page of d a full brief, as an agency writes
// one: SEO fields of their usual lengths, five blocks with notes, a word
// target, an owner and a due date. It returns d.
func Briefs(d *site.Document) *site.Document {
	n := 0
	var walk func(ps []*site.DocPage)
	walk = func(ps []*site.DocPage) {
		for _, p := range ps {
			n++
			id := strconv.Itoa(n)
			p.Brief = &site.Brief{SEOTitle: p.Title + " | Aurora outdoor gear " + id,
				MetaDescription: "Everything about " + p.Title + ": tested on three continents, with free returns for a year (" + id + ").",
				H1:              p.Title, Keyword: "outdoor gear " + id, Intent: site.IntentCommercial,
				Blocks: []site.Block{{Kind: "hero", Note: "Big photo of the product in use"}, {Kind: "text", Note: "Intro in two paragraphs"},
					{Kind: "cards", Note: "Three features"}, {Kind: "faq", Note: "Five questions from support"}, {Kind: "cta", Note: "Shop now"}},
				WordTarget: 600, Owner: "Mara", Due: "2026-12-15"}
			walk(p.Children)
		}
	}
	walk(d.Pages)
	return d
}
