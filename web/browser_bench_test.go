package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"siteplan/internal/sitegen"
	"siteplan/site"
)

// BenchmarkBrowserOutline10k measures the 10,111-page outline in
// Chromium with the Performance API, from the input to the frame painted
// after it: "Expand to level: all" from level 2 (ms/expandall: the
// request, the server's answer, the swap and the paint; the outline is
// sent its first chunk of rows), and ↓ (ms/key) with the first chunk on
// the page, then once every row of the plan is (ms/keyall: each chunk
// loaded by scrolling to it, a reader who went through the whole plan).
// A key is pressed as a frame begins and timed to the end of that
// frame's rendering (style, layout, paint): the work a frame must fit in
// 16.7 ms, without the wait for the display's next frame.
func BenchmarkBrowserOutline10k(b *testing.B) {
	ctx, base, db := browser(b)
	pid, err := db.Projects.ImportDocument(context.Background(), 1, sitegen.Document("Bench", 10, 10, 99))
	if err != nil {
		b.Fatal(err)
	}
	// rendered resolves after the frame that shows what happened is
	// rendered: the frame's callbacks run, then the page's style, layout
	// and paint, then the message.
	const rendered = `const rendered = () => new Promise(r => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); }));`
	level := func(v string) string {
		return "{" + rendered + `new Promise(done => {
			const s = document.querySelector("select[name=level]");
			document.body.addEventListener("htmx:afterSettle", async (e) => {
				if (e.detail.target.id !== "outline") return;
				await rendered();
				performance.mark("level-done");
				done(performance.measure("level", "level", "level-done").duration);
			}, {once: true});
			s.focus(); // as a person changing it has it focused
			performance.mark("level");
			s.value = "` + v + `";
			s.dispatchEvent(new Event("change", {bubbles: true}));
		}) }`
	}
	// down presses ↓ keys times, each as a frame begins, and gives the
	// mean time to the end of the frame's rendering.
	down := func(keys int) string {
		return fmt.Sprintf(`(async () => {
			let sum = 0;
			for (let k = 0; k < %d; k++) {
				sum += await new Promise((done, fail) => requestAnimationFrame(() => {
					const a = document.activeElement;
					performance.mark("key");
					a.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowDown", bubbles: true, cancelable: true}));
					if (document.activeElement === a) fail(new Error("↓ did not move from " + a.textContent));
					const c = new MessageChannel();
					c.port1.onmessage = () => { performance.mark("key-done"); done(performance.measure("key", "key", "key-done").duration); };
					c.port2.postMessage(0);
				}));
			}
			return sum / %d;
		})()`, keys, keys)
	}
	run(b, ctx, "open the outline",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=2", base, pid)),
		chromedp.WaitVisible(`#summary`),
		settled(),
	)
	const expands, keys = 5, 50
	var expand, first float64
	for i := 0; i < expands; i++ {
		var ms, key, ignore float64
		run(b, ctx, "expand all, ↓ through the first rows",
			chromedp.Evaluate(level("99"), &ms, awaitPromise),
			settled(),
			chromedp.Focus(`#outline a.title`),
			chromedp.Evaluate(down(keys), &key, awaitPromise),
		)
		if i < expands-1 {
			run(b, ctx, "back to level 2", chromedp.Evaluate(level("2"), &ignore, awaitPromise), settled())
		}
		expand, first = expand+ms, first+key
	}
	for more := true; more; {
		run(b, ctx, "load every row", chromedp.Evaluate(`(() => { const m = window.__more = document.querySelector("#outline li.node-more"); m?.scrollIntoView(); return !!m; })()`, &more))
		if more {
			run(b, ctx, "the rows that follow come", waitJS(`!window.__more.isConnected`))
		}
	}
	var rows int
	run(b, ctx, "count the rows",
		settled(),
		chromedp.Evaluate(`document.querySelectorAll('#outline li.node').length`, &rows),
		chromedp.Focus(`#outline a.title`),
	)
	if rows < 10000 {
		b.Fatalf("the outline shows %d rows, want all 10,011 of levels 1-4", rows)
	}
	var per, total float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run(b, ctx, "press ↓", chromedp.Evaluate(down(keys), &per, awaitPromise))
		total += per
	}
	b.ReportMetric(expand/expands, "ms/expandall")
	b.ReportMetric(first/expands, "ms/key")
	b.ReportMetric(total/float64(b.N), "ms/keyall")
	b.ReportMetric(float64(rows), "rows")
}

// awaitPromise makes chromedp.Evaluate wait for the promise it returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// BenchmarkBrowserDiagram5k opens the diagram page of a 5,011-page plan
// in Chromium, each time after an edit so that the server draws it anew:
// how long from the navigation until the drawing is fitted and a frame
// painted (ms/open, the server's drawing included); what a zoom step
// costs, from the wheel to the second frame after it, with the whole plan
// in view (ms/zoom; a frame is 16.7 ms) and zoomed in on a page until its
// words can be read (ms/zoomread); and the first arrow key on the canvas,
// which learns where all the cards are (ms/firstkey).
func BenchmarkBrowserDiagram5k(b *testing.B) {
	ctx, base, db := browser(b)
	bg := context.Background()
	pid, err := db.Projects.ImportDocument(bg, 1, sitegen.Document("Bench", 10, 10, 49))
	if err != nil {
		b.Fatal(err)
	}
	tr, err := db.Pages.Tree(bg, pid)
	if err != nil {
		b.Fatal(err)
	}
	home := tr.Roots(site.PlacementMain)[0]
	const zooms = 20
	// wheel turns the wheel over the canvas's middle, in and out by turns,
	// and returns the time a step takes to the second frame after it.
	wheel := fmt.Sprintf(`(async () => {
		const c = document.querySelector('.diagram-canvas'), r = c.getBoundingClientRect();
		const frame = () => new Promise(f => requestAnimationFrame(() => requestAnimationFrame(f)));
		await frame();
		const t0 = performance.now();
		for (let i = 0; i < %d; i++) {
			c.dispatchEvent(new WheelEvent('wheel', {deltaY: i %% 2 ? 100 : -100, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true}));
			await frame();
		}
		return (performance.now() - t0) / %d;
	})()`, zooms, zooms)
	var open, zoom, zoomRead, key, scale float64
	var cards int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pg, err := db.Pages.Page(bg, home.ID)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.Pages.RenamePage(bg, pg.ID, fmt.Sprintf("Home %d", i), pg.Version); err != nil {
			b.Fatal(err)
		}
		var o, z, zr, k float64
		run(b, ctx, "open the diagram",
			chromedp.Navigate(fmt.Sprintf("%s/projects/%d/diagram", base, pid)),
			waitJS(`!!document.querySelector('.diagram-canvas')?.view`),
			chromedp.Evaluate(`new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)))`, &o, awaitPromise),
			chromedp.Evaluate(`document.querySelector('.diagram-canvas').drawing.boxes().list.length`, &cards),
			chromedp.Evaluate(wheel, &z, awaitPromise),
			chromedp.Evaluate(`(() => {
				const c = document.querySelector('.diagram-canvas');
				c.focus();
				const t0 = performance.now();
				c.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true, cancelable: true}));
				if (!c.drawing.marked('selected')) throw new Error('→ selected no card');
				return performance.now() - t0;
			})()`, &k),
			chromedp.KeyEvent("@", chromedp.KeyModifiers(input.ModifierShift)), // Shift+2: zoom to the selected page
			waitJS(`document.querySelector('.diagram-canvas').view.k > 0.5`),
			chromedp.Evaluate(`document.querySelector('.diagram-canvas').view.k`, &scale),
			chromedp.Evaluate(wheel, &zr, awaitPromise),
		)
		open, zoom, zoomRead, key = open+o, zoom+z, zoomRead+zr, key+k
	}
	if cards < 5000 {
		b.Fatalf("the diagram shows %d cards, want all 5,011", cards)
	}
	n := float64(b.N)
	b.ReportMetric(open/n, "ms/open")
	b.ReportMetric(zoom/n, "ms/zoom")
	b.ReportMetric(zoomRead/n, "ms/zoomread")
	b.ReportMetric(scale, "scale/read") // the zoom zoomread starts from: 1 is the PDF's size
	b.ReportMetric(key/n, "ms/firstkey")
	b.ReportMetric(float64(cards), "cards")
}

// BenchmarkBrowserEstimate10k times the live estimate in Chromium, on a
// 10,111-page plan with full briefs priced by a rate card, the Summary
// panel open: a page added as a person adds one (its title typed in the
// outline's new row, Enter) until the panel's total has changed and a
// frame is painted after it (ms/estimate: the write, then the panel's
// request, its answer and the swap), beside the same
// edit until the page shows in the outline and a frame is painted
// (ms/edit, the yardstick measured in the same run).
func BenchmarkBrowserEstimate10k(b *testing.B) {
	ctx, base, db := browser(b)
	bg := context.Background()
	pid, err := db.Projects.ImportDocument(bg, 1, sitegen.Briefs(sitegen.Document("Bench", 10, 10, 99)))
	if err != nil {
		b.Fatal(err)
	}
	card, err := site.ParseRateCard(strings.NewReader(site.ExampleRateCard))
	if err != nil {
		b.Fatal(err)
	}
	if err := db.RateCards.SetRateCard(bg, 1, 0, card); err != nil {
		b.Fatal(err)
	}
	run(b, ctx, "open the editor and its Summary panel",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=2", base, pid)),
		waitJS(scriptReady),
		chromedp.Click(`//button[normalize-space(.)="Summary"]`, chromedp.BySearch),
		chromedp.WaitVisible(`#estimate-total`, chromedp.ByQuery),
		settled(),
		chromedp.Click(`//button[contains(., "Add Main page")]`, chromedp.BySearch),
		waitJS(fieldFocused),
	)
	// add types a title into the focused new row and presses Enter, then
	// resolves with [ms to the page shown, ms to the new total shown].
	add := func(title string) string {
		return `(async () => {
			const rendered = () => new Promise(r => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); }));
			const title = ` + strconv.Quote(title) + `;
			const before = document.querySelector("#estimate-total").textContent;
			const when = (test) => new Promise(r => {
				if (test()) return r();
				const o = new MutationObserver(() => { if (test()) { o.disconnect(); r(); } });
				o.observe(document.body, {subtree: true, childList: true, characterData: true});
			});
			const shown = when(() => [...document.querySelectorAll("#outline a.title")].some(a => a.textContent === title));
			const priced = when(() => { const t = document.querySelector("#estimate-total"); return !!t && t.textContent !== before; });
			const field = document.activeElement;
			const start = performance.now();
			field.value = title;
			field.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true, cancelable: true}));
			await shown; await rendered();
			const edit = performance.now() - start;
			await priced; await rendered();
			return [edit, performance.now() - start];
		})()`
	}
	var edit, estimate float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var ms []float64
		run(b, ctx, "add a page",
			chromedp.Evaluate(add(fmt.Sprintf("Added %d", i)), &ms, awaitPromise),
			// Enter opened the next row: its field has the keyboard.
			waitJS(fieldFocused+` && document.activeElement.value === ""`),
			settled(),
		)
		edit, estimate = edit+ms[0], estimate+ms[1]
	}
	b.ReportMetric(edit/float64(b.N), "ms/edit")
	b.ReportMetric(estimate/float64(b.N), "ms/estimate")
}
