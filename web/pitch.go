package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"siteplan/diagram"
	"siteplan/site"
	"siteplan/views"
)

// Pitch mode: a version for the meeting, slide by slide (pitch.js): the
// overview, each top-level section zoomed (below a home page, each of
// its sections), then the estimate where the viewer may see it. The
// team opens the speaker notes (the pages' internal notes, slide by
// slide) in a window of their own; a client on a share link walks the
// same slides again, with no notes anywhere.

// pitchSections are the version's sections, in outline order: the main
// tree's top-level pages, or the home page's children below it.
func pitchSections(t *site.Tree) []*site.Page {
	roots := t.Roots(site.PlacementMain)
	if len(roots) == 1 && roots[0].IsHome() {
		return t.Children(roots[0].ID)
	}
	return roots
}

// pitch shows a version as slides.
func (s *Server) pitch(c echo.Context) error {
	v, t, links, err := s.loadVersion(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	props := views.PitchProps{Layout: s.layout(c, "Pitch: "+v.Label()+" of "+p.Name), Project: p, Version: v, Team: !viewer(c).Share,
		Channel: fmt.Sprintf("siteplan-pitch-%d-%d", p.ID, v.Number)}
	overview, err := s.drawVersion(c, v, t, links, diagram.FormatSVG)
	if err != nil {
		return err
	}
	props.Slides = append(props.Slides, views.Slide{Title: p.Name, SVG: string(overview)})
	for _, sec := range pitchSections(t) {
		opt := diagram.Options{Format: diagram.FormatSVG, Root: sec.ID, Depth: 3, Links: true}
		svg, err := s.drawCached(c, p.ID, fmt.Sprintf("pitch|%d|%d|%d", p.ID, v.Number, sec.ID), opt, loaded(t, links))
		if err != nil {
			return err
		}
		props.Slides = append(props.Slides, views.Slide{Title: sec.Title, SVG: string(svg)})
	}
	if props.Estimate, err = s.versionPriced(c, v.Number); err != nil {
		return err
	}
	if props.Estimate != nil {
		props.Slides = append(props.Slides, views.Slide{Title: "Estimate", Estimate: true})
	}
	return render(c, http.StatusOK, views.Pitch(props))
}

// pitchNotes is the speaker-notes window of a version's pitch: the
// internal notes of each slide's pages. The team's alone.
func (s *Server) pitchNotes(c echo.Context) error {
	v, t, _, err := s.loadVersion(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	props := views.PitchNotesProps{Layout: s.layout(c, "Speaker notes: "+v.Label()), Version: v,
		Channel: fmt.Sprintf("siteplan-pitch-%d-%d", p.ID, v.Number)}
	var top []*site.Page
	for _, r := range t.Roots(site.PlacementMain) {
		top = append(top, r)
		if r.IsHome() {
			top = append(top, t.Children(r.ID)...)
		}
	}
	props.Slides = append(props.Slides, views.SlideNotes{Title: p.Name, Notes: notesOf(top)})
	for _, sec := range pitchSections(t) {
		props.Slides = append(props.Slides, views.SlideNotes{Title: sec.Title, Notes: notesOf(branchPages(t, sec))})
	}
	if e, err := s.versionPriced(c, v.Number); err != nil {
		return err
	} else if e != nil {
		props.Slides = append(props.Slides, views.SlideNotes{Title: "Estimate", Notes: []views.PageNote{{Title: "Total", Note: site.Money(e.TotalMinor, e.Currency) + ", " + e.TotalHours.String() + " h"}}})
	}
	return render(c, http.StatusOK, views.PitchNotes(props))
}

// notesOf are the pages' internal notes, those that have one.
func notesOf(pages []*site.Page) []views.PageNote {
	var out []views.PageNote
	for _, pg := range pages {
		if n := strings.TrimSpace(pg.Notes); n != "" {
			out = append(out, views.PageNote{Title: pg.Title, Note: n})
		}
	}
	return out
}

// branchPages are p and the pages below it, in outline order.
func branchPages(t *site.Tree, p *site.Page) []*site.Page {
	out := []*site.Page{p}
	for _, c := range t.Children(p.ID) {
		out = append(out, branchPages(t, c)...)
	}
	return out
}
