package site

import (
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

func TestPageValidate(t *testing.T) {
	one5 := 1.5
	tests := []struct {
		name  string
		edit  func(*Page)
		field string
	}{
		{"empty title", func(p *Page) { p.Title = "  " }, "title"},
		{"slug with slash", func(p *Page) { p.Slug = "a/b" }, "slug"},
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
