package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLiveSite: a new project from a live site, as a strategist
// makes one: the progress bar moves while the sitemaps are read, then
// the check report stands beside the new plan; a problem's line link
// shows that line of the file, and the plan opens in the editor. A
// second reading is cancelled from its page.
func TestBrowserLiveSite(t *testing.T) {
	ls := newLiveSite(t)
	ls.holdInIndex = true
	ctx, base, _ := browserWith(t, allowPrivate)

	run(t, ctx, "start from the live site",
		chromedp.Navigate(base+"/"),
		clickAt("#from-live-site"),
		chromedp.WaitVisible("#import-site"),
		chromedp.SendKeys("#f-source", ls.URL),
		chromedp.SendKeys("#f-name", "Acme relaunch"),
		clickAt("#import-site button[type=submit]"),
		// index, pages.xml and blog.xml read; hold.xml on its way
		waitJS(`(document.getElementById("job-counts")||{}).textContent?.includes("3 of 4 files read · 6 URLs")`),
		waitJS(`document.getElementById("job-progress").value === 3 && document.getElementById("job-progress").max === 4`),
	)
	screenshot(t, ctx, "live-site-progress.png")
	ls.release()
	run(t, ctx, "the report beside the new plan",
		chromedp.WaitVisible("#new-plan"),
		waitJS(`document.querySelector(".report-summary").textContent.includes("4 files")`),
	)
	screenshot(t, ctx, "live-site-report.png")
	run(t, ctx, "a problem's line",
		settled(), // the report came in an event htmx swaps in: a click before it has settled can go unheard
		clickAt(".problems li.error a.line-link"),
		chromedp.WaitVisible(".source-lines li.at"),
		waitJS(`document.querySelector(".source-lines li.at").textContent.includes("&")`),
	)
	screenshot(t, ctx, "live-site-line.png")
	run(t, ctx, "open the plan",
		chromedp.NavigateBack(),
		clickAt("#open-plan"),
		titleShown("Blue widget"),
		titleShown("Imprint"),
	)

	again := newLiveSite(t)
	again.holdInIndex = true
	run(t, ctx, "the live-sites page", chromedp.Navigate(base+"/sites"), chromedp.WaitVisible("#check-site"))
	screenshot(t, ctx, "live-sites.png")
	run(t, ctx, "cancel a reading",
		chromedp.SendKeys("#f-check", again.URL),
		clickAt("#check-site button[type=submit]"),
		waitJS(`(document.getElementById("job-counts")||{}).textContent?.includes("3 of 4 files")`),
		clickAt("#job-cancel"),
		waitJS(`document.getElementById("job-status").dataset.state === "cancelled"`),
		waitJS(`document.getElementById("job-error").textContent.includes("Cancelled")`),
	)
	screenshot(t, ctx, "live-site-cancelled.png")
	noProblems(t, ctx, "reading a live site")
}
