package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/chromedp/cdproto/accessibility"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/internal/sitegen"
	"siteplan/jobs"
	"siteplan/site"
	"siteplan/static"
	"siteplan/store"
)

const chromiumPath = "/usr/bin/chromium"

// browser starts the real app on a test server and a headless Chromium.
// Without Chromium the test skips, except in CI where it fails.
func browser(t testing.TB) (context.Context, string, *store.Store) {
	t.Helper()
	return browserWith(t, nil)
}

// browserWith is browser with setup run on the server before it serves.
func browserWith(t testing.TB, setup func(*Server)) (context.Context, string, *store.Store) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s is missing: install Debian's chromium package", chromiumPath)
		}
		t.Skipf("browser tests skipped: %s not found (apt-get install chromium)", chromiumPath)
	}
	for _, f := range []string{"vendor/htmx.min.js", "dist/app.js"} {
		if _, err := static.FS.Open(f); err != nil {
			t.Fatalf("static/%s is missing: run make static (npm ci, esbuild) before the browser tests", f)
		}
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "browser.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	addUser(t, db, "olive@test.example", "Olive Owner", "1", site.RoleOwner)
	srv := New(partsOf(db), static.FS, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{})
	if setup != nil {
		setup(srv)
	}
	ts := httptest.NewServer(srv.Echo)
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close) // end event streams before the server closes
	runJobs(t, db, srv, jobs.Config{AllowPrivate: true})
	// Chromium may still write to its profile for a moment after it is
	// told to exit, so the profile is removed by hand, after the browser.
	profile, err := os.MkdirTemp("", "siteplan-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 1000),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelT()
		cancelC()
		cancelA()
		os.RemoveAll(profile)
	})
	watchProblems(t, ctx)
	loginBrowser(t, ctx, ts.URL, "olive@test.example")
	return ctx, ts.URL, db
}

// problemWatch is run in every document before its own scripts: it
// records content-security-policy violations and uncaught errors.
const problemWatch = `window.__problems = [];
document.addEventListener("securitypolicyviolation", (e) => __problems.push("CSP " + e.violatedDirective + " at " + e.sourceFile + ":" + e.lineNumber + " " + e.sample));
window.addEventListener("error", (e) => __problems.push("error: " + e.message + " at " + e.filename + ":" + e.lineno));
window.addEventListener("unhandledrejection", (e) => __problems.push("unhandled rejection: " + e.reason));
document.addEventListener("htmx:oobErrorNoTarget", (e) => __problems.push("htmx:oobErrorNoTarget #" + e.detail.content?.id));
// The trail is what a failed step prints (run): the last clicks and
// requests, to tell a lost click from a failed or dropped request.
window.__trail = [];
const trail = (s) => { __trail.push(Math.round(performance.now()) + " " + s); if (__trail.length > 40) __trail.shift(); };
document.addEventListener("click", (e) => trail("click " + (e.target.id || e.target.className || e.target.tagName)), true);
for (const ev of ["htmx:beforeRequest", "htmx:afterRequest", "htmx:responseError", "htmx:sendError", "htmx:afterSwap"]) {
  document.addEventListener(ev, (e) => trail(ev + " " + (e.detail.requestConfig?.verb || "") + " " + (e.detail.pathInfo?.requestPath || "") + " " + (e.detail.xhr?.status ?? "") + " -> " + (e.detail.target?.id || "")));
}`

// watchProblems installs problemWatch in every document the tab opens.
func watchProblems(t testing.TB, ctx context.Context) {
	t.Helper()
	run(t, ctx, "watch for page problems", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(problemWatch).Do(ctx)
		return err
	}))
}

// noProblems fails the test if the current document has logged a CSP
// violation, an uncaught error, or an out-of-band swap without a target.
func noProblems(t testing.TB, ctx context.Context, step string) {
	t.Helper()
	var problems []string
	run(t, ctx, "read page problems", chromedp.Evaluate(`window.__problems || ["the tab is not watched for problems (watchProblems)"]`, &problems))
	if len(problems) > 0 {
		t.Errorf("%s: the page logged:\n%s", step, strings.Join(problems, "\n"))
	}
}

// loginBrowser logs a browser tab in through the login form.
func loginBrowser(t testing.TB, ctx context.Context, base, email string) {
	t.Helper()
	run(t, ctx, "log in as "+email,
		chromedp.Navigate(base+"/login"),
		chromedp.WaitVisible(`#login-form`),
		chromedp.SendKeys(`#f-email`, email),
		chromedp.SendKeys(`#f-password`, testPassword),
		chromedp.Click(`#login-form button[type=submit]`),
		chromedp.WaitVisible(`.account`),
	)
}

// otherBrowser opens a tab in a new browser context of ctx's browser:
// its own cookies, as a second person's browser would have.
// The tab is opened in a new window by hand: chromedp's own
// WithNewBrowserContext asks headless Chromium for a tab in a context
// that has no window yet, which it refuses ("no browser is open").
func otherBrowser(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	exec := cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Browser)
	bc, err := target.CreateBrowserContext().WithDisposeOnDetach(true).Do(exec)
	if err != nil {
		t.Fatal(err)
	}
	id, err := target.CreateTarget("about:blank").WithBrowserContextID(bc).WithNewWindow(true).Do(exec)
	if err != nil {
		t.Fatal(err)
	}
	octx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
	t.Cleanup(func() {
		cancel()
		_ = target.DisposeBrowserContext(bc).Do(exec)
	})
	watchProblems(t, octx)
	return octx
}

func run(t testing.TB, ctx context.Context, step string, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		var state string
		// Not ctx's clock, which a step that waited its whole budget has
		// used up: the state is what tells why.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = chromedp.Run(dctx, chromedp.Evaluate(`location.href + "\n" + (document.getElementById("flash")||{}).innerHTML + "\n" + (window.__trail||[]).join("\n") + "\n" + (document.getElementById("details")||document.body).outerHTML.slice(-2500)`, &state))
		t.Fatalf("%s: %v\npage state: %s", step, err, state)
	}
}

// clickAt clicks with the mouse where the element sel is, once a click
// there would reach it, as a person clicks what they see. Unlike
// chromedp.Click it finds the element anew each time it looks, so a live
// reload that replaces the element does not leave the click waiting on a
// node that is gone; and it waits until the element is hit at that point
// (a row that has just come is placed when the page is next laid out).
// If the page moved between the
// look and the click (a live update, the viewers' bar coming in), so
// that the click reached something else, it looks and clicks again.
func clickAt(sel string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		// Not before the page has its styles and fonts: a button placed
		// without them moves when they come, and the click misses it.
		find := fmt.Sprintf(`(() => { const e = document.querySelector(%[1]s); if (!e || !e.getClientRects().length || document.readyState !== "complete" || document.fonts.status !== "loaded") return false;
			e.scrollIntoView({block: "nearest"}); const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
			if (!e.contains(document.elementFromPoint(x, y))) return false;
			window.__clickReached = false; // the next click says whether it reached sel (a new document: it left, so it did)
			document.addEventListener("click", (ev) => { window.__clickReached = !!ev.target.closest?.(%[1]s); }, {capture: true, once: true});
			return {X: x, Y: y}; })()`, strconv.Quote(sel))
		for {
			if err := waitJS("!!" + find).Do(ctx); err != nil {
				return err
			}
			var p *struct{ X, Y float64 }
			if err := chromedp.Evaluate(find+` || null`, &p).Do(ctx); err != nil {
				return err
			}
			if p == nil {
				continue // it moved since: look again
			}
			if err := chromedp.MouseClickXY(p.X, p.Y).Do(ctx); err != nil {
				return err
			}
			var reached bool
			err := chromedp.Evaluate(`window.__clickReached !== false`, &reached).Do(ctx)
			if left(err) {
				return nil // the click opened another page while it was asked: it reached
			}
			if err != nil || reached {
				return err
			}
		}
	})
}

// left reports whether err says the tab's document was left while
// the browser was asked something (a navigation the step started).
func left(err error) bool {
	var e *cdproto.Error
	return errors.As(err, &e) && strings.Contains(e.Message, "navigated or closed")
}

// titleSel finds an outline title by its text.
func titleSel(title string) string {
	return `//a[contains(@class,"title")][normalize-space(.)="` + title + `"]`
}

// titleShown waits until the outline shows a title.
func titleShown(title string) chromedp.Action {
	return waitJS(`[...document.querySelectorAll('#outline a.title')].some(a => a.textContent === ` + strconv.Quote(title) + `)`)
}

// settled waits until htmx has swapped and processed new content, as a
// person is slower than htmx's settle delay.
func settled() chromedp.Action {
	return waitJS(scriptReady + ` && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')`)
}

// scriptReady is true once the page's script has wired every behaviour
// (main.js says so last): a press before that would go unheard.
const scriptReady = `document.documentElement.dataset.script === "ready"`

// waitJS evaluates expr until it is true, within the test's budget (the
// browser context's deadline): a busy machine makes a state come later,
// never wrong, so no step has a shorter clock of its own.
func waitJS(expr string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var ok bool
		var err error
		start := time.Now()
		for ctx.Err() == nil {
			if err = chromedp.Evaluate(expr, &ok).Do(ctx); err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond): // the next look at a state the page reaches by itself
			}
		}
		return fmt.Errorf("waited %s, the test's budget, for %s (last error: %v)", time.Since(start).Round(time.Second), expr, err)
	})
}

// titleField is the outline's title field, where a new or renamed
// page's title is typed.
const titleField = `#outline input.title-field`

const fieldFocused = `!!document.activeElement?.matches('#outline input.title-field')`

// renamedSelected waits for a rename committed with Enter: the page's
// title shows the new words and has the keyboard, and no new row was
// started under it.
func renamedSelected(title string) chromedp.Action {
	return waitJS(fmt.Sprintf(`document.activeElement?.matches('#outline a.title') && document.activeElement.textContent === %q && !document.querySelector('#outline li.draft, #outline input.title-field')`, title))
}

// addRoot adds a main page through the outline and names it.
func addRoot(t *testing.T, ctx context.Context, title string) {
	t.Helper()
	run(t, ctx, "add "+title,
		waitJS(scriptReady),
		chromedp.Click(`//button[contains(., "Add Main page")]`, chromedp.BySearch),
		waitJS(fieldFocused),
		chromedp.SendKeys(titleField, title+kb.Enter),
		// Enter saved it and opened the next row: Escape drops that.
		waitJS(fieldFocused+` && document.activeElement.value === ""`),
		chromedp.KeyEvent(kb.Escape),
		titleShown(title),
	)
}

func TestBrowserEditor(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()

	run(t, ctx, "create project",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`#create-project`),
		chromedp.SendKeys(`#f-name`, "Browser plan"),
		chromedp.SendKeys(`#f-base_url`, "https://browser.example"),
		chromedp.Click(`#create-project button[type=submit]`),
		chromedp.WaitVisible(`#outline`),
	)
	var h1 string
	run(t, ctx, "read heading", chromedp.Text(`h1`, &h1))
	if h1 != "Browser plan" {
		t.Fatalf("editor heading = %q", h1)
	}
	projects, _ := db.Projects.Projects(bg, 1)
	if len(projects) != 1 {
		t.Fatalf("projects after create = %d", len(projects))
	}
	pid := projects[0].ID

	addRoot(t, ctx, "Products")
	addRoot(t, ctx, "Pricing")

	t.Run("drag a page under another and reload", func(t *testing.T) {
		from := pressHandle(t, ctx, "Pricing")
		to := rowPoint(t, ctx, "Products", 0.5)
		moveTo(t, ctx, from, to)
		run(t, ctx, "the target shows", waitJS(dropShown+` === 'inside:Products'`))
		release(t, ctx, to)
		waitFor(t, func() bool {
			return shapeOf(db, pid) == "Home Products(Pricing)"
		}, "the move to reach the server; the tree is "+shapeOf(db, pid))
		run(t, ctx, "the move's answer is handled, then the outline reloads", settled(),
			chromedp.SetValue(`.toolbar select[name=level]`, "3"),
			chromedp.Evaluate(`document.querySelector('.toolbar select[name=level]').dispatchEvent(new Event('change', {bubbles: true}))`, nil),
			settled())
		noProblems(t, ctx, "drag and drop, then an outline reload")
		run(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(`#outline`))
		var nested string
		run(t, ctx, "read tree", chromedp.Evaluate(`(() => {
			const li = [...document.querySelectorAll('#roots-main > li')].find(li => li.querySelector('.title').textContent === 'Products');
			return [...li.querySelectorAll(':scope > ul.children > li > .row .title')].map(a => a.textContent).join(',');
		})()`, &nested))
		if nested != "Pricing" {
			t.Fatalf("after drag and reload, Products has children %q, want Pricing", nested)
		}
	})

	t.Run("rename in place", func(t *testing.T) {
		run(t, ctx, "rename",
			settled(),
			chromedp.Focus(titleSel("Pricing"), chromedp.BySearch),
			chromedp.KeyEvent(kb.F2),
			waitJS(fieldFocused),
			chromedp.SetValue(titleField, "Plans & pricing"),
			chromedp.SendKeys(titleField, kb.Enter),
			// Enter saves a rename and leaves the page selected: no new row.
			renamedSelected("Plans & pricing"), // at once: the outline shows a rename before it is saved
		)
		waitFor(t, func() bool {
			tr, _ := db.Pages.Tree(bg, pid)
			found := false
			tr.Walk(func(p *site.Page, _ int) bool {
				found = found || p.Title == "Plans & pricing" && p.Slug == "plans-and-pricing"
				return true
			})
			return found
		}, "the rename to reach the database with a derived slug")
	})

	t.Run("keyboard indent", func(t *testing.T) {
		addRoot(t, ctx, "Contact")
		run(t, ctx, "indent Contact under Products",
			settled(),
			chromedp.Focus(titleSel("Contact"), chromedp.BySearch),
			chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(input.ModifierAlt)),
			// The move changed Contact's URL, and says so, as a rename does.
			waitJS(`(document.querySelector('#url-notices .url-notice')?.textContent || '').includes('Moved “Contact”: its URL changed')`),
		)
		var keep string
		run(t, ctx, "the notice offers the old URL", chromedp.Text(`#url-notices #keep-url`, &keep))
		if strings.TrimSpace(keep) != "Keep the old URL" {
			t.Errorf("the move's notice offers %q", keep)
		}
		waitFor(t, func() bool {
			tr, _ := db.Pages.Tree(bg, pid)
			for _, c := range tr.Roots(site.PlacementMain) {
				if c.Title == "Products" {
					kids := tr.Children(c.ID)
					return len(kids) == 2 && kids[1].Title == "Contact"
				}
			}
			return false
		}, "Contact to become the last child of Products")
	})

	t.Run("keyboard move up and outdent", func(t *testing.T) {
		run(t, ctx, "move Contact up", settled(),
			chromedp.Focus(titleSel("Contact"), chromedp.BySearch),
			chromedp.KeyEvent(kb.ArrowUp, chromedp.KeyModifiers(input.ModifierAlt)))
		waitFor(t, func() bool { return shapeOf(db, pid) == "Home Products(Contact Plans & pricing)" },
			"Contact to move above Plans & pricing")
		run(t, ctx, "outdent Contact", settled(),
			chromedp.Focus(titleSel("Contact"), chromedp.BySearch),
			chromedp.KeyEvent(kb.ArrowLeft, chromedp.KeyModifiers(input.ModifierAlt)))
		waitFor(t, func() bool { return shapeOf(db, pid) == "Home Products(Plans & pricing) Contact" },
			"Contact to become the root after Products")
	})

	t.Run("collapse and expand", func(t *testing.T) {
		visible := `document.querySelector('#title-' + [...document.querySelectorAll('#outline a.title')].find(a => a.textContent === 'Plans & pricing').id.slice(6)).offsetParent !== null`
		toggle := `//li[.//a[normalize-space(.)="Products"]][1]/div[@class="row"]/button[@data-toggle]`
		run(t, ctx, "collapse", settled(), chromedp.Click(toggle, chromedp.BySearch), waitJS("!("+visible+")"))
		run(t, ctx, "expand", chromedp.Click(toggle, chromedp.BySearch), waitJS(visible))
	})

	t.Run("add a cross-link", func(t *testing.T) {
		run(t, ctx, "link",
			chromedp.Click(titleSel("Products"), chromedp.BySearch),
			chromedp.WaitVisible(`#link-search`),
			settled(),
			chromedp.SendKeys(`#link-label`, "compare"),
			chromedp.SendKeys(`#link-search`, "plans"),
			// The search's answer, not the list the field's focus asked for.
			waitJS(`(() => { const p = [...document.querySelectorAll('#link-picker button.pick')]; return p.some(b => b.firstChild.textContent.trim() === 'Plans & pricing') && p.every(b => /plan/i.test(b.textContent)); })()`),
			settled(),
			pointTo(`[...document.querySelectorAll('#link-picker button.pick')].find(b => b.firstChild.textContent.trim() === 'Plans & pricing')`),
			chromedp.Click(`//ul[@id="link-picker"]//button[starts-with(normalize-space(.), "Plans & pricing")]`, chromedp.BySearch),
			waitJS(`document.getElementById('links-out').textContent.includes('Plans & pricing')`),
		)
		links, _ := db.Links.Links(bg, pid)
		if len(links) != 1 || links[0].FromTitle != "Products" || links[0].ToTitle != "Plans & pricing" || links[0].Label != "compare" {
			t.Errorf("links = %+v", links)
		}
	})

	t.Run("paste an outline under the selected page", func(t *testing.T) {
		const shownTitles = `[...document.querySelectorAll('#outline a.title')].filter(a => a.offsetParent !== null).map(a => a.textContent)`
		var before, after []string
		run(t, ctx, "the paste dialog takes the keyboard; Esc gives it back",
			chromedp.Click(`//button[normalize-space(.)="Paste outline"]`, chromedp.BySearch),
			waitJS(`document.activeElement?.matches("#dialog dialog[open] textarea[name=outline]")`),
			chromedp.KeyEvent(kb.Escape),
			waitJS(`!document.querySelector("#dialog dialog") && document.activeElement?.textContent.trim() === "Paste outline"`),
		)
		run(t, ctx, "paste",
			chromedp.Click(`//button[normalize-space(.)="Paste outline"]`, chromedp.BySearch),
			chromedp.WaitVisible(`#dialog textarea[name=outline]`),
			settled(),
			chromedp.SetValue(`#dialog textarea[name=outline]`, "About\n\tTeam\n\tJobs\nBlog"),
			chromedp.Click(`//button[normalize-space(.)="Add pages"]`, chromedp.BySearch),
			titleShown("Jobs"),
		)
		var shape string
		run(t, ctx, "read", chromedp.Evaluate(`(() => {
			const li = [...document.querySelectorAll('#outline li.node')].find(li => li.querySelector(':scope > .row .title').textContent === 'About');
			const parent = li.parentElement.closest('li.node').querySelector(':scope > .row .title').textContent;
			return parent + ' > ' + [...li.querySelectorAll(':scope > ul.children .title')].map(a => a.textContent).join(',');
		})()`, &shape))
		if shape != "Products > Team,Jobs" { // Products was selected
			var h string
			chromedp.Run(ctx, chromedp.Evaluate(`(function d(ul){return [...ul.children].map(li => li.querySelector(':scope > .row .title').textContent + '(' + (li.querySelector(':scope > ul') ? d(li.querySelector(':scope > ul')) : '') + ')').join(' ')})(document.getElementById('roots-main'))`, &h))
			t.Log("STRUCT", h)
			t.Errorf("the pasted branch in the outline = %q, want Products > Team,Jobs", shape)
		}

		// At level 1 with Products opened by hand, a paste under Home
		// keeps Products open.
		run(t, ctx, "open Products by hand at level 1",
			chromedp.SetValue(`.toolbar select[name=level]`, "1"),
			chromedp.Evaluate(`document.querySelector('.toolbar select[name=level]').dispatchEvent(new Event('change', {bubbles: true}))`, nil),
			waitJS(`[...document.querySelectorAll('#outline li.node.collapsed > .row .title')].some(a => a.textContent === 'Products')`),
			settled(),
			chromedp.Click(`//a[contains(@class,"title")][normalize-space(.)="Products"]/../button[@data-toggle]`, chromedp.BySearch),
			titleShown("About"), settled(),
			chromedp.Evaluate(shownTitles, &before),
			chromedp.Focus(titleSel("Home"), chromedp.BySearch),
			chromedp.Click(`//button[normalize-space(.)="Paste outline"]`, chromedp.BySearch),
			chromedp.WaitVisible(`#dialog textarea[name=outline]`),
			settled(),
			chromedp.SetValue(`#dialog textarea[name=outline]`, "Careers"),
			chromedp.Click(`//button[normalize-space(.)="Add pages"]`, chromedp.BySearch),
			titleShown("Careers"), settled(),
			chromedp.Evaluate(shownTitles, &after),
		)
		for _, title := range before {
			if !slices.Contains(after, title) {
				t.Errorf("the paste closed the branch that showed %q: shown before %q, after %q", title, before, after)
			}
		}
	})
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for i := 0; i < 50; i++ {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// shapeOf renders a project's tree as "A(B C) D" for failure messages.
func shapeOf(db *store.Store, pid int64) string {
	tr, err := db.Pages.Tree(context.Background(), pid)
	if err != nil {
		return err.Error()
	}
	var render func(id int64) string
	render = func(id int64) string {
		var parts []string
		for _, p := range tr.Children(id) {
			s := p.Title
			if k := render(p.ID); k != "" {
				s += "(" + k + ")"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " ")
	}
	return render(0)
}

// TestBrowserDiagram opens the diagram beside the outline, clicks a page in
// it (a card in a stack), sees that page's details and the page marked in
// the diagram, and sees the diagram follow an edit.
func TestBrowserDiagram(t *testing.T) {
	ctx, base, db := browser(t)
	doc := acmeDoc(t)
	// A third page under Products: its pages are stacked.
	for _, c := range doc.Pages[0].Children {
		if c.Title == "Products" {
			c.Children = append(c.Children, &site.DocPage{Title: "Support"})
		}
	}
	pid, err := db.Projects.ImportDocument(context.Background(), 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(context.Background(), pid)
	var pricing int64
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Pricing" {
			pricing = p.ID
		}
		return true
	})
	node := fmt.Sprintf(`#diagram svg g.node[id="p%d"]`, pricing)
	run(t, ctx, "open the diagram",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=3", base, pid)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Click(`[data-diagram-toggle]`),
		chromedp.WaitVisible(node),
		settled(),
	)
	// Hiding Details widens the canvas: a diagram still as fitted is
	// fitted again, larger; showing them fits it back.
	scale := `(document.querySelector('#diagram svg').style.transform.match(/scale\(([\d.]+)\)/) || [])[1]`
	var fitScale string
	run(t, ctx, "read the fitted scale", chromedp.Evaluate(scale, &fitScale))
	run(t, ctx, "hide Details: the diagram fits the wider canvas",
		chromedp.Click(`[data-details-toggle]`, chromedp.ByQuery),
		waitJS(fmt.Sprintf(`Number(%s) > %s`, scale, fitScale)),
		chromedp.Click(`[data-details-toggle]`, chromedp.ByQuery),
		waitJS(fmt.Sprintf(`%s === "%s"`, scale, fitScale)),
		settled(),
	)
	run(t, ctx, "click Pricing in the diagram",
		chromedp.Click(node+" text", chromedp.ByQuery),
		waitJS(fmt.Sprintf(`document.getElementById('details-inner')?.dataset.page === "%d"`, pricing)),
		chromedp.WaitVisible(`#f-title`),
		waitJS(fmt.Sprintf(`document.querySelector('%s').classList.contains("selected") && location.hash === ""`, node)),
	)
	var title string
	run(t, ctx, "read the details", chromedp.Value(`#f-title`, &title))
	if title != "Pricing" {
		t.Fatalf("details show %q after clicking Pricing in the diagram", title)
	}
	// Zoom and pan: the view is a transform on the <svg>, set when htmx
	// has loaded a drawing.
	const canvas = `document.querySelector('#diagram .diagram-canvas')`
	run(t, ctx, "rename in the details; the diagram follows",
		chromedp.SetValue(`#f-title`, "Plans"),
		chromedp.Click(`#details button[type=submit]`),
		waitJS(fmt.Sprintf(`(document.querySelector('%s')?.textContent || "").includes("Plans")`, node)),
		settled(),
		waitJS(canvas+`?.view !== undefined`),
	)
	var k0, k1, k2 float64
	run(t, ctx, "zoom in with the button",
		chromedp.Evaluate(canvas+`.view.k`, &k0),
		chromedp.Click(`#diagram [data-zoom=in]`),
		chromedp.Evaluate(canvas+`.view.k`, &k1),
	)
	if math.Abs(k1-k0*1.25) > 1e-9 && k1 != 8 {
		t.Errorf("zoom in: scale %v, then %v; want 1.25 times", k0, k1)
	}
	var box struct{ X, Y float64 }
	run(t, ctx, "find an empty corner of the canvas",
		chromedp.Evaluate(`(() => { const r = `+canvas+`.getBoundingClientRect(); return {X: r.left + 6, Y: Math.min(r.bottom, innerHeight) - 6}; })()`, &box))
	run(t, ctx, "zoom out with the wheel",
		chromedp.ActionFunc(func(ctx context.Context) error {
			return input.DispatchMouseEvent(input.MouseWheel, box.X, box.Y).WithDeltaY(100).Do(ctx)
		}),
		chromedp.Evaluate(canvas+`.view.k`, &k2),
	)
	if k2 >= k1 {
		t.Errorf("wheel down: scale %v, then %v; want smaller", k1, k2)
	}
	var before, after struct{ X, Y float64 }
	var transform, selected string
	run(t, ctx, "drag to pan",
		chromedp.Evaluate(`({X: `+canvas+`.view.x, Y: `+canvas+`.view.y})`, &before),
		chromedp.MouseEvent(input.MousePressed, box.X, box.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, box.X+20, box.Y-10, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, box.X+40, box.Y-30, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, box.X+40, box.Y-30, chromedp.ButtonLeft),
		chromedp.Evaluate(`({X: `+canvas+`.view.x, Y: `+canvas+`.view.y})`, &after),
		chromedp.Evaluate(canvas+`.querySelector('svg').style.transform`, &transform),
		chromedp.Evaluate(`document.getElementById('details-inner').dataset.page`, &selected),
	)
	var tx, ty float64
	fmt.Sscanf(strings.ReplaceAll(transform, "px", ""), "translate(%f, %f)", &tx, &ty)
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.01 }
	if !near(after.X-before.X, 40) || !near(after.Y-before.Y, -30) || !near(tx, after.X) || !near(ty, after.Y) {
		t.Errorf("drag by (40, -30): view moved from %+v to %+v, transform %q", before, after, transform)
	}
	if selected != strconv.FormatInt(pricing, 10) {
		t.Errorf("a drag changed the selected page to %s", selected)
	}

	// Another number of levels is another drawing: it opens fitted, not
	// at the zoom of the last one.
	const fitted = `(() => { const c = ` + canvas + `, f = c.fitted; // the view the canvas's fit made
		return !!f && c.view.k === f.k && c.view.x === f.x && c.view.y === f.y; })()`
	run(t, ctx, "zoom in, then draw two levels",
		chromedp.Click(`#diagram [data-zoom=in]`),
		chromedp.Click(`#diagram [data-zoom=in]`),
		waitJS(`!(`+fitted+`)`),
		chromedp.SetValue(`#diagram select[name=depth]`, "2"),
		chromedp.Evaluate(`document.querySelector('#diagram select[name=depth]').dispatchEvent(new Event('change', {bubbles: true}))`, nil),
		waitJS(fmt.Sprintf(`!document.querySelector('%s')`, node)), // Pricing is on the third level
		settled(),
		waitJS(canvas+`?.view !== undefined`),
	)
	var isFitted bool
	run(t, ctx, "read the zoom", chromedp.Evaluate(fitted, &isFitted))
	if !isFitted {
		t.Error("after changing the levels, the diagram keeps the old zoom instead of fitting")
	}

	// Downloads: a file arrives; a failure says why on the page.
	dir := t.TempDir()
	run(t, ctx, "download the SVG",
		cdpbrowser.SetDownloadBehavior(cdpbrowser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir),
		chromedp.Click(`#diagram .downloads a[href*="/diagram/svg"]`),
		chromedp.ActionFunc(func(ctx context.Context) error {
			for ctx.Err() == nil { // until the file is whole, within the test's budget
				if b, err := os.ReadFile(filepath.Join(dir, "acme-relaunch-sitemap.svg")); err == nil && strings.Contains(string(b), "</svg>") {
					return nil
				}
				select {
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
			}
			return fmt.Errorf("no acme-relaunch-sitemap.svg in the download folder")
		}),
	)
	// The PDF asks first, then arrives as a download; the page stays.
	var where string
	run(t, ctx, "where the page is", chromedp.Location(&where))
	run(t, ctx, "download the PDF",
		chromedp.Click(`#diagram .downloads a[href*="/diagram/pdf"]`),
		chromedp.ActionFunc(func(ctx context.Context) error {
			for ctx.Err() == nil { // until the file is whole, within the test's budget
				if b, err := os.ReadFile(filepath.Join(dir, "acme-relaunch-sitemap.pdf")); err == nil && bytes.Contains(b, []byte("%%EOF")) {
					return nil
				}
				select {
				case <-ctx.Done():
				case <-time.After(50 * time.Millisecond):
				}
			}
			return fmt.Errorf("no acme-relaunch-sitemap.pdf in the download folder")
		}),
		waitJS(fmt.Sprintf(`location.href === %q && !!document.querySelector('#diagram .diagram-canvas')`, where)),
	)
	// "PDF on one sheet" sits beside the downloads, in view without
	// opening the PDF options, and carries to the PDF's address.
	run(t, ctx, "fit the PDF to one sheet beside the download",
		settled(),
		waitJS(`(() => { const i = document.querySelector('#diagram .downloads input[name=fit]'); return !!i && !i.closest('details') && i.checkVisibility() })()`),
		chromedp.Click(`#diagram .downloads input[name=fit]`),
		waitJS(`(document.querySelector('#diagram .downloads a[href*="/diagram/pdf"]')?.href || '').includes('fit=one')`),
		settled(),
	)
	// The PDF's options open in a panel over the diagram; choosing one
	// carries it to the PDF download, and the panel stays open while the
	// diagram is drawn anew, for the next choice.
	run(t, ctx, "choose portrait A3",
		settled(),
		clickAt(`#diagram .pdf-options summary`),
		waitJS(`document.querySelector('#diagram .pdf-options')?.open === true`),
		chromedp.SetValue(`#diagram select[name=orientation]`, "portrait"),
		chromedp.Evaluate(`document.querySelector('#diagram select[name=orientation]').dispatchEvent(new Event('change', {bubbles: true}))`, nil),
		waitJS(`(document.querySelector('#diagram .downloads a[href*="/diagram/pdf"]')?.href || '').includes('orientation=portrait')`),
		settled(),
	)
	var open bool
	run(t, ctx, "the PDF options after the redraw", chromedp.Evaluate(`document.querySelector('#diagram .pdf-options')?.open === true`, &open))
	if !open {
		t.Error("drawing the diagram anew closed the PDF options the visitor had open")
	}
	screenshot(t, ctx, "diagram-pdf-options.png")
	run(t, ctx, "a download that fails shows why",
		// The PDF link asks first (htmx): its address is set for both.
		chromedp.Evaluate(`(() => { const a = document.querySelector('#diagram .downloads a[href*="/diagram/pdf"]'), u = new URL(a.href); u.searchParams.set('paper', 'b5'); a.href = u; a.setAttribute('hx-get', u.pathname + u.search); htmx.process(a); })()`, nil),
		chromedp.Click(`#diagram .downloads a[href*="/diagram/pdf"]`),
		waitJS(`(document.querySelector('#flash .alert-error')?.textContent || '').includes('Paper must be one of a4, a3, letter, tabloid.')`),
	)
	noProblems(t, ctx, "the diagram")
}

// TestBrowserCollaboration: an editor renames a page in one browser and
// the owner's open editor shows the new title without reloading; a
// client comments through a share link and the owner sees the comment.
func TestBrowserCollaboration(t *testing.T) {
	owner, base, db := browser(t)
	bg := context.Background()
	addUser(t, db, "ed@test.example", "Ed Editor", "1", site.RoleEditor)
	doc := acmeDoc(t)
	pid, err := db.Projects.ImportDocument(bg, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(bg, pid)
	var pricing int64
	tr.Walk(func(p *site.Page, _ int) bool {
		if p.Title == "Pricing" {
			pricing = p.ID
		}
		return true
	})
	plan := fmt.Sprintf("%s/projects/%d?level=3", base, pid)
	run(t, owner, "owner opens the plan",
		chromedp.Navigate(plan),
		chromedp.WaitVisible(`#outline`),
		chromedp.Evaluate(`window.notReloaded = true`, nil),
	)

	editor := otherBrowser(t, owner)
	loginBrowser(t, editor, base, "ed@test.example")
	run(t, editor, "editor opens the plan",
		chromedp.Navigate(plan),
		chromedp.WaitVisible(`#outline`),
		waitJS(`document.getElementById("presence").textContent.includes("Olive Owner")`),
	)
	run(t, owner, "owner sees the editor arrive", waitJS(`document.getElementById("presence").textContent.includes("Ed Editor")`))
	run(t, editor, "editor renames Pricing",
		chromedp.Focus(fmt.Sprintf(`#title-%d`, pricing)),
		chromedp.KeyEvent(kb.F2),
		waitJS(fieldFocused),
		chromedp.SetValue(titleField, "Plans & prices"),
		chromedp.SendKeys(titleField, kb.Enter),
		renamedSelected("Plans & prices"),
	)
	run(t, owner, "owner sees the new title without reloading",
		titleShown("Plans & prices"),
		waitJS(`window.notReloaded === true`),
	)

	// The owner is typing notes when the editor adds a page: the outline
	// follows, and the notes being typed stay.
	run(t, owner, "owner starts typing notes on Contact",
		chromedp.Click(titleSel("Contact"), chromedp.BySearch),
		chromedp.WaitVisible(`#page-form #f-notes`),
		settled(),
		chromedp.SendKeys(`#f-notes`, "Draft notes, not saved"),
	)
	addRoot(t, editor, "Careers")
	run(t, owner, "owner sees the new page and keeps the notes",
		titleShown("Careers"),
		waitJS(`document.getElementById("f-notes").value.includes("Draft notes, not saved")`),
		waitJS(`!!document.querySelector("#page-form .live-note")`),
		waitJS(`window.notReloaded === true`),
	)

	l := site.ShareLink{ProjectID: pid, Role: site.ShareComment, Label: "Client"}
	token, err := db.Sharing.CreateShareLink(bg, &l)
	if err != nil {
		t.Fatal(err)
	}
	client := otherBrowser(t, owner)
	run(t, client, "client opens the share link",
		chromedp.Navigate(base+"/s/"+token),
		chromedp.WaitVisible(`main.review #diagram svg`),
		waitJS(`!!document.querySelector(".share-badge")`),
	)
	run(t, client, "client opens the outline and selects Pricing",
		settled(), // the tabs' script wired: a click before would go unheard
		clickAt(`#tab-outline`),
		clickAt(fmt.Sprintf(`#title-%d`, pricing)),
		waitJS(`!!document.querySelector('#comments form.comment-form')?.offsetParent`),
		settled(),
	)
	run(t, client, "client comments",
		chromedp.SendKeys(`#f-author`, "Carla Client"),
		chromedp.SendKeys(`#f-body`, "Could we show yearly prices?"),
		chromedp.Click(`#comments form.comment-form button[type=submit]`),
		waitJS(`document.getElementById("comments").textContent.includes("Could we show yearly prices?")`),
	)
	run(t, owner, "owner sees the comment count, then the comment",
		waitJS(fmt.Sprintf(`document.getElementById("cc-%d").textContent.includes("1")`, pricing)),
		waitJS(`window.notReloaded === true`),
		chromedp.Click(`#open-comments-button`),
		waitJS(`(document.getElementById("open-comments")||{textContent:""}).textContent.includes("Could we show yearly prices?")`),
		waitJS(`document.getElementById("open-comments").textContent.includes("Carla Client")`),
	)
}

// TestBrowserOwnEdits: what this tab saves shows in its own outline and
// Summary at once (status, kind, placement, new pages); a new page's
// title is typed over "New page"; a notice goes by itself; Back shows the
// outline as it is now, without a script error.
func TestBrowserOwnEdits(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	pid, ids := (&client{t: t, db: db}).fixture() // the sample plan, its page IDs by title
	row := func(title string) string {
		return fmt.Sprintf(`document.querySelector('#node-%d > .row')`, ids[title])
	}
	total := func() int {
		var text string
		run(t, ctx, "read the summary", chromedp.Text(`#summary p strong`, &text))
		n, _ := strconv.Atoi(strings.Fields(text)[0])
		return n
	}
	run(t, ctx, "open the plan",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#summary`),
		settled(),
	)
	before := total()

	run(t, ctx, "add a child of Products and type its title",
		chromedp.Focus(fmt.Sprintf(`#title-%d`, ids["Products"])),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(input.ModifierShift)),
		waitJS(fieldFocused),
		chromedp.SendKeys(titleField, "Webinars"+kb.Enter),
		waitJS(fieldFocused+` && document.activeElement.value === ""`),
		// The summary follows the change while the next draft is typed;
		// once a title has the keys again, its details take the pane.
		waitJS(fmt.Sprintf(`(document.querySelector('#summary p strong')?.textContent || '').startsWith('%d ')`, before+1)),
		chromedp.KeyEvent(kb.Escape),
		titleShown("Webinars"),
	)
	tr, _ := db.Pages.Tree(bg, pid)
	for _, c := range tr.Children(ids["Products"]) {
		if strings.Contains(c.Title, "New page") {
			t.Errorf("the new page was saved as %q", c.Title)
		}
	}

	run(t, ctx, "save About us as a group under review",
		chromedp.Click(titleSel("About us"), chromedp.BySearch),
		chromedp.WaitVisible(`#page-form`),
		settled(),
		chromedp.SetValue(`#page-form select[name=status]`, "review"),
		chromedp.SetValue(`#page-form select[name=kind]`, "group"),
		chromedp.Click(`#page-form button[type=submit]`),
		waitJS(`!!(`+row("About us")+`?.querySelector('.status-review') && `+row("About us")+`.querySelector('.badge-group'))`),
	)
	run(t, ctx, "move Login to the footer",
		chromedp.Click(titleSel("Login"), chromedp.BySearch),
		chromedp.WaitVisible(`#page-form select[name=placement]`),
		settled(),
		chromedp.SetValue(`#page-form select[name=placement]`, "footer"),
		chromedp.Click(`#page-form button[type=submit]`),
		waitJS(fmt.Sprintf(`!!document.querySelector('#roots-footer #node-%d')`, ids["Login"])),
	)

	run(t, ctx, "paste two pages; the notice goes by itself",
		chromedp.Click(`//button[normalize-space(.)="Paste outline"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#dialog textarea[name=outline]`),
		settled(),
		chromedp.SetValue(`#dialog textarea[name=outline]`, "Events\nJobs"),
		chromedp.Click(`//button[normalize-space(.)="Add pages"]`, chromedp.BySearch),
		waitJS(`(document.querySelector('#flash')?.textContent || '').includes('Added 2 pages.')`),
		waitJS(`!document.querySelector('#flash .alert')`),
	)

	run(t, ctx, "rename Team",
		chromedp.Focus(titleSel("Team"), chromedp.BySearch),
		chromedp.KeyEvent(kb.F2),
		waitJS(fieldFocused), // with the title selected: typing replaces it
		chromedp.SendKeys(titleField, "People"+kb.Enter),
		renamedSelected("People"),
		settled(),
	)
	run(t, ctx, "open Pricing",
		chromedp.Click(titleSel("Pricing"), chromedp.BySearch),
		waitJS(fmt.Sprintf(`location.pathname.endsWith('/pages/%d')`, ids["Pricing"])),
		settled(),
	)
	run(t, ctx, "open Contact",
		chromedp.Click(titleSel("Contact"), chromedp.BySearch),
		waitJS(fmt.Sprintf(`location.pathname.endsWith('/pages/%d')`, ids["Contact"])),
		settled(),
	)
	run(t, ctx, "go back",
		chromedp.Evaluate(`history.back()`, nil),
		waitJS(fmt.Sprintf(`location.pathname.endsWith('/pages/%d') && document.getElementById('details-inner')?.dataset.page === '%d'`, ids["Pricing"], ids["Pricing"])),
		titleShown("People"),
	)
	noProblems(t, ctx, "after Back")
}

// TestBrowserKeyboardOutline types a three-level outline of 13 pages
// with the keyboard alone, as an IA lead does in a workshop: Shift+Enter
// for a first child, Enter for the next page, Tab and Shift+Tab to
// indent and outdent while typing, Esc to drop the empty row at the
// end. Focus never leaves the outline, and the stored tree is the one
// typed.
func TestBrowserKeyboardOutline(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	pr := &site.Project{TeamID: 1, Name: "Workshop", BaseURL: "https://workshop.example/"}
	if err := db.Projects.CreateProject(bg, pr); err != nil {
		t.Fatal(err)
	}
	tr, _ := db.Pages.Tree(bg, pr.ID)
	home := tr.Roots(site.PlacementMain)[0]
	run(t, ctx, "open the plan and select Home",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pr.ID)),
		chromedp.WaitVisible(`#outline`),
		settled(),
		chromedp.Focus(fmt.Sprintf(`#title-%d`, home.ID)),
	)
	shift := chromedp.KeyModifiers(input.ModifierShift)
	typed := func(text string) chromedp.Action { return chromedp.KeyEvent(text) }
	run(t, ctx, "type the outline",
		chromedp.KeyEvent(kb.Enter, shift), // a first child of Home
		waitJS(fieldFocused),
		typed("About"+kb.Enter), chromedp.KeyEvent(kb.Tab),
		typed("Team"+kb.Enter), typed("Jobs"+kb.Enter), typed("Press"+kb.Enter), chromedp.KeyEvent(kb.Tab, shift),
		typed("Products"+kb.Enter), chromedp.KeyEvent(kb.Tab),
		typed("Shoes"+kb.Enter), chromedp.KeyEvent(kb.Tab),
		typed("Running"+kb.Enter), typed("Trail"+kb.Enter), chromedp.KeyEvent(kb.Tab, shift),
		typed("Boots"+kb.Enter), chromedp.KeyEvent(kb.Tab, shift),
		typed("Blog"+kb.Enter), chromedp.KeyEvent(kb.Tab),
		typed("News"+kb.Enter), typed("Guides"+kb.Enter), chromedp.KeyEvent(kb.Tab, shift),
		typed("Contact"+kb.Enter),
		chromedp.KeyEvent(kb.Escape), // the empty row after Contact is not added
		waitJS(`!document.querySelector('#outline li.draft, #outline .pending')`),
		waitJS(`document.activeElement?.matches('#outline a.title') && document.activeElement.textContent === 'Contact'`),
	)
	const want = "Home(About(Team Jobs Press) Products(Shoes(Running Trail) Boots) Blog(News Guides) Contact)"
	if got := shapeOf(db, pr.ID); got != want {
		t.Errorf("the stored tree is %s\nwant %s", got, want)
	}
	run(t, ctx, "rename by typing over a selected page, then move with the arrows",
		chromedp.KeyEvent(kb.ArrowUp), // Guides
		waitJS(`document.activeElement?.textContent === 'Guides'`),
		typed("How-tos"+kb.Escape), // typing replaces the title; Esc cancels it
		waitJS(`document.activeElement?.matches('#outline a.title') && document.activeElement.textContent === 'Guides'`),
		chromedp.KeyEvent(kb.F2),
		waitJS(fieldFocused),
		typed("How-tos"+kb.ArrowUp), // saves and selects News
		waitJS(`document.activeElement?.textContent === 'News'`),
		chromedp.KeyEvent(kb.Home),
		waitJS(`document.activeElement?.textContent === 'Home'`),
		chromedp.KeyEvent(kb.End),
		waitJS(`document.activeElement?.textContent === 'Contact'`),
		waitJS(`!document.querySelector('#outline .pending')`),
	)
	waitFor(t, func() bool { return strings.Contains(shapeOf(db, pr.ID), "Blog(News How-tos)") }, "the rename to How-tos to be stored; the tree is "+shapeOf(db, pr.ID))
	noProblems(t, ctx, "typing an outline")
	if dir := os.Getenv("SITEPLAN_SCREENSHOTS"); dir != "" { // for a look at the outline: go test -run KeyboardOutline
		var png []byte
		run(t, ctx, "screenshot", chromedp.EmulateViewport(1280, 720), chromedp.KeyEvent("?"), waitJS(`document.getElementById('keys-help').open`),
			chromedp.CaptureScreenshot(&png))
		os.WriteFile(filepath.Join(dir, "outline-help.png"), png, 0o644)
		run(t, ctx, "screenshot", chromedp.KeyEvent(kb.Escape), chromedp.Focus(titleSel("Shoes"), chromedp.BySearch), chromedp.CaptureScreenshot(&png))
		os.WriteFile(filepath.Join(dir, "outline.png"), png, 0o644)
	}
}

// TestBrowserPNGTooLarge: downloading a PNG too large to draw leads to the
// page that offers the SVG, the PDF or a branch, not to an error.
func TestBrowserPNGTooLarge(t *testing.T) {
	ctx, base, db := browser(t)
	pid, err := db.Projects.ImportDocument(context.Background(), 1, sitegen.Document("Big", 10, 10, 9))
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "download the PNG of 1,011 pages",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/diagram?depth=0", base, pid)),
		chromedp.WaitVisible(`#diagram .downloads a[href*="/diagram/png"]`),
		chromedp.Click(`#diagram .downloads a[href*="/diagram/png"]`),
		waitJS(`document.querySelector('h1')?.textContent === 'This diagram is too large for a PNG' && document.querySelectorAll('.branches a').length === 10`),
	)
	screenshot(t, ctx, "png-too-large.png")
}

// TestBrowserTheme: the settings page uploads a logo with the agency's
// name and shows the logo once saved.
func TestBrowserTheme(t *testing.T) {
	ctx, base, db := browser(t)
	pid, err := db.Projects.ImportDocument(context.Background(), 1, acmeDoc(t))
	if err != nil {
		t.Fatal(err)
	}
	var logo bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 160, 48))
	for x := 0; x < 160; x++ {
		for y := 0; y < 48; y++ {
			img.Set(x, y, color.RGBA{uint8(x), 60, 160, 255})
		}
	}
	png.Encode(&logo, img)
	path := filepath.Join(t.TempDir(), "logo.png")
	if err := os.WriteFile(path, logo.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "save a theme with a logo",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d/settings", base, pid)),
		chromedp.WaitVisible(`#theme-form`),
		chromedp.SendKeys(`#f-agency`, "Studio North"),
		chromedp.SendKeys(`#f-client_name`, "Acme Corp"),
		chromedp.SetUploadFiles(`#f-logo`, []string{path}),
		chromedp.Click(`#theme-form button[type=submit]`),
		waitJS(`(document.querySelector('#theme-form .alert-ok')?.textContent || '').includes('Theme saved.') && document.querySelector('#theme-form .logo-preview img')?.naturalWidth === 160`),
	)
	screenshot(t, ctx, "theme.png")
	noProblems(t, ctx, "the theme form")
}

// TestBrowserSearchByKeyboard: the search's results are reached from the
// box with ↓, gone through with ↓ and ↑ (↑ from the first: the box), and
// Enter opens the page, without the mouse.
func TestBrowserSearchByKeyboard(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := (&client{t: t, db: db}).fixture()
	const box = `input[data-search]`
	active := func(js string) chromedp.Action {
		return waitJS(`(() => { const a = document.activeElement; return ` + js + `; })()`)
	}
	run(t, ctx, "search for pri",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#summary`),
		settled(),
		chromedp.SendKeys(box, "pri"),
		waitJS(`[...document.querySelectorAll("#search-results a")].some(a => a.textContent === "Pricing")`),
	)
	run(t, ctx, "↓ to the results and ↑ back to the box",
		chromedp.KeyEvent(kb.ArrowDown),
		active(`a.matches("#search-results a") && a.textContent === "Pricing"`),
		chromedp.KeyEvent(kb.ArrowUp),
		active(`a.matches("input[data-search]")`),
		chromedp.KeyEvent(kb.ArrowDown),
		active(`a.textContent === "Pricing"`),
		chromedp.KeyEvent(kb.Escape),
		active(`a.matches("input[data-search]")`),
	)
	run(t, ctx, "↓ and Enter open the page",
		chromedp.KeyEvent(kb.ArrowDown),
		active(`a.textContent === "Pricing"`),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fmt.Sprintf(`location.pathname === "/projects/%d/pages/%d" && document.getElementById("details-inner")?.dataset.page === "%d"`, pid, ids["Pricing"], ids["Pricing"])),
	)
}

// TestBrowserSkipToOutline: from the editor's load, Tab reaches the skip
// link first, and Enter on it puts the keyboard on the outline's first
// row, selected, whose details then show; two keys, not the toolbar's
// twenty.
func TestBrowserSkipToOutline(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := (&client{t: t, db: db}).fixture()
	run(t, ctx, "open the plan and press Tab, then Enter",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#summary`),
		settled(),
		chromedp.KeyEvent(kb.Tab),
		waitJS(`document.activeElement.matches("a.skip-link") && document.activeElement.getBoundingClientRect().top >= 0`),
		chromedp.KeyEvent(kb.Enter),
		waitJS(fmt.Sprintf(`document.activeElement.id === "title-%d" && document.querySelector("#node-%d > .row").classList.contains("selected")`, ids["Home"], ids["Home"])),
		waitJS(fmt.Sprintf(`document.getElementById("details-inner")?.dataset.page === "%d"`, ids["Home"])),
	)
}

// TestBrowserOutlineTree: the outline is an ARIA tree with one Tab stop
// (a roving tabindex): its rows are out of the Tab order but for the one
// the keyboard was last on, which Shift+Tab and Tab come back to; each
// branch says whether it is open, and ← and → change what it says.
func TestBrowserOutlineTree(t *testing.T) {
	ctx, base, db := browser(t)
	pid, ids := (&client{t: t, db: db}).fixture()
	// stops counts the outline's rows and toggles in the Tab order.
	const stops = `[...document.querySelectorAll("#outline ul.roots a, #outline ul.roots button")].filter(e => e.tabIndex >= 0).length`
	focused := func(title string) chromedp.Action {
		return waitJS(fmt.Sprintf(`document.activeElement.id === "title-%d" && document.activeElement.tabIndex === 0 && %s === 1`, ids[title], stops))
	}
	var roles string
	run(t, ctx, "open the plan: one stop, the tree's roles",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d", base, pid)),
		chromedp.WaitVisible(`#summary`),
		settled(),
		waitJS(stops+` === 1`),
		chromedp.Evaluate(`[document.querySelector("#roots-main").getAttribute("role"), document.querySelector("#title-`+itoa(ids["Home"])+`").getAttribute("role"),
			document.querySelector("#title-`+itoa(ids["Home"])+`").getAttribute("aria-expanded")].join(" ")`, &roles),
	)
	if roles != "tree treeitem true" {
		t.Errorf("the outline's roles: %q, want tree, treeitem, expanded", roles)
	}
	// The whole editor: the tree owns only its items (a fold toggle is
	// the pointer's), the kinds' badges can be read, the navigations
	// are told apart.
	if v := axeViolationsIn(t, ctx, "document"); len(v) > 0 {
		t.Errorf("axe on the editor: %q", v)
	}
	// What a screen reader is told is Chromium's accessibility tree, not
	// the attributes: Team, under About us under Home, is an item of
	// level 3.
	if got := axItem(t, ctx, fmt.Sprintf("#title-%d", ids["Team"])); got != "treeitem level 3" {
		t.Errorf("Chromium's accessibility tree says Team is %q, want treeitem level 3", got)
	}
	run(t, ctx, "skip to the outline, ↓ to the third row: the stop follows",
		chromedp.KeyEvent(kb.Tab),
		waitJS(`document.activeElement.matches("a.skip-link")`),
		chromedp.KeyEvent(kb.Enter),
		focused("Home"),
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.KeyEvent(kb.ArrowDown),
		focused("Team"),
	)
	run(t, ctx, "Shift+Tab leaves the outline, Tab comes back to the same row",
		chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(input.ModifierShift)),
		waitJS(`!document.activeElement.closest("#outline ul.roots")`),
		chromedp.KeyEvent(kb.Tab),
		focused("Team"),
	)
	run(t, ctx, "← closes About us, and it says so; → opens it",
		chromedp.KeyEvent(kb.ArrowUp),
		focused("About us"),
		chromedp.KeyEvent(kb.ArrowLeft),
		waitJS(fmt.Sprintf(`document.getElementById("title-%d").getAttribute("aria-expanded") === "false"`, ids["About us"])),
		chromedp.KeyEvent(kb.ArrowRight),
		waitJS(fmt.Sprintf(`document.getElementById("title-%d").getAttribute("aria-expanded") === "true"`, ids["About us"])),
	)
	// Alt+↓ on a row of a nested list moves the page (the outline's
	// lists are no form's rows, whose keys are the same) and keeps the
	// keyboard on it.
	run(t, ctx, "Alt+↓ moves Pricing below Café",
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.KeyEvent(kb.ArrowDown),
		chromedp.KeyEvent(kb.ArrowDown),
		focused("Pricing"),
		chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(input.ModifierAlt)),
		waitJS(fmt.Sprintf(`[...document.querySelectorAll("#children-%d > li.node")].map(li => li.dataset.id).join() === "%d,%d"`, ids["Products"], ids[`Café & "Bar" <b>`], ids["Pricing"])),
		focused("Pricing"),
		settled(),
	)
	if tr, _ := db.Pages.Tree(context.Background(), pid); tr.Children(ids["Products"])[1].ID != ids["Pricing"] {
		t.Errorf("the plan did not move Pricing below Café")
	}
	noProblems(t, ctx, "the outline's keys")
}

// axItem is what Chromium's accessibility tree says of the element sel
// finds: its role and, if it has one, its level ("treeitem level 3").
func axItem(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var nodes []*cdp.Node
	var out string
	run(t, ctx, "read the accessibility tree of "+sel, chromedp.Nodes(sel, &nodes, chromedp.ByQuery), chromedp.ActionFunc(func(ctx context.Context) error {
		ax, err := accessibility.GetPartialAXTree().WithBackendNodeID(nodes[0].BackendNodeID).WithFetchRelatives(false).Do(ctx)
		if err != nil || len(ax) == 0 || ax[0].Role == nil {
			return fmt.Errorf("no accessibility node: %v", err)
		}
		var role string
		json.Unmarshal(ax[0].Role.Value, &role)
		out = role
		for _, p := range ax[0].Properties {
			if p.Name == accessibility.PropertyNameLevel {
				out += " level " + string(p.Value.Value)
			}
		}
		return nil
	}))
	return out
}

// pointTo moves the mouse onto the middle of the element the script el
// finds, from a little to its left, as a hand reaching for it does: a
// picker's row replaced under a pointer that has not moved since takes
// no click (static/js/steady.js).
func pointTo(el string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var at struct{ X, Y float64 }
		if err := chromedp.Evaluate(`(() => { const r = (`+el+`).getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`, &at).Do(ctx); err != nil {
			return err
		}
		for _, dx := range []float64{-6, 0} {
			if err := input.DispatchMouseEvent(input.MouseMoved, at.X+dx, at.Y).Do(ctx); err != nil {
				return err
			}
		}
		return nil
	})
}
