package site

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Brief is what a page must say and how it will be found: its SEO
// fields, its content blocks in order, a word-count target, who writes
// it and by when. The zero Brief is an empty one. Its JSON is the
// siteplan/1 document's "brief" object.
type Brief struct {
	SEOTitle        string  `json:"seo_title,omitempty"`
	MetaDescription string  `json:"meta_description,omitempty"`
	H1              string  `json:"h1,omitempty"`
	Keyword         string  `json:"keyword,omitempty"` // the one search phrase the page is for
	Intent          string  `json:"intent,omitempty"`  // one of Intents
	Blocks          []Block `json:"blocks,omitempty"`
	WordTarget      int     `json:"word_target,omitempty"`
	Owner           string  `json:"owner,omitempty"` // who writes the content
	Due             string  `json:"due,omitempty"`   // YYYY-MM-DD
}

// Block is one content block of a brief: a kind of BlockKinds and a
// short note of what goes in it.
type Block struct {
	Kind string `json:"kind"`
	Note string `json:"note,omitempty"`
	// Required, in a page type's template, says every page of the type
	// must give blocks of this kind a note (Lint checks it); a page's
	// own blocks do not carry it.
	Required bool `json:"required,omitempty"`
}

// Search intents.
const (
	IntentInformational = "informational"
	IntentNavigational  = "navigational"
	IntentCommercial    = "commercial"
	IntentTransactional = "transactional"
)

// Intents lists the search intents in display order.
var Intents = []string{IntentInformational, IntentNavigational, IntentCommercial, IntentTransactional}

// BlockKinds is the vocabulary of content blocks, in display order.
var BlockKinds = []string{"hero", "text", "image", "gallery", "video", "cards", "table", "form", "faq", "testimonial", "cta", "related", "custom"}

// BlockLabels name the kinds of block as people read them.
var BlockLabels = map[string]string{"hero": "Hero", "text": "Text", "image": "Image", "gallery": "Gallery", "video": "Video",
	"cards": "Cards", "table": "Table", "form": "Form", "faq": "FAQ", "testimonial": "Testimonial", "cta": "Call to action",
	"related": "Related pages", "custom": "Custom"}

// Bounds of a brief.
const (
	MaxBlocks     = 50
	MaxBlockNote  = 500
	MaxWordTarget = 100_000
	MaxSEOText    = 500 // a title, description or H1; the checks say what search engines show
)

// Empty reports whether the brief says nothing.
func (b *Brief) Empty() bool {
	return b.SEOTitle == "" && b.MetaDescription == "" && b.H1 == "" && b.Keyword == "" && b.Intent == "" &&
		len(b.Blocks) == 0 && b.WordTarget == 0 && b.Owner == "" && b.Due == ""
}

// Equal reports whether two briefs say the same.
func (b *Brief) Equal(o *Brief) bool {
	return b.SEOTitle == o.SEOTitle && b.MetaDescription == o.MetaDescription && b.H1 == o.H1 && b.Keyword == o.Keyword &&
		b.Intent == o.Intent && slices.Equal(b.Blocks, o.Blocks) && b.WordTarget == o.WordTarget && b.Owner == o.Owner && b.Due == o.Due
}

// Clone returns a copy that shares nothing with b.
func (b Brief) Clone() Brief {
	b.Blocks = slices.Clone(b.Blocks)
	return b
}

// Filled counts the parts of a brief a page needs before it is written
// (SEO title, description, H1, keyword, blocks), of BriefParts.
func (b *Brief) Filled() int {
	n := 0
	for _, ok := range []bool{b.SEOTitle != "", b.MetaDescription != "", b.H1 != "", b.Keyword != "", len(b.Blocks) > 0} {
		if ok {
			n++
		}
	}
	return n
}

// BriefParts is how many parts Filled counts.
const BriefParts = 5

// normalize trims the brief's text and lower-cases its vocabulary.
func (b *Brief) normalize() {
	for _, s := range []*string{&b.SEOTitle, &b.MetaDescription, &b.H1, &b.Keyword, &b.Owner, &b.Due} {
		*s = strings.TrimSpace(*s)
	}
	b.Intent = strings.ToLower(strings.TrimSpace(b.Intent))
	for i := range b.Blocks {
		b.Blocks[i].Kind = strings.ToLower(strings.TrimSpace(b.Blocks[i].Kind))
		b.Blocks[i].Note = strings.TrimSpace(b.Blocks[i].Note)
	}
	if len(b.Blocks) == 0 {
		b.Blocks = nil
	}
}

// validate normalises the brief and adds a message for each field that
// is wrong to f, named "brief.FIELD" (a block's "brief.blocks.N").
func (b *Brief) validate(f FieldErrors) {
	b.normalize()
	for i := range b.Blocks {
		b.Blocks[i].Required = false // a template's, not a page's
	}
	for _, t := range []struct {
		field, what, s string
		max            int
	}{
		{"seo_title", "SEO title", b.SEOTitle, MaxSEOText},
		{"meta_description", "Meta description", b.MetaDescription, MaxSEOText},
		{"h1", "H1", b.H1, MaxSEOText},
		{"keyword", "Keyword", b.Keyword, MaxShortLen},
		{"owner", "Content owner", b.Owner, MaxShortLen},
	} {
		if msg := TextProblem(t.what, t.s, t.max, false); msg != "" {
			f.Add("brief."+t.field, msg)
		}
	}
	if b.Intent != "" && !slices.Contains(Intents, b.Intent) {
		f.Add("brief.intent", "Intent must be one of "+strings.Join(Intents, ", ")+".")
	}
	if len(b.Blocks) > MaxBlocks {
		f.Add("brief.blocks", fmt.Sprintf("A brief has at most %d blocks.", MaxBlocks))
	}
	for i, bl := range b.Blocks {
		if msg := blockProblem(i, bl); msg != "" {
			f.Add(fmt.Sprintf("brief.blocks.%d", i), msg)
		}
	}
	if b.WordTarget < 0 || b.WordTarget > MaxWordTarget {
		f.Add("brief.word_target", fmt.Sprintf("Word target must be a number from 0 to %s.", Thousands(MaxWordTarget)))
	}
	if b.Due != "" {
		if _, err := time.Parse(time.DateOnly, b.Due); err != nil {
			f.Add("brief.due", "Due date must be a date such as 2026-12-15.")
		}
	}
}

// BlocksText is a list of blocks in words: "Hero: Big photo · Text · FAQ".
func BlocksText(blocks []Block) string {
	parts := make([]string, len(blocks))
	for i, b := range blocks {
		parts[i] = cmp.Or(BlockLabels[b.Kind], b.Kind)
		if b.Note != "" {
			parts[i] += ": " + b.Note
		}
	}
	return strings.Join(parts, " · ")
}

// BriefProblem normalises a brief and checks it: "" when it is right,
// else the first thing wrong with it.
func BriefProblem(b *Brief) string {
	f := FieldErrors{}
	b.validate(f)
	if len(f) == 0 {
		return ""
	}
	return firstField(f.Err(), nil)
}

// BlockLines writes blocks a line each, "kind: note" ("kind" without a
// note), a block whose note a template requires after "* ".
func BlockLines(blocks []Block) string { return string(AppendBlockLines(nil, blocks)) }

// AppendBlockLines appends BlockLines' text to b: a large inventory
// writes a plan's blocks without a string for each.
func AppendBlockLines(b []byte, blocks []Block) []byte {
	for i, bl := range blocks {
		if i > 0 {
			b = append(b, '\n')
		}
		if bl.Required {
			b = append(b, "* "...)
		}
		b = append(b, bl.Kind...)
		if bl.Note != "" {
			b = append(append(b, ": "...), bl.Note...)
		}
	}
	return b
}

// ParseBlockLines reads blocks as BlockLines writes them, a kind as
// stored or as BlockLabels names it ("Call to action: Buy"), in any
// case; blank lines are skipped. The kinds are checked where the blocks
// are (Page.Validate, NormalizeBlocks).
func ParseBlockLines(s string) []Block {
	var out []Block
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		required := strings.HasPrefix(line, "*")
		kind, note, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "*")), ":")
		if kind = strings.ToLower(strings.TrimSpace(kind)); kind == "" {
			continue
		}
		for k, l := range BlockLabels {
			if strings.EqualFold(l, kind) {
				kind = k
			}
		}
		out = append(out, Block{Kind: kind, Note: strings.TrimSpace(note), Required: required})
	}
	return out
}

// blockProblem says what is wrong with block i (from 0), or "".
func blockProblem(i int, bl Block) string {
	if !slices.Contains(BlockKinds, bl.Kind) {
		return fmt.Sprintf("Block %d: kind %q is not one of %s.", i+1, clip(bl.Kind), strings.Join(BlockKinds, ", "))
	}
	return TextProblem(fmt.Sprintf("Block %d's note", i+1), bl.Note, MaxBlockNote, false)
}

// NormalizeBlocks trims a list of blocks (a page type's template) and
// checks it as a brief's. Errors: EInvalid, naming the first block that
// is wrong.
func NormalizeBlocks(blocks []Block) ([]Block, error) {
	b := Brief{Blocks: blocks}
	b.normalize()
	if len(b.Blocks) > MaxBlocks {
		return nil, Errorf(EInvalid, "A template has at most %d blocks.", MaxBlocks)
	}
	for i, bl := range b.Blocks {
		if msg := blockProblem(i, bl); msg != "" {
			return nil, Errorf(EInvalid, "%s", msg)
		}
	}
	return b.Blocks, nil
}

// NormalizePostType checks a WordPress post type a page type hands off
// as: "" and "page" are a page (""); else what WordPress takes as a post
// type's key, at most 20 lower-case letters, digits, - or _ ("post",
// "product"). Errors: EInvalid.
func NormalizePostType(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "page" {
		return "", nil
	}
	if len(s) > 20 || strings.TrimLeft(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
		return "", &Error{Code: EInvalid, Message: "A WordPress post type is at most 20 lower-case letters, digits, - and _, such as post or product.",
			Fields: map[string]string{"post_type": "At most 20 lower-case letters, digits, - and _, such as post or product."}}
	}
	return s, nil
}
