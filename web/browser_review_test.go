package web

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
)

// TestBrowserReview opens a plan through share links on a 1280x720
// laptop: the diagram comes first, a click on a page shows its card with
// the comment box in view, the client comments and replies but is never
// offered to resolve, the outline reads but does not edit, and a view
// link shows no box at all.
func TestBrowserReview(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	pid, ids := (&client{t: t, db: db}).fixture() // the sample plan, its page IDs by title
	pricing := ids["Pricing"]
	pg, _ := db.Pages.Page(bg, pricing)
	pg.Notes, pg.Type = "Monthly and yearly plans side by side.", "landing"
	pg.Brief = site.Brief{H1: "Plans for every team", Blocks: []site.Block{{Kind: "table", Note: "Three plans side by side"}}}
	if err := db.Pages.UpdatePage(bg, &pg); err != nil {
		t.Fatal(err)
	}
	// The agency's brand, which the client's review carries.
	var logo bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 120, 40))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{15, 118, 110, 255}}, image.Point{}, draw.Src)
	png.Encode(&logo, img)
	if err := db.Themes.SetTeamTheme(bg, 1, site.Theme{Accent: "#0f766e", Agency: "Northwind Studio", Logo: logo.Bytes()}); err != nil {
		t.Fatal(err)
	}
	team := site.Comment{ProjectID: pid, PageID: pricing, Author: "Olive Owner", UserID: 1, Body: "Three tiers, as agreed?"} // the owner browser() logs in
	if err := db.Comments.AddComment(bg, &team, 0); err != nil {
		t.Fatal(err)
	}
	link := func(role string) string {
		l := site.ShareLink{ProjectID: pid, Role: role, Label: "Client"}
		token, err := db.Sharing.CreateShareLink(bg, &l)
		if err != nil {
			t.Fatal(err)
		}
		return base + "/s/" + token
	}
	shape := shapeOf(db, pid)
	node := fmt.Sprintf(`#diagram svg g[id="p%d"], #diagram svg g[id="a_p%d"]`, pricing, pricing)

	// The owner makes the client's link on the share page and copies it.
	run(t, ctx, "the share page", chromedp.EmulateViewport(1280, 720),
		chromedp.ActionFunc(func(ctx context.Context) error {
			for _, name := range []string{"clipboard-read", "clipboard-write"} {
				err := cdpbrowser.SetPermission(&cdpbrowser.PermissionDescriptor{Name: name}, cdpbrowser.PermissionSettingGranted).WithOrigin(base).Do(ctx)
				if err != nil {
					return err
				}
			}
			return nil
		}),
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/sharing", base, pid)),
		chromedp.WaitVisible(`form.share-form`))
	var squeezed []string
	run(t, ctx, "labels fit", chromedp.Evaluate(`[...document.querySelectorAll('form.share-form label, form.share-form button, form.share-form select')].filter(e => {
		if (e.tagName !== 'SELECT') {
			const lh = parseFloat(getComputedStyle(e).lineHeight) || 20;
			return e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().height > 2.2 * lh;
		}
		// A select clips its text: measure its longest option beside it, plus the arrow.
		const span = document.createElement('span');
		span.style.font = getComputedStyle(e).font;
		span.style.whiteSpace = 'pre';
		document.body.append(span);
		const widest = Math.max(...[...e.options].map(o => { span.textContent = o.text; return span.getBoundingClientRect().width; }));
		span.remove();
		return widest + 28 > e.clientWidth;
	}).map(e => e.tagName + ' ' + e.textContent.trim())`, &squeezed))
	if len(squeezed) > 0 {
		t.Errorf("the share form squeezes %q", squeezed)
	}
	var shared, copied, button string
	run(t, ctx, "create and copy a comment link",
		chromedp.SendKeys(`#f-share-label`, "Carla at Acme"),
		chromedp.SetValue(`#f-share-role`, "comment"),
		chromedp.Click(`input[name=statuses][value=planned]`), // the client sees where pages stand
		chromedp.Click(`form.share-form button[type=submit]`),
		chromedp.WaitVisible(`#new-share`),
		chromedp.Value(`#new-share`, &shared),
		chromedp.Click(`[data-copy="new-share"]`),
		waitJS(`document.querySelector('[data-copy="new-share"]').textContent === 'Copied'`),
		chromedp.Text(`[data-copy="new-share"]`, &button),
		chromedp.Evaluate(`navigator.clipboard.readText()`, &copied, awaitPromise),
	)
	if copied != shared || !strings.Contains(shared, "/s/") {
		t.Errorf("Copy put %q on the clipboard, want the new link %q", copied, shared)
	}
	screenshot(t, ctx, "share.png")

	client := otherBrowser(t, ctx)
	run(t, client, "the client opens the comment link on a laptop",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(shared),
		chromedp.WaitVisible(`main.review #diagram svg`),
		settled(),
		// The brand: the logo loaded, the agency named, the accent applied.
		waitJS(`(() => { const i = document.querySelector('#review-brand img'); return i && i.complete && i.naturalWidth === 120; })()`),
		waitJS(`document.querySelector('#review-brand .agency')?.textContent.trim() === 'Northwind Studio'`),
		waitJS(`getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() === '#0f766e'`),
	)
	// The diagram opens readable: fitted to the main tree, its titles
	// at a size people read, every card of it in view.
	var read struct {
		Title  float64 // the tallest text of the Home card, on screen
		InView bool    // every card of the main tree
	}
	run(t, client, "read the diagram", chromedp.Evaluate(fmt.Sprintf(`(() => {
		const c = document.querySelector('#diagram .diagram-canvas').getBoundingClientRect();
		const cards = %s.map(id => document.querySelector('#diagram svg g.node#p' + id));
		return {
			Title: Math.max(...[...cards[0].querySelectorAll('text')].map(t => t.getBoundingClientRect().height)),
			InView: cards.every(g => { const r = g.getBoundingClientRect(); return r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= Math.min(c.bottom, innerHeight) + 1; }),
		};
	})()`, mainTree(ids)), &read))
	t.Logf("the review's diagram at 1280×720: title %.1f px, the main tree in view %v", read.Title, read.InView)
	if read.Title < 11 || !read.InView {
		t.Errorf("the diagram does not open readable: %+v", read)
	}
	var first struct{ DiagramLeft, DiagramTop, CardLeft float64 }
	run(t, client, "measure", chromedp.Evaluate(`(() => {
		const d = document.getElementById('diagram').getBoundingClientRect(), c = document.getElementById('details').getBoundingClientRect();
		return {DiagramLeft: d.left, DiagramTop: d.top, CardLeft: c.left};
	})()`, &first))
	if first.DiagramLeft > first.CardLeft || first.DiagramTop > 200 {
		t.Errorf("the diagram is not first: %+v", first)
	}
	// The client view has none of the agency's internals: the diagram is
	// the client version (no assignee, "Ana" of Team), the downloads are
	// the pictures for people.
	var internals struct {
		Assignee bool
		Links    string
		Controls int
	}
	run(t, client, "look for internals", chromedp.Evaluate(`({
		Assignee: document.querySelector('#diagram svg').textContent.includes('Ana'),
		Links: [...document.querySelectorAll('#diagram .downloads a')].map(a => a.textContent).join(' '),
		Controls: document.querySelectorAll('#diagram input[name=client], #diagram select[name=scale]').length,
	})`, &internals))
	if internals.Assignee || internals.Links != "PDF PNG" || internals.Controls != 0 {
		t.Errorf("the client view shows internals: %+v", internals)
	}
	screenshot(t, client, "review.png")

	run(t, client, "click Pricing in the diagram",
		clickAt(node),
		waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, pricing)),
		chromedp.WaitVisible(`#comments form.comment-form`),
	)
	var card string
	var boxBottom float64
	var fields int
	run(t, client, "read the card",
		chromedp.Text(`#details-inner`, &card),
		chromedp.Evaluate(`document.querySelector('#comments form.comment-form button[type=submit]').getBoundingClientRect().bottom`, &boxBottom),
		chromedp.Evaluate(`[...document.querySelectorAll('#details input:not([type=hidden]), #details select, #details textarea')].filter(f => f.name !== 'author' && f.name !== 'body').length`, &fields),
	)
	for _, want := range []string{"Pricing", "https://www.acme.example/produkte/pricing", "landing", "planned", "Plans for every team", "Three plans side by side", "Three tiers, as agreed?"} {
		if !strings.Contains(card, want) {
			t.Errorf("the card does not show %q:\n%s", want, card)
		}
	}
	if strings.Contains(card, "Monthly and yearly plans side by side.") {
		t.Errorf("the card shows the team's notes:\n%s", card)
	}
	if boxBottom > 720 {
		t.Errorf("the comment box ends at y=%g, below the fold of a 720 px screen", boxBottom)
	}
	if fields != 0 {
		t.Errorf("the card has %d fields besides the name and comment boxes", fields)
	}
	screenshot(t, client, "review-card.png")

	run(t, client, "comment and reply",
		chromedp.SendKeys(`#f-author`, "Carla Client"),
		chromedp.SendKeys(`#f-body`, "Could we show yearly prices?"),
		chromedp.Click(`#comments form.comment-form button[type=submit]`),
		waitJS(`document.getElementById("comments").textContent.includes("Could we show yearly prices?")`),
		chromedp.Click(fmt.Sprintf(`#comment-%d details.reply summary`, team.ID)),
		chromedp.SendKeys(fmt.Sprintf(`#comment-%d details.reply textarea`, team.ID), "Yes, three."),
		chromedp.Click(fmt.Sprintf(`#comment-%d details.reply button[type=submit]`, team.ID)),
		waitJS(fmt.Sprintf(`document.getElementById("comment-%d").textContent.includes("Yes, three.")`, team.ID)),
	)
	// A page with no open thread yet: its first comment has no count in
	// the outline to update (the review's outline is not loaded), and
	// nothing is logged for it.
	contact := ids["Team"] // below the levels the review's outline loads
	run(t, client, "the first comment on a page without threads",
		clickAt(fmt.Sprintf(`#diagram svg g[id="p%d"], #diagram svg g[id="a_p%d"]`, contact, contact)),
		waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, contact)),
		chromedp.WaitVisible(`#comments form.comment-form`),
		settled(),
		chromedp.SendKeys(`#f-body`, "Is the phone number still right?"),
		chromedp.Click(`#comments form.comment-form button[type=submit]`),
		waitJS(`document.getElementById("comments").textContent.includes("Is the phone number still right?")`),
		settled(),
	)
	noProblems(t, client, "a client's first comment on a page")
	run(t, client, "back to Pricing",
		clickAt(node),
		waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, pricing)),
	)
	var resolvers int
	run(t, client, "no resolve", chromedp.Evaluate(`[...document.querySelectorAll('#comments button')].filter(b => /Resolve|Reopen/.test(b.textContent)).length`, &resolvers))
	if resolvers != 0 {
		t.Errorf("the client is offered %d Resolve/Reopen buttons", resolvers)
	}
	threads, _ := db.Comments.Comments(bg, pricing)
	if len(threads) != 2 || len(threads[0].Replies) != 1 || threads[0].Replies[0].Author != "Carla Client" {
		t.Errorf("stored threads %+v, want the team's with Carla's reply and Carla's own", threads)
	}

	run(t, client, "the outline tab reads but does not edit",
		clickAt(`#tab-outline`),
		chromedp.WaitVisible(`#outline.read-only`),
		waitJS(`document.getElementById('diagram').hidden`),
		chromedp.Focus(fmt.Sprintf(`#title-%d`, ids["Products"])),
		chromedp.KeyEvent(kb.Enter),
		chromedp.KeyEvent("x"),
		chromedp.KeyEvent(kb.Delete),
	)
	var drafts int
	run(t, client, "nothing to edit", chromedp.Evaluate(`document.querySelectorAll('#outline input, #outline li.draft, #outline .handle, #row-menu').length`, &drafts))
	if drafts != 0 {
		t.Errorf("keys in the client's outline opened %d fields or drafts", drafts)
	}
	if got := shapeOf(db, pid); got != shape {
		t.Errorf("keys in the client's outline changed the tree to %s", got)
	}
	run(t, client, "back to the diagram", clickAt(`#tab-diagram`), chromedp.WaitVisible(`#diagram svg`))
	noProblems(t, client, "a client's review")

	// The team mentions Carla: her notice names the thread's page right
	// after its sentence, not at the far end of the row.
	ask := site.Comment{ProjectID: pid, PageID: ids["Team"], Author: "Olive Owner", UserID: 1, Body: "@Carla Client, is this the team you mean?"}
	if err := db.Comments.AddComment(bg, &ask, 0); err != nil {
		t.Fatal(err)
	}
	var gap float64
	run(t, client, "the mention's notice",
		chromedp.Reload(),
		chromedp.WaitVisible(`#mentions-notice a`),
		chromedp.Evaluate(`(() => {
			const n = document.getElementById('mentions-notice'), a = n.querySelector('a');
			const r = document.createRange();
			r.setStart(n.querySelector('a').parentNode.firstChild, 0);
			r.setEndBefore(a);
			const words = [...r.getClientRects()].pop();
			return a.getBoundingClientRect().left - words.right;
		})()`, &gap),
	)
	if gap < 0 || gap > 12 {
		t.Errorf("the thread's link is %.0f px from its sentence", gap)
	}

	reader := otherBrowser(t, ctx)
	run(t, reader, "a view link",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(link(site.ShareView)),
		chromedp.WaitVisible(`main.review #diagram svg`),
		settled(),
		clickAt(node),
		waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, pricing)),
		waitJS(`document.getElementById("comments").textContent.includes("Yes, three.")`),
	)
	run(t, reader, "no boxes", chromedp.Evaluate(`document.querySelectorAll('#details form, #details textarea').length`, &fields))
	if fields != 0 {
		t.Errorf("a view link's card has %d forms or boxes, want none", fields)
	}
	noProblems(t, reader, "a view link's review")
}

// mainTree lists, as a JavaScript array, the ids of the sample plan's
// main tree, Home first.
func mainTree(ids map[string]int64) string {
	var out []string
	for _, title := range []string{"Home", "About us", "Team", "Products", "Pricing", "Later", "Blog", "Contact"} {
		out = append(out, strconv.FormatInt(ids[title], 10))
	}
	return "[" + strings.Join(out, ",") + "]"
}
