package site

import (
	"strconv"
	"strings"
	"testing"
)

func TestLastmodProblem(t *testing.T) {
	ok := []string{"", "2026-11-01", "2026-11-01T10:00:00+01:00", "2026-11-01T10:00Z", "2026-11-01T10:00:00.123Z", "2024-02-29"}
	bad := map[string]string{
		"2026-11-01T10:00:00": "no time zone",
		"2026-13-01":          "not a real date",
		"2023-02-29":          "not a real date",
		"01.11.2026":          "must be a date",
		"2026":                "must be a date",
		"2026-11-01T25:00Z":   "not a real date and time",
	}
	for _, s := range ok {
		if p := LastmodProblem(s); p != "" {
			t.Errorf("LastmodProblem(%q) = %q, want none", s, p)
		}
	}
	for s, want := range bad {
		if p := LastmodProblem(s); !strings.Contains(p, want) {
			t.Errorf("LastmodProblem(%q) = %q, want it to say %q", s, p, want)
		}
	}
}

func TestFormatPriority(t *testing.T) {
	for in, want := range map[float64]string{0: "0.0", 0.25: "0.25", 1: "1.0", 0.5: "0.5", 0.1: "0.1", 0.000001: "0.000001"} {
		if got := FormatPriority(in); got != want {
			t.Errorf("FormatPriority(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestParsePriority(t *testing.T) {
	tests := []struct {
		in      string
		want    float64 // when ok
		ok      bool
		problem string // part of the message when not ok
	}{
		{"0.8", 0.8, true, ""},
		{"0,8", 0.8, true, ""},
		{" 0,25 ", 0.25, true, ""},
		{",5", 0.5, true, ""},
		{"1", 1, true, ""},
		{"1,", 1, true, ""},
		{"1,5", 0, false, "between 0.0 and 1.0"},
		{"0,5,1", 0, false, "such as 0.8 or 0,8"},
		{"0.5,1", 0, false, "such as 0.8 or 0,8"},
		{"1e-1", 0, false, "such as 0.8 or 0,8"},
		{"0x1p-2", 0, false, "such as 0.8 or 0,8"},
		{"NaN", 0, false, "such as 0.8 or 0,8"},
		{"Inf", 0, false, "such as 0.8 or 0,8"},
		{"high", 0, false, "such as 0.8 or 0,8"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, msg := ParsePriority(tt.in)
			if tt.ok {
				if msg != "" || got == nil || *got != tt.want {
					t.Fatalf("ParsePriority(%q) = %v, %q, want %v", tt.in, got, msg, tt.want)
				}
				return
			}
			if !strings.Contains(msg, tt.problem) {
				t.Errorf("ParsePriority(%q) message = %q, want it to say %q", tt.in, msg, tt.problem)
			}
		})
	}
	if got, msg := ParsePriority(""); got != nil || msg != "" {
		t.Errorf(`ParsePriority("") = %v, %q, want nil, ""`, got, msg)
	}
}

// TestValidateDerivesSlug: a slug that follows the title is derived from
// the trimmed title as the page is checked; a typed one is kept.
func TestValidateDerivesSlug(t *testing.T) {
	p := NewPage("About")
	p.Title = "  Über uns "
	if err := p.Validate(); err != nil || p.Slug != Slugify("Über uns") || p.Title != "Über uns" {
		t.Errorf("Validate() = %v, title %q, slug %q, want slug %q", err, p.Title, p.Slug, Slugify("Über uns"))
	}
	p.Title, p.Slug, p.SlugAuto = "Team", "people", false
	if err := p.Validate(); err != nil || p.Slug != "people" {
		t.Errorf("a typed slug: %v, %q", err, p.Slug)
	}
}

func TestPageValidate(t *testing.T) {
	one5 := 1.5
	tests := []struct {
		name  string
		edit  func(*Page)
		field string
	}{
		{"empty title", func(p *Page) { p.Title = "  " }, "title"},
		{"slug with slash", func(p *Page) { p.Slug, p.SlugAuto = "a/b", false }, "slug"},
		{"priority 1.5", func(p *Page) { p.Priority = &one5 }, "priority"},
		{"unknown kind", func(p *Page) { p.Kind = "folder" }, "kind"},
		{"unknown status", func(p *Page) { p.Status = "done?" }, "status"},
		{"unknown changefreq", func(p *Page) { p.Changefreq = "Weekly" }, "changefreq"},
		{"lastmod without zone", func(p *Page) { p.Lastmod = "2026-11-01T10:00:00" }, "lastmod"},
		{"relative path override", func(p *Page) { p.Path = "x/y" }, "path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPage("About")
			tt.edit(&p)
			err := p.Validate()
			if ErrorCode(err) != EInvalid {
				t.Fatalf("Validate() = %v, want invalid", err)
			}
			if ErrorFields(err)[tt.field] == "" {
				t.Errorf("Validate() fields = %v, want a message for %q", ErrorFields(err), tt.field)
			}
		})
	}
	p := NewPage("Über uns & mehr")
	if err := p.Validate(); err != nil {
		t.Fatalf("valid page: %v", err)
	}
	if p.Slug != "uber-uns-and-mehr" {
		t.Errorf("derived slug = %q, want %q", p.Slug, "uber-uns-and-mehr")
	}
}

func TestParseOutline(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"tabs", "A\n\tB\n\t\tC\n\tD\nE", "A(B(C)D)E"},
		{"two spaces", "A\n  B\n    C\n  D", "A(B(C)D)"},
		{"four spaces and bullets", "- A\n    - B\n        * C\nE", "A(B(C))E"},
		{"jump clamps to one level", "A\n\t\t\tB\n\t\t\t\tC\n\tD", "A(B(C)D)"},
		{"blank lines and CRLF", "A\r\n\r\n  B\r\n", "A(B)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := ParseOutline(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := outlineString(items); got != tt.want {
				t.Errorf("ParseOutline(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
	if _, err := ParseOutline(" \n\t\n"); ErrorCode(err) != EInvalid {
		t.Errorf("empty outline: err = %v, want invalid", err)
	}
}

func outlineString(items []*OutlineItem) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.Title)
		if len(it.Children) > 0 {
			b.WriteString("(" + outlineString(it.Children) + ")")
		}
	}
	return b.String()
}

// TestTextRules: every text a person types is valid UTF-8 without control
// characters (notes keep line breaks and tabs), and limits count
// characters, not bytes.
func TestTextRules(t *testing.T) {
	cjk := strings.Repeat("日本語", 40) // 120 characters, 360 bytes
	tests := []struct {
		name  string
		edit  func(*Page)
		field string // "" when valid
	}{
		{"120 Japanese characters", func(p *Page) { p.Title = cjk }, ""},
		{"301 characters", func(p *Page) { p.Title = strings.Repeat("é", 301) }, "title"},
		{"a bell in the title", func(p *Page) { p.Title = "Ring\x07" }, "title"},
		{"a C1 control in the type", func(p *Page) { p.Type = "landing\u0085" }, "type"},
		{"invalid UTF-8 in the assignee", func(p *Page) { p.Assignee = "Ana \xff" }, "assignee"},
		{"notes keep lines and tabs", func(p *Page) { p.Notes = "first\n\tsecond\r\n" }, ""},
		{"notes refuse an escape", func(p *Page) { p.Notes = "colour \x1b[31m" }, "notes"},
		{"invalid UTF-8 in a slug", func(p *Page) { p.Slug, p.SlugAuto = "a\xffb", false }, "slug"},
		{"a C1 control in a slug", func(p *Page) { p.Slug, p.SlugAuto = "a\u0085b", false }, "slug"},
		{"a line separator in a slug", func(p *Page) { p.Slug, p.SlugAuto = "a\u2028b", false }, "slug"},
		{"a C1 control in a path", func(p *Page) { p.Path = "/a\u0085b" }, "path"},
		{"a line separator in a title", func(p *Page) { p.Title = "Line\u2028two" }, "title"},
		{"notes keep a paragraph separator", func(p *Page) { p.Notes = "one\u2029two" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPage("Page")
			tt.edit(&p)
			fields := ErrorFields(p.Validate())
			if tt.field == "" && len(fields) > 0 {
				t.Errorf("refused: %v", fields)
			}
			if tt.field != "" && fields[tt.field] == "" {
				t.Errorf("accepted; want a message on %s (got %v)", tt.field, fields)
			}
		})
	}
	if err := ValidateComment("Zoë\x00", "hi"); ErrorFields(err)["author"] == "" {
		t.Error("a NUL in a commenter's name was accepted")
	}
	if err := ValidateComment("Zoë", "line one\nline two"); err != nil {
		t.Errorf("a two-line comment was refused: %v", err)
	}
}

// TestNameRules: the names others see beside what their bearer did
// (approvers, commenters, accounts, teams, share-link labels) hold no
// invisible character that would let one pass for another, while the
// joiners that scripts and emoji need between letters stay.
func TestNameRules(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"Carla Client", true},
		{"Zoë Ödegaard", true},
		{"می\u200cخواهم", true},      // Persian: a non-joiner between letters
		{"👩\u200d💻 Dev", true},       // an emoji sequence
		{"\u202eilaK", false},        // right-to-left override
		{"Carla\u2066Client", false}, // an isolate
		{"Carla\u200bClient", false}, // zero-width space
		{"\u200dCarla", false},       // a joiner at the edge
		{"Carla\ufeff", false},       // byte order mark
		{"Carla\u2028Client", false}, // line separator
		{"Carla\u0085Client", false}, // C1 control
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checks := map[string]error{}
			_, checks["approver"] = ValidateApprover(tt.name)
			checks["commenter"] = ValidateComment(tt.name, "hi")
			checks["account"] = ValidateAccount("a@b.example", tt.name, "long enough password")
			checks["team"] = ValidateTeamName(tt.name)
			for what, err := range checks {
				if (err == nil) != tt.ok {
					t.Errorf("%s %q: got %v, want ok %v", what, tt.name, err, tt.ok)
				}
			}
			if got := NameProblem("The label", tt.name, MaxName) == ""; got != tt.ok {
				t.Errorf("label %q: ok %v, want %v", tt.name, got, tt.ok)
			}
		})
	}
}

// TestCompareOrder: a change of order among the same siblings is in the
// comparison, as the fewest pages whose moves explain it; pages added or
// removed beside them change no one's order.
func TestCompareOrder(t *testing.T) {
	p := Project{ID: 1, Name: "T", BaseURL: "https://example.com/"}
	tree := func(order ...int64) *Tree {
		pages := []Page{{ID: 1, Title: "Home", Placement: PlacementMain, Kind: KindPage}}
		for i, id := range order {
			pages = append(pages, Page{ID: id, ParentID: 1, Position: i, Title: "P" + strconv.FormatInt(id, 10), Slug: "p" + strconv.FormatInt(id, 10), Kind: KindPage, Placement: PlacementMain})
		}
		return NewTree(p, pages)
	}
	for _, tt := range []struct {
		from, to []int64
		want     string
	}{
		{[]int64{2, 3, 4, 5}, []int64{2, 3, 4, 5}, ""},
		{[]int64{2, 3, 4, 5}, []int64{5, 2, 3, 4}, "P5 4 of 4 → 1 of 4"},
		{[]int64{2, 3, 4, 5}, []int64{3, 2, 4, 5}, "P3 2 of 4 → 1 of 4"},
		{[]int64{2, 3, 4, 5}, []int64{2, 4, 5}, ""},                                                              // 3 removed
		{[]int64{2, 3, 4}, []int64{2, 9, 3, 4}, ""},                                                              // 9 added
		{[]int64{2, 3, 4, 5}, []int64{5, 4, 3, 2}, "P5 4 of 4 → 1 of 4, P4 3 of 4 → 2 of 4, P3 2 of 4 → 3 of 4"}, // three of four, one stays
	} {
		c := Compare(tree(tt.from...), tree(tt.to...), nil, nil)
		var got []string
		for _, e := range c.Reordered {
			got = append(got, e.Title+" "+e.From+" → "+e.To)
		}
		if strings.Join(got, ", ") != tt.want {
			t.Errorf("%v → %v: got %q, want %q", tt.from, tt.to, strings.Join(got, ", "), tt.want)
		}
		if c.Empty() != (tt.want == "" && len(tt.from) == len(tt.to)) {
			t.Errorf("%v → %v: empty %v", tt.from, tt.to, c.Empty())
		}
	}
}

// TestSlugAdvice: a typed slug with spaces, capitals or ASCII marks that
// print percent-encoded is told with what it reads as and Slugify's
// form; one that reads well, or in another script, passes.
func TestSlugAdvice(t *testing.T) {
	tests := []struct{ slug, want string }{
		{"camp-kitchen", ""},
		{"café", ""},
		{"日本語", ""},
		{"v1.2_beta~x", ""},
		{"Camp Kitchen Stuff", "the slug “Camp Kitchen Stuff” has spaces and capitals: its URL reads “…/Camp%20Kitchen%20Stuff”; use “camp-kitchen-stuff”"},
		{"tents&tarps", "the slug “tents&tarps” has “&”: its URL reads “…/tents&tarps”; use “tentsandtarps”"},
		{"About", "the slug “About” has capitals: its URL reads “…/About”; use “about”"},
		{"a+b=c", "the slug “a+b=c” has “+”, “=”: its URL reads “…/a+b=c”; use “a-b-c”"},
	}
	for _, tt := range tests {
		if got := SlugAdvice(tt.slug); got != tt.want {
			t.Errorf("SlugAdvice(%q) = %q, want %q", tt.slug, got, tt.want)
		}
		if tt.want == "" && SlugAdvice(Slugify(tt.slug)) != "" {
			t.Errorf("Slugify(%q) = %q is advised against", tt.slug, Slugify(tt.slug))
		}
	}
}
