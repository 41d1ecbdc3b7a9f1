package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// TestBrowserBrief edits a page's brief in the details panel: the SEO
// title's count follows what is typed, blocks are added with the button
// and moved with Alt+Up from their note, keeping the keyboard, and the
// saved brief has them in that order.
func TestBrowserBrief(t *testing.T) {
	ctx, base, db := browser(t)
	pid, _ := (&client{t: t, db: db}).fixture() // the sample plan
	tr, _ := db.Pages.Tree(context.Background(), pid)
	contact := pageID(tr, "Contact")
	run(t, ctx, "open the page",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/pages/%d", base, pid, contact)),
		chromedp.WaitVisible(`#page-form`),
		settled(),
		chromedp.Click(`#brief > summary`, chromedp.ByQuery),
		chromedp.WaitVisible(`#brief-blocks`),
	)
	run(t, ctx, "type the SEO title",
		chromedp.SendKeys(`#f-brief\.seo_title`, "Contact", chromedp.ByQuery),
		waitJS(`(() => { const o = document.querySelector('output[for="f-brief.seo_title"]'); return o.textContent === "7 / 60" && o.dataset.state === "short"; })()`),
		chromedp.SendKeys(`#f-brief\.seo_title`, " Acme | Tools since 1987", chromedp.ByQuery),
		waitJS(`document.querySelector('output[for="f-brief.seo_title"]').dataset.state === "ok"`),
	)
	run(t, ctx, "add two blocks",
		chromedp.Click(`[data-block=add]`, chromedp.ByQuery),
		waitJS(`document.querySelectorAll("#brief-blocks ol > li").length === 1 && document.activeElement.matches("#brief-blocks ol > li select")`),
		chromedp.SetValue(`#brief-blocks ol > li:nth-child(1) select`, "form", chromedp.ByQuery),
		chromedp.SendKeys(`#brief-blocks ol > li:nth-child(1) input`, "Name, email", chromedp.ByQuery),
		chromedp.Click(`[data-block=add]`, chromedp.ByQuery),
		waitJS(`document.querySelectorAll("#brief-blocks ol > li").length === 2`),
		chromedp.SetValue(`#brief-blocks ol > li:nth-child(2) select`, "hero", chromedp.ByQuery),
		chromedp.SendKeys(`#brief-blocks ol > li:nth-child(2) input`, "Map", chromedp.ByQuery),
	)
	run(t, ctx, "move the hero up with Alt+Up",
		chromedp.Focus(`#brief-blocks ol > li:nth-child(2) input`, chromedp.ByQuery),
		chromedp.KeyEvent(kb.ArrowUp, chromedp.KeyModifiers(1)), // Alt
		waitJS(`document.querySelector("#brief-blocks ol > li:nth-child(1) input").value === "Map" && document.activeElement.value === "Map"`),
		waitJS(`document.getElementById("page-form").dataset.dirty === "1"`),
	)
	screenshot(t, ctx, "brief.png")
	run(t, ctx, "save",
		chromedp.Click(`#page-form button[type=submit]`, chromedp.ByQuery),
		waitJS(`document.querySelector("#page-form .alert-ok")?.textContent === "Saved."`),
	)
	noProblems(t, ctx, "brief")
	pg, _ := db.Pages.Page(context.Background(), contact)
	if got := site.BlocksText(pg.Brief.Blocks); got != "Hero: Map · Form: Name, email" || pg.Brief.SEOTitle != "Contact Acme | Tools since 1987" {
		t.Errorf("saved %q, %q", got, pg.Brief.SEOTitle)
	}
}

// TestBrowserContentView ticks Content in the diagram's controls: the
// cards list their blocks, and the download links carry the choice.
func TestBrowserContentView(t *testing.T) {
	ctx, base, db := browser(t)
	pid, _ := (&client{t: t, db: db}).fixture() // the sample plan
	tr, _ := db.Pages.Tree(context.Background(), pid)
	pricing := pageID(tr, "Pricing")
	pg, _ := db.Pages.Page(context.Background(), pricing)
	pg.Brief.Blocks = []site.Block{{Kind: "hero", Note: "Team at work"}, {Kind: "table", Note: "Three tiers"}}
	if err := db.Pages.UpdatePage(context.Background(), &pg); err != nil {
		t.Fatal(err)
	}
	node := fmt.Sprintf(`#diagram svg g.node[id="p%d"]`, pricing)
	run(t, ctx, "open the diagram",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=3", base, pid)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Click(`[data-diagram-toggle]`),
		chromedp.WaitVisible(node),
		settled(),
		waitJS(fmt.Sprintf(`!document.querySelector('%s').textContent.includes("Three tiers")`, node)),
	)
	run(t, ctx, "tick Content",
		chromedp.Click(`#diagram input[name=content]`, chromedp.ByQuery),
		waitJS(fmt.Sprintf(`(document.querySelector('%s')?.textContent || "").includes("Table — Three tiers")`, node)),
		waitJS(`[...document.querySelectorAll("#diagram a[download]")].every(a => a.href.includes("content=1"))`),
	)
	screenshot(t, ctx, "content-view.png")
	noProblems(t, ctx, "content view")
}

// TestBrowserApproveFromList: a client on a share link opens the
// versions list from the review view and approves a version there,
// typing their name; the list says so and shows the sign-off.
func TestBrowserApproveFromList(t *testing.T) {
	owner, base, db := browser(t)
	bg := context.Background()
	pid, _ := (&client{t: t, db: db}).fixture() // the sample plan
	if _, err := db.History.CreateVersion(site.WithViewer(bg, site.Viewer{UserID: 1, Name: "Olive Owner"}), pid, "Client review"); err != nil {
		t.Fatal(err)
	}
	l := site.ShareLink{ProjectID: pid, Role: site.ShareComment, Label: "Client"}
	token, err := db.Sharing.CreateShareLink(bg, &l)
	if err != nil {
		t.Fatal(err)
	}
	client := otherBrowser(t, owner)
	run(t, client, "open the versions from the review",
		chromedp.Navigate(base+"/s/"+token),
		chromedp.WaitVisible(`main.review`),
		clickAt(`.review-versions`),
		chromedp.WaitVisible(`.version .quick-approve`),
	)
	run(t, client, "approve from the list",
		chromedp.SendKeys(`.version .quick-approve input[name=name]`, "Carla Client", chromedp.ByQuery),
		clickAt(`.version .quick-approve button`),
		waitJS(`document.getElementById("approved-notice")?.textContent.includes("your approval is recorded")`),
		waitJS(`[...document.querySelectorAll(".version .signoff")].some(s => s.textContent.includes("Carla Client") && s.textContent.includes("the whole plan"))`),
	)
	noProblems(t, client, "approve from the list")
	if vs, _ := db.History.Versions(bg, pid); len(vs) != 1 || len(vs[0].Approvals) != 1 || vs[0].Approvals[0].Name != "Carla Client" {
		t.Errorf("approvals %+v", vs)
	}
}

// TestBrowserMention: Olive types "@An" in a comment, takes Ana from the
// list with Enter and comments; Ana's top bar counts it, her inbox has
// it, and it leads to the page.
func TestBrowserMention(t *testing.T) {
	owner, base, db := browser(t)
	bg := context.Background()
	addUser(t, db, "ana@test.example", "Ana Editor", "1", site.RoleEditor)
	pid, _ := (&client{t: t, db: db}).fixture() // the sample plan
	tr, _ := db.Pages.Tree(bg, pid)
	pricing := pageID(tr, "Pricing")
	run(t, owner, "mention Ana in a comment",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/pages/%d", base, pid, pricing)),
		chromedp.WaitVisible(`#f-body`),
		settled(),
		chromedp.SendKeys(`#f-body`, "Can you check the tiers, @An", chromedp.ByQuery),
		waitJS(`[...document.querySelectorAll(".mention-list li")].map(li => li.textContent).join("|") === "Ana Editor"`),
		chromedp.KeyEvent(kb.Enter),
		waitJS(`document.getElementById("f-body").value === "Can you check the tiers, @Ana Editor "`),
		// A space typed after the name, as a hand does, is the one the
		// name brought: one space, never two.
		chromedp.SendKeys(`#f-body`, " ?", chromedp.ByQuery),
		waitJS(`document.getElementById("f-body").value === "Can you check the tiers, @Ana Editor ?"`),
		chromedp.Click(`#comments form.comment-form button[type=submit]`, chromedp.ByQuery),
		waitJS(`document.getElementById("comments")?.textContent.includes("@Ana Editor ?")`),
	)
	noProblems(t, owner, "mention")
	ana := otherBrowser(t, owner)
	loginBrowser(t, ana, base, "ana@test.example")
	run(t, ana, "Ana's inbox",
		waitJS(`document.getElementById("unread-count")?.textContent === "1"`),
		clickAt(`#inbox-link`),
		waitJS(`document.querySelector("#notices li.unread a")?.textContent.startsWith("Olive Owner mentioned you on “Pricing” in Acme relaunch")`),
	)
	screenshot(t, ana, "inbox.png")
	run(t, ana, "open the notification",
		clickAt(`#notices li a`),
		waitJS(fmt.Sprintf(`location.pathname === "/projects/%d/pages/%d"`, pid, pricing)),
		waitJS(`!document.getElementById("unread-count")`),
	)
	noProblems(t, ana, "inbox")
}
