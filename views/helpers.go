// Package views holds siteplan's templ components. It imports only site:
// handlers pass plain values in props structs.
package views

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"

	"siteplan/site"
)

// htmxConfig sets htmx up for the content security policy (no inline
// styles or scripts: settling copies no style attribute) and for fresh
// pages on Back and Forward: no history snapshots, a history step
// reloads from the server.
const htmxConfig = `{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"selfRequestsOnly":true,` +
	`"attributesToSettle":["class","width","height"],"historyCacheSize":0,"refreshOnHistoryMiss":true,` +
	`"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},` +
	`{"code":"409","swap":true,"error":false},{"code":"422","swap":true,"error":false},{"code":"[45]..","swap":true,"error":true}]}`

func csrfHeaders(token string) string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": token})
	return string(b)
}

func itoa[T int | int64](n T) string { return strconv.FormatInt(int64(n), 10) }

func projectURL(id int64, parts ...string) string {
	s := "/projects/" + itoa(id)
	for _, p := range parts {
		s += "/" + p
	}
	return s
}

func pageURL(p *site.Page, parts ...string) string {
	return projectURL(p.ProjectID, append([]string{"pages", itoa(p.ID)}, parts...)...)
}

func hxVals(kv ...any) string {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[fmt.Sprint(kv[i])] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func label(s string) string {
	switch s {
	case "in_progress":
		return "in progress"
	case "":
		return "—"
	}
	if w, ok := briefFieldWords[s]; ok {
		return w
	}
	return s
}

// briefFieldWords name the brief's fields where a change lists them.
var briefFieldWords = map[string]string{"seo_title": "SEO title", "meta_description": "meta description", "h1": "H1",
	"word_target": "word target", "content_owner": "content owner", "notes_public": "notes visible to the client"}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func placementTitle(p string) string {
	switch p {
	case site.PlacementUtility:
		return "Utility"
	case site.PlacementFooter:
		return "Footer"
	}
	return "Main"
}

// initials are up to two capital letters of a name ("Ana Ruiz": "AR").
func initials(name string) string {
	var out []rune
	for _, w := range strings.Fields(name) {
		r, _ := utf8.DecodeRuneInString(w)
		out = append(out, unicode.ToUpper(r))
		if len(out) == 2 {
			break
		}
	}
	return string(out)
}

// first returns a, or b if a is empty.
func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sizeText writes a byte count for people: 512 B, 34 KB, 1.2 MB.
func sizeText(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1000_000:
		return strconv.FormatInt((n+500)/1000, 10) + " KB"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
}

// voidPath is the path that voids sign-off id of version number.
func voidPath(projectID int64, number int, id int64) string {
	return projectURL(projectID, "versions", itoa(number), "approvals", itoa(id), "void")
}

// CommentCountLabel is what a row of the outline shows of a page's open
// comment threads: nothing when there are none.
func CommentCountLabel(open int) string {
	if open == 0 {
		return ""
	}
	return "💬 " + itoa(open)
}

// branchOf is what an outline title with pages below it says of its
// branch as an ARIA tree item: that it owns their list, and whether it
// is open (tree.js keeps it true as rows change); nothing for a leaf.
func branchOf(pg *site.Page, open bool) templ.Attributes {
	if pg.ChildCount == 0 {
		return nil
	}
	return templ.Attributes{"aria-owns": "children-" + itoa(pg.ID), "aria-expanded": boolStr(open)}
}

// rowsBelow counts the outline's rows below page id as far as they are
// loaded: the height a list has before the browser lays it out (its
// data-rows, which the style sheet reads).
func rowsBelow(t *site.Tree, id int64) int {
	n := 0
	for _, c := range t.Children(id) {
		n += 1 + rowsBelow(t, c.ID)
	}
	return n
}
