package web

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserTokens: a person makes an API token on their account page
// (their name in the top bar): shown once, it works against the API;
// the list shows it without the secret, and Revoke ends it. axe-core
// finds no violation on the page.
func TestBrowserTokens(t *testing.T) {
	ctx, base, db := browser(t)
	var token, list string
	run(t, ctx, "the account page, a token made",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`a.user-name`, chromedp.ByQuery),
		chromedp.Click(`a.user-name`, chromedp.ByQuery),
		chromedp.WaitVisible(`#my-tokens-name`, chromedp.ByQuery),
		settled(),
		chromedp.SendKeys(`#my-tokens-name`, "CI staging check", chromedp.ByQuery),
		chromedp.SetValue(`#my-tokens-scope`, "write", chromedp.ByQuery),
		chromedp.Click(`.token-form button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#my-tokens-new`, chromedp.ByQuery),
		chromedp.Value(`#my-tokens-new`, &token, chromedp.ByQuery),
		chromedp.Text(`.tokens-list`, &list, chromedp.ByQuery),
	)
	if !strings.HasPrefix(token, "sp_") || strings.Contains(list, token) || !strings.Contains(list, "CI staging check") || !strings.Contains(list, "never used") {
		t.Fatalf("the token %q, the list %q", token, list)
	}
	if v := axeViolations(t, ctx); len(v) > 0 {
		t.Errorf("axe on the account page: %q", v)
	}
	screenshot(t, ctx, "account-tokens.png")
	use, err := db.Tokens.UseToken(context.Background(), token)
	if err != nil || use.Token.Scope != "write" {
		t.Fatalf("the token made: %+v, %v", use, err)
	}
	run(t, ctx, "revoke it",
		chromedp.Evaluate(`window.confirm = () => true`, nil),
		settled(),
		chromedp.Click(`.tokens-list button.danger`, chromedp.ByQuery),
		waitJS(`document.querySelector(".tokens-list")?.textContent.includes("revoked") && !document.querySelector(".tokens-list button.danger")`),
	)
	if _, err := db.Tokens.UseToken(context.Background(), token); err == nil {
		t.Errorf("the revoked token still works")
	}
	noProblems(t, ctx, "API tokens")
}
