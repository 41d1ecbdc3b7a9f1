package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"siteplan/site"
	"siteplan/store"
)

type point struct{ X, Y float64 }

// rowJS is a script expression for the outline row of the page titled title.
func rowJS(title string) string {
	return `[...document.querySelectorAll('#outline a.title')].find(a => a.textContent === ` + strconv.Quote(title) + `).closest('.row')`
}

// rowLeft is where the outline row of the page titled title starts.
func rowLeft(t *testing.T, ctx context.Context, title string) float64 {
	t.Helper()
	var x float64
	run(t, ctx, "find the row of "+title, chromedp.Evaluate(rowJS(title)+`.getBoundingClientRect().left`, &x))
	return x
}

// rowPoint is a point on the outline row of the page titled title, frac
// of the way down the row, a little right of where its title starts.
func rowPoint(t *testing.T, ctx context.Context, title string, frac float64) point {
	t.Helper()
	var p point
	run(t, ctx, "find the row of "+title, chromedp.Evaluate(fmt.Sprintf(`(() => {
		const row = %s, r = row.getBoundingClientRect(), t = row.querySelector('a.title').getBoundingClientRect();
		return {X: t.left + Math.min(20, t.width / 2), Y: r.top + r.height * %g};
	})()`, rowJS(title), frac), &p))
	return p
}

// pressHandle presses the mouse on the drag handle of title's row and
// moves it far enough to start a drag; the button stays down.
func pressHandle(t *testing.T, ctx context.Context, title string) point {
	t.Helper()
	var p point
	run(t, ctx, "find the handle of "+title, chromedp.Evaluate(fmt.Sprintf(`(() => {
		const h = %s.querySelector('.handle').getBoundingClientRect();
		return {X: h.left + h.width / 2, Y: h.top + h.height / 2};
	})()`, rowJS(title)), &p))
	run(t, ctx, "press the handle of "+title,
		chromedp.MouseEvent(input.MousePressed, p.X, p.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, p.X+4, p.Y+3, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, p.X+8, p.Y+6, chromedp.ButtonLeft),
		waitJS(`document.body.classList.contains('dragging')`),
	)
	return p
}

// moveTo moves the pressed mouse from one point to another in steps, as
// a hand does.
func moveTo(t *testing.T, ctx context.Context, from, to point) {
	t.Helper()
	for i := 1; i <= 6; i++ {
		x := from.X + (to.X-from.X)*float64(i)/6
		y := from.Y + (to.Y-from.Y)*float64(i)/6
		run(t, ctx, "drag", chromedp.MouseEvent(input.MouseMoved, x, y, chromedp.ButtonLeft))
	}
}

func release(t *testing.T, ctx context.Context, at point) {
	t.Helper()
	run(t, ctx, "let go", chromedp.MouseEvent(input.MouseReleased, at.X, at.Y, chromedp.ButtonLeft),
		waitJS(`!document.body.classList.contains('dragging')`))
}

// rowBoxes is where every outline row is on screen.
const rowBoxes = `[...document.querySelectorAll('#outline li.node > .row')].map(r => { const b = r.getBoundingClientRect(); return [b.left, b.top, b.width].join(','); }).join(' ')`

// dropShown says what the drag shows: "inside:Title", "line:TOP,LEFT" or "none".
const dropShown = `(() => {
	const inside = document.querySelector('#outline .row.drop-inside');
	if (inside) return 'inside:' + inside.querySelector('.title').textContent;
	const l = document.querySelector('.drop-line');
	if (l && !l.hidden) { const b = l.getBoundingClientRect(); return 'line:' + Math.round(b.top + 1) + ',' + Math.round(b.left); }
	return 'none';
})()`

// TestBrowserDrag drags pages by their handles: nothing in the tree moves
// until the drop, the drop target (before, inside, first under an open
// branch) is shown before letting go, Esc cancels, and a page is never
// dropped into its own branch.
func TestBrowserDrag(t *testing.T) {
	ctx, base, db := browser(t)
	bg := context.Background()
	doc := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Drag", BaseURL: "https://drag.example/"},
		Pages: []*site.DocPage{{Title: "Home", Slug: ptr(""), Children: []*site.DocPage{
			{Title: "About", Children: []*site.DocPage{{Title: "Team"}, {Title: "Jobs"}}},
			{Title: "Products"}, {Title: "Pricing"}, {Title: "Contact"},
		}}}}
	pid, err := db.Projects.ImportDocument(bg, 1, doc)
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "open the plan",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=3", base, pid)),
		chromedp.WaitVisible(`#outline`), titleShown("Jobs"), settled())
	shape := func() string { return shapeOf(db, pid) }
	const start = "Home(About(Team Jobs) Products Pricing Contact)"
	if got := shape(); got != start {
		t.Fatalf("seeded tree %s, want %s", got, start)
	}
	var before, during, shown string

	t.Run("the tree holds still and the target shows; Esc cancels", func(t *testing.T) {
		run(t, ctx, "measure", chromedp.Evaluate(rowBoxes, &before))
		from := pressHandle(t, ctx, "Contact")
		to := rowPoint(t, ctx, "Products", 0.5)
		moveTo(t, ctx, from, to)
		run(t, ctx, "read", waitJS(dropShown+` === 'inside:Products'`), chromedp.Evaluate(rowBoxes, &during))
		if during != before {
			t.Errorf("rows moved while dragging:\nbefore %s\nduring %s", before, during)
		}
		var ghost string
		run(t, ctx, "ghost", chromedp.Text(`.drag-ghost`, &ghost))
		if ghost != "Contact" {
			t.Errorf("the dragged page shows as %q, want Contact", ghost)
		}
		run(t, ctx, "Esc", chromedp.KeyEvent(kb.Escape),
			waitJS(`!document.body.classList.contains('dragging') && !document.querySelector('.drop-line, .drag-ghost, .drop-inside, .drag-source')`))
		release(t, ctx, to)
		run(t, ctx, "read", settled(), chromedp.Evaluate(rowBoxes, &during))
		if during != before {
			t.Errorf("a cancelled drag moved rows:\nbefore %s\nafter  %s", before, during)
		}
		if got := shape(); got != start {
			t.Errorf("a cancelled drag changed the tree to %s", got)
		}
	})

	t.Run("before a page: a line at its top edge", func(t *testing.T) {
		from := pressHandle(t, ctx, "Contact")
		to := rowPoint(t, ctx, "Products", 0.1)
		top := rowPoint(t, ctx, "Products", 0)
		moveTo(t, ctx, from, to)
		run(t, ctx, "read", waitJS(dropShown+`.startsWith('line:')`), chromedp.Evaluate(dropShown, &shown))
		var y, x float64
		fmt.Sscanf(shown, "line:%g,%g", &y, &x)
		if left := rowLeft(t, ctx, "Products"); y < top.Y-2 || y > top.Y+2 || x < left-2 || x > left+2 {
			t.Errorf("drop line at (%g, %g), want at Products' top left corner (%g, %g)", x, y, left, top.Y)
		}
		screenshot(t, ctx, "drag-line.png")
		release(t, ctx, to)
		waitFor(t, func() bool { return shape() == "Home(About(Team Jobs) Contact Products Pricing)" }, "Contact to land before Products; the tree is "+shape())
	})

	t.Run("inside a page with open children: last child, the branch stays open", func(t *testing.T) {
		from := pressHandle(t, ctx, "Pricing")
		to := rowPoint(t, ctx, "About", 0.5)
		moveTo(t, ctx, from, to)
		run(t, ctx, "read", waitJS(dropShown+` === 'inside:About'`))
		screenshot(t, ctx, "drag-inside.png")
		release(t, ctx, to)
		waitFor(t, func() bool { return shape() == "Home(About(Team Jobs Pricing) Contact Products)" }, "Pricing to land in About; the tree is "+shape())
		run(t, ctx, "About stays open", titleShown("Team"), waitJS(`document.activeElement?.textContent === 'Pricing'`))
	})

	t.Run("the lower edge of an open branch: its first child, the line indented", func(t *testing.T) {
		from := pressHandle(t, ctx, "Jobs")
		to := rowPoint(t, ctx, "About", 0.9)
		about := rowPoint(t, ctx, "About", 1)
		child := rowLeft(t, ctx, "Team")
		moveTo(t, ctx, from, to)
		run(t, ctx, "read", waitJS(dropShown+`.startsWith('line:')`), chromedp.Evaluate(dropShown, &shown))
		var y, x float64
		fmt.Sscanf(shown, "line:%g,%g", &y, &x)
		if y < about.Y-2 || y > about.Y+2 || x < child-2 || x > child+2 {
			t.Errorf("drop line at (%g, %g), want at About's lower edge %g, indented where its children start (%g)", x, y, about.Y, child)
		}
		release(t, ctx, to)
		waitFor(t, func() bool { return shape() == "Home(About(Jobs Team Pricing) Contact Products)" }, "Jobs to become About's first child; the tree is "+shape())
	})

	t.Run("never into its own branch", func(t *testing.T) {
		from := pressHandle(t, ctx, "About")
		to := rowPoint(t, ctx, "Team", 0.5)
		moveTo(t, ctx, from, to)
		run(t, ctx, "read", chromedp.Evaluate(dropShown, &shown))
		if shown != "none" {
			t.Errorf("dragging About over its child Team shows %s, want no target", shown)
		}
		release(t, ctx, to)
		run(t, ctx, "settle", settled())
		if got := shape(); got != "Home(About(Jobs Team Pricing) Contact Products)" {
			t.Errorf("dropping a page into its own branch changed the tree to %s", got)
		}
	})

	run(t, ctx, "reload", chromedp.Reload(), chromedp.WaitVisible(`#outline`), titleShown("Pricing"))
	var outline string
	run(t, ctx, "read the outline", chromedp.Evaluate(`[...document.querySelectorAll('#outline a.title')].map(a => a.textContent).join(' ')`, &outline))
	if outline != "Home About Jobs Team Pricing Contact Products" {
		t.Errorf("after reload the outline reads %q", outline)
	}
	noProblems(t, ctx, "dragging pages")
}

// screenshot saves what the tab shows as name in $SITEPLAN_SCREENSHOTS,
// when set, for a person to look at.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("SITEPLAN_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	run(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot(&png))
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }

// longPlan imports a plan whose home page has n children, "Page 0" to
// "Page n-1", and returns its id.
func longPlan(t *testing.T, db *store.Store, name string, n int) int64 {
	t.Helper()
	home := &site.DocPage{Title: "Home", Slug: ptr("")}
	for i := range n {
		home.Children = append(home.Children, &site.DocPage{Title: fmt.Sprintf("Page %d", i)})
	}
	pid, err := db.Projects.ImportDocument(context.Background(), 1, &site.Document{Format: site.FormatV1,
		Project: site.DocProject{Name: name, BaseURL: "https://" + strings.ToLower(name) + ".example/"}, Pages: []*site.DocPage{home}})
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestBrowserDragEdge: dragging into the outline's bottom edge scrolls
// the outline on; moving back up from the edge, to a row that came into
// view, scrolls nothing, so the row under the pointer is the one the
// drop goes to.
func TestBrowserDragEdge(t *testing.T) {
	ctx, base, db := browser(t)
	pid := longPlan(t, db, "Edge", 60)
	const outline = `document.getElementById("outline")`
	run(t, ctx, "open a long plan on a laptop",
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=2", base, pid)),
		chromedp.WaitVisible(`#outline`), titleShown("Page 59"), settled(),
		waitJS(outline+`.scrollHeight > `+outline+`.clientHeight + 200`),
	)
	from := pressHandle(t, ctx, "Page 3")
	var bottom float64
	run(t, ctx, "the outline's bottom", chromedp.Evaluate(outline+`.getBoundingClientRect().bottom`, &bottom))
	edge := point{from.X + 40, bottom - 12}
	moveTo(t, ctx, from, edge) // down into the edge: the outline scrolls
	var scrolled, after float64
	run(t, ctx, "read the scroll", waitJS(outline+`.scrollTop > 0`), chromedp.Evaluate(outline+`.scrollTop`, &scrolled))
	for y := bottom - 16; y > bottom-44; y -= 4 { // back up, still in the edge
		run(t, ctx, "move up", chromedp.MouseEvent(input.MouseMoved, edge.X, y, chromedp.ButtonLeft))
	}
	run(t, ctx, "read the scroll", chromedp.Evaluate(outline+`.scrollTop`, &after))
	if after != scrolled {
		t.Errorf("moving up from the bottom edge scrolled the outline from %g to %g", scrolled, after)
	}
	var windowY float64
	run(t, ctx, "the window's scroll", chromedp.Evaluate(`scrollY`, &windowY))
	if windowY != 0 {
		t.Errorf("the drag scrolled the window by %g px; the outline pane scrolls on its own", windowY)
	}
	run(t, ctx, "cancel", chromedp.KeyEvent(kb.Escape), waitJS(`!document.body.classList.contains('dragging')`),
		chromedp.MouseEvent(input.MouseReleased, edge.X, bottom-44, chromedp.ButtonLeft))
	noProblems(t, ctx, "drag at the edge")
}
