package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// TestBrowserPitch: a version in pitch mode moves slide by slide with the
// arrow keys and a clicker's PageDown and PageUp, the address keeping
// the slide; the speaker-notes window the team opens follows it with the
// internal notes of each slide's pages; the last slide is the estimate.
func TestBrowserPitch(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	doc, err := site.ReadDocumentFile("../store/testdata/acme.json")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := db.Projects.ImportDocument(bg, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(bg, pid)
	for title, note := range map[string]string{"Team": "Introduce the three founders", "Pricing": "The client asked about VAT"} {
		for _, p := range tr.Pages() {
			if p.Title == title {
				p.Notes = note
				if err := db.Pages.UpdatePage(bg, &p); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	card, _ := site.ParseRateCard(strings.NewReader(`{"currency": "EUR", "hourly_rate": 95, "types": {"*": {"first_hours": 8, "each_hours": 2}}}`))
	if err := db.RateCards.SetRateCard(bg, 1, 0, card); err != nil {
		t.Fatal(err)
	}
	if _, err := db.History.CreateVersion(bg, pid, "Pitch"); err != nil {
		t.Fatal(err)
	}
	shown := func(n int64) chromedp.Action {
		return waitJS(`document.querySelector(".pitch-deck")?.dataset.slide === "` + itoa(n) + `" && !document.getElementById("slide-` + itoa(n) + `").hidden && location.hash === "#` + itoa(n) + `"`)
	}
	var status string
	run(t, ctx, "the first slides, by keys",
		chromedp.Navigate(base+"/projects/"+itoa(pid)+"/versions/1"),
		chromedp.WaitVisible(`#pitch-link`, chromedp.ByQuery),
		chromedp.Click(`#pitch-link`, chromedp.ByQuery),
		waitJS(scriptReady),
		shown(1),
		chromedp.KeyEvent(kb.ArrowRight),
		shown(2),
		chromedp.KeyEvent(kb.PageDown),
		shown(3),
		chromedp.KeyEvent(kb.PageUp),
		shown(2),
		chromedp.Text(`#pitch-status`, &status, chromedp.ByQuery),
	)
	if !strings.HasPrefix(status, "Slide 2 of ") || !strings.HasSuffix(status, "About us") {
		t.Errorf("the status says %q", status)
	}
	screenshot(t, ctx, "pitch.png")
	opened := chromedp.WaitNewTarget(ctx, func(info *target.Info) bool { return strings.Contains(info.URL, "/pitch/notes") })
	run(t, ctx, "open the speaker notes", chromedp.Click(`[data-pitch-notes]`, chromedp.ByQuery))
	var id target.ID
	select {
	case id = <-opened:
	case <-time.After(30 * time.Second):
		t.Fatal("the notes window did not open")
	}
	nctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
	defer cancel()
	var notes string
	run(t, nctx, "the notes follow the slide shown",
		waitJS(`document.querySelector(".pitch-notes")?.dataset.slide === "2"`),
		chromedp.Text(`#notes-2`, &notes, chromedp.ByQuery),
	)
	if !strings.Contains(notes, "Introduce the three founders") {
		t.Errorf("slide 2's notes: %q", notes)
	}
	run(t, ctx, "the next slide", chromedp.KeyEvent(kb.ArrowRight), shown(3))
	run(t, nctx, "its notes",
		waitJS(`document.querySelector(".pitch-notes")?.dataset.slide === "3"`),
		chromedp.Text(`#notes-3`, &notes, chromedp.ByQuery),
	)
	if !strings.Contains(notes, "The client asked about VAT") {
		t.Errorf("slide 3's notes: %q", notes)
	}
	var total string
	run(t, ctx, "End: the estimate",
		chromedp.KeyEvent(kb.End),
		waitJS(`!!document.querySelector(".slide:not([hidden]) .pitch-total")`),
		chromedp.Text(`.slide:not([hidden]) .pitch-total strong`, &total, chromedp.ByQuery),
	)
	if !strings.HasPrefix(total, "€") {
		t.Errorf("the estimate slide: %q", total)
	}
	noProblems(t, ctx, "pitch")
}
