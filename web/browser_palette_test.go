package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"siteplan/site"
)

// TestBrowserTypeColours: the outline's type chips show the team's
// colours (painted from data-color, as the content security policy
// refuses style attributes), and a colour chosen on the team page shows
// in the outline.
func TestBrowserTypeColours(t *testing.T) {
	ctx, base, db := browser(t)
	d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Colours", BaseURL: "https://colours.example/"}}
	for _, ty := range []string{"landing", "product", "blog index"} {
		d.Pages = append(d.Pages, &site.DocPage{Title: "A " + ty, Type: ty})
	}
	pid, err := db.Projects.ImportDocument(context.Background(), 1, d)
	if err != nil {
		t.Fatal(err)
	}
	chip := func(ty string) string {
		return fmt.Sprintf(`[...document.querySelectorAll('.row .type')].find(e => e.textContent.trim().endsWith(%q))`, ty)
	}
	painted := func(ty, rgb string) chromedp.Action {
		return waitJS(fmt.Sprintf(`getComputedStyle(%s ?? document.body).borderLeftColor === %q`, chip(ty), rgb))
	}
	run(t, ctx, "the outline's chips in the palette's first colours",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#outline .row .type`),
		painted("landing", "rgb(109, 158, 235)"), painted("product", "rgb(147, 196, 125)"), painted("blog index", "rgb(246, 178, 107)"),
	)
	run(t, ctx, "choose red for product on the team page",
		chromedp.Navigate(base+"/team"),
		chromedp.WaitVisible(`#type-colors input[type=color]`),
		chromedp.SetValue(`#type-colors input[aria-label="Colour of product"]`, "#e06666"),
		chromedp.Click(`#type-colors button[type=submit]:not([name])`),
		waitJS(`(document.querySelector('#type-colors .alert-ok')?.textContent || '').includes('Saved')`),
	)
	screenshot(t, ctx, "type-colors.png")
	run(t, ctx, "the outline shows it",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#outline .row .type`),
		painted("product", "rgb(224, 102, 102)"), painted("landing", "rgb(109, 158, 235)"),
	)
	screenshot(t, ctx, "type-colors-outline.png")
	noProblems(t, ctx, "type colours")
}
