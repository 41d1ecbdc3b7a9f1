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

// pitchSlide is a slide of a version's pitch but the estimate's: the
// overview (Section nil) or a top-level section.
type pitchSlide struct {
	Title   string
	Section *site.Page
}

// pitchSlides are a version's slides but the estimate's, in order: the
// overview, then the main tree's top-level pages, or the home page's
// children below it.
func pitchSlides(t *site.Tree, name string) []pitchSlide {
	slides := []pitchSlide{{Title: name}}
	sections := t.Roots(site.PlacementMain)
	if len(sections) == 1 && sections[0].IsHome() {
		sections = t.Children(sections[0].ID)
	}
	for _, sec := range sections {
		slides = append(slides, pitchSlide{Title: sec.Title, Section: sec})
	}
	return slides
}

// pages are the pages whose notes go with the slide: the overview's
// top-level pages (and the home page's children), a section's whole
// branch.
func (sl pitchSlide) pages(t *site.Tree) []*site.Page {
	if sl.Section != nil {
		return branchPages(t, sl.Section)
	}
	var top []*site.Page
	for _, r := range t.Roots(site.PlacementMain) {
		top = append(top, r)
		if r.IsHome() {
			top = append(top, t.Children(r.ID)...)
		}
	}
	return top
}

// pitchChannel is the BroadcastChannel a pitch and its notes window
// share.
func pitchChannel(projectID int64, number int) string {
	return fmt.Sprintf("siteplan-pitch-%d-%d", projectID, number)
}

// pitch shows a version as slides.
func (s *Server) pitch(c echo.Context) error {
	v, t, links, err := s.loadVersion(c)
	if err != nil {
		return err
	}
	p := currentProject(c)
	props := views.PitchProps{Layout: s.layout(c, "Pitch: "+v.Label()+" of "+p.Name), Project: p, Version: v, Team: !viewer(c).Share,
		Channel: pitchChannel(p.ID, v.Number)}
	for _, sl := range pitchSlides(t, p.Name) {
		var svg []byte
		if sl.Section == nil {
			svg, err = s.drawVersion(c, v, t, links, diagram.FormatSVG)
		} else {
			opt := diagram.Options{Format: diagram.FormatSVG, Root: sl.Section.ID, Depth: 3, Links: true}
			svg, err = s.drawCached(c, p.ID, fmt.Sprintf("pitch|%d|%d|%d", p.ID, v.Number, sl.Section.ID), opt, loaded(t, links))
		}
		if err != nil {
			return err
		}
		props.Slides = append(props.Slides, views.Slide{Title: sl.Title, SVG: string(svg)})
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
	props := views.PitchNotesProps{Layout: s.layout(c, "Speaker notes: "+v.Label()), Version: v, Channel: pitchChannel(p.ID, v.Number)}
	for _, sl := range pitchSlides(t, p.Name) {
		props.Slides = append(props.Slides, views.SlideNotes{Title: sl.Title, Notes: notesOf(sl.pages(t))})
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
