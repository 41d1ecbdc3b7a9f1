package web

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"siteplan/site"
)

// BenchmarkBrowserOutline10k opens a 10,111-page plan expanded to all
// levels in Chromium and walks it with ↓: how long until every row is
// on the page and a frame is drawn (ms/open), and what one ↓ costs in
// the page, from the key to the new selection laid out (ms/key; a frame
// is 16.7 ms).
func BenchmarkBrowserOutline10k(b *testing.B) {
	ctx, base, db := browser(b)
	pid, err := db.ImportDocument(context.Background(), 1, site.GenerateDocument("Bench", 10, 10, 99))
	if err != nil {
		b.Fatal(err)
	}
	var rows int
	var open float64
	run(b, ctx, "open the whole outline",
		chromedp.Navigate(fmt.Sprintf("%s/projects/%d?level=99", base, pid)),
		chromedp.WaitVisible(`#outline`),
		chromedp.Evaluate(`new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)))`, &open, awaitPromise),
		chromedp.Evaluate(`document.querySelectorAll('#outline li.node').length`, &rows),
		chromedp.Focus(`#outline a.title`),
	)
	if rows < 10000 {
		b.Fatalf("the outline shows %d rows, want all 10,011 of levels 1-4", rows)
	}
	const keys = 50
	var per, total float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run(b, ctx, "press ↓", chromedp.Evaluate(fmt.Sprintf(`(() => {
			const t0 = performance.now();
			for (let k = 0; k < %d; k++) {
				const a = document.activeElement;
				a.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', bubbles: true, cancelable: true}));
				if (document.activeElement === a) throw new Error('↓ did not move from ' + a.textContent);
				document.activeElement.getBoundingClientRect();
			}
			return (performance.now() - t0) / %d;
		})()`, keys, keys), &per))
		total += per
	}
	b.ReportMetric(open, "ms/open")
	b.ReportMetric(total/float64(b.N), "ms/key")
	b.ReportMetric(float64(rows), "rows")
}

// awaitPromise makes chromedp.Evaluate wait for the promise it returns.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }
