package web

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"siteplan/site"
)

// svgLegend reads a drawing's legend: each colour's words (a type after
// its mark) and its swatch.
func svgLegend(t *testing.T, svg string) map[string]string {
	t.Helper()
	i := strings.Index(svg, `id="legend"`)
	if i < 0 {
		t.Fatalf("no legend in the drawing")
	}
	legend := svg[i : i+strings.Index(svg[i:], "</g>")]
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`fill="(#[0-9a-f]{6})"/>\s*<text[^>]*>([^<]+)</text>`).FindAllStringSubmatch(legend, -1) {
		out[m[2]] = m[1]
	}
	return out
}

// TestTypeColoursTeamWide: the outline's type chips, the diagram and its
// legend show each type in the team's colour, no two types alike; a
// colour the team chooses on the team page shows in all of them, with a
// mark when another type has that colour too.
func TestTypeColoursTeamWide(t *testing.T) {
	c := newClient(t)
	d := &site.Document{Format: site.FormatV1, Project: site.DocProject{Name: "Aurora", BaseURL: "https://aurora.example/"}}
	// The collisions: "blog index" and "category", "landing" and
	// "product" shared a swatch.
	types := []string{"landing", "product", "blog index", "category", "article", "support", "location", "about", "sales"}
	for _, ty := range types {
		d.Pages = append(d.Pages, &site.DocPage{Title: "A " + ty, Type: ty})
	}
	pid, err := c.db.Projects.ImportDocument(context.Background(), 1, d)
	if err != nil {
		t.Fatal(err)
	}
	p := "/projects/" + itoa(pid)
	// check reads the outline's chips and the diagram's legend; want
	// says how some types must look ("◆ product #6d9eeb").
	check := func(when string, want map[string]string) {
		t.Helper()
		chips := map[string]string{}
		doc(t, c.do("GET", p, nil, false)).Find(".row .type").Each(func(_ int, s *goquery.Selection) {
			color, _ := s.Attr("data-color")
			chips[strings.Join(strings.Fields(s.Text()), " ")+" "+color] = s.Text()
		})
		legend := svgLegend(t, c.do("GET", p+"/diagram/svg", nil, false).Body.String())
		seen := map[string]string{}
		for _, ty := range types {
			look := legendLook(legend, ty)
			if w := want[ty]; w != "" && look != w {
				t.Errorf("%s: the legend shows %q as %s, want %s", when, ty, look, w)
			}
			mark, _, _ := strings.Cut(look, " ")
			alike := look[len(look)-7:] // the colour
			if strings.ContainsAny(mark, "◆●▲■★✚") {
				alike += mark
			}
			if other, dup := seen[alike]; dup {
				t.Errorf("%s: %q (%s) looks like %q in the legend", when, ty, look, other)
			}
			seen[alike] = ty
			if _, ok := chips[look]; !ok {
				t.Errorf("%s: the outline has no chip %s as the legend shows it; its chips: %v", when, look, chips)
			}
		}
	}
	check("defaults", nil)

	// Product takes landing's colour: both show it, product with a mark.
	form := url.Values{}
	pal, _ := c.db.Themes.TeamPalette(context.Background(), 1)
	for _, ty := range pal.Types {
		form.Add("type", ty.Type)
		form.Add("color", ty.Color)
	}
	landing := pal.Of("landing").Color
	form["color"][1] = strings.ToUpper(landing) // product's
	rec := c.do("POST", "/team/type-colors", form, true)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "Saved") {
		t.Fatalf("save colours: %d %s", rec.Code, rec.Body)
	}
	check("product chose landing's colour", map[string]string{"product": "◆ product " + landing})

	form["color"][1] = "teal"
	rec = c.do("POST", "/team/type-colors", form, true)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "The colour of “product” must be written #rrggbb") {
		t.Errorf("a colour not #rrggbb: %d %s", rec.Code, rec.Body)
	}
	rec = c.do("POST", "/team/type-colors", url.Values{"type": {"product"}, "color": {"#000000"}, "reset": {"1"}}, true)
	if rec.Code != 200 {
		t.Fatalf("back to the defaults: %d %s", rec.Code, rec.Body)
	}
	check("back to the defaults", nil)
}

// legendLook is how the legend shows a type: its words (mark and name)
// and swatch, "◆ product #6d9eeb".
func legendLook(legend map[string]string, ty string) string {
	for words, fill := range legend {
		if words == ty || strings.HasSuffix(words, " "+ty) {
			return words + " " + fill
		}
	}
	return "(none)"
}
