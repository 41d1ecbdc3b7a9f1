package site

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Mermaid in: a flowchart or a mindmap, as agents draft site structures
// and as FigJam, GitHub and our own diagram write them, read as a plan.
//
// In a flowchart a solid arrow (-->, ---, ==>) makes its target a child
// of its source, the first one into a node only: a later one, or one
// that would make a loop, is a cross-link, as a dotted arrow (-.->) is.
// A node no solid arrow reaches is at the top level; inside a subgraph
// named utility or footer, in that navigation. In a mindmap the
// indentation is the tree. A node's label is its page's title (the node
// id where it has none).
//
// Read on top of a plan (a proposal), a node whose id is a key of the
// plan ("p12", as our export names nodes) is that page, with all it
// has; its label renames it unless it is the title as a diagram wrote it
// (wrapped, or cut with "…"). A page of the plan the diagram leaves out
// is deleted, except below a node whose label ends in "(+N)": the
// export's count of pages it did not draw. Cross-links are the
// diagram's when it has any, else the plan's.

// MaxMermaidLines bounds one diagram.
const MaxMermaidLines = 200_000

type mmNode struct {
	id, label string
	labelled  bool
	shape     string // the opening bracket: "([" home, "[/" group, ...
	parent    *mmNode
	children  []*mmNode
	placement string
}

type mmLink struct {
	from, to *mmNode
	label    string
}

type mermaid struct {
	nodes  map[string]*mmNode
	order  []*mmNode
	links  []mmLink
	dotted bool // the diagram has cross-links of its own
}

func (m *mermaid) node(id string) *mmNode {
	if n := m.nodes[id]; n != nil {
		return n
	}
	n := &mmNode{id: id}
	m.nodes[id] = n
	m.order = append(m.order, n)
	return n
}

// ParseMermaid reads a Mermaid flowchart or mindmap as a plan: on top of
// base (a proposal on the plan base is), or, with base nil, a new plan
// whose project the caller names. Errors: EInvalid, naming the line.
func ParseMermaid(text string, base *Document) (*Document, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > MaxMermaidLines {
		return nil, Errorf(EInvalid, "The diagram has more than %d lines.", MaxMermaidLines)
	}
	m := &mermaid{nodes: map[string]*mmNode{}}
	first := 0
	for first < len(lines) && (strings.TrimSpace(lines[first]) == "" || strings.HasPrefix(strings.TrimSpace(lines[first]), "%%") ||
		strings.TrimSpace(lines[first]) == "---") {
		if strings.TrimSpace(lines[first]) == "---" { // front matter
			for first++; first < len(lines) && strings.TrimSpace(lines[first]) != "---"; first++ {
			}
		}
		first++
	}
	if first == len(lines) {
		return nil, Errorf(EInvalid, "The diagram is empty: it starts with “flowchart TD” or “mindmap”.")
	}
	kind := strings.Fields(lines[first])[0]
	var err error
	switch kind {
	case "flowchart", "graph":
		err = m.flowchart(lines, first+1)
	case "mindmap":
		err = m.mindmap(lines, first+1)
	default:
		return nil, Errorf(EInvalid, "Line %d: a Mermaid diagram siteplan reads starts with “flowchart”, “graph” or “mindmap”, not %q.", first+1, clip(kind))
	}
	if err != nil {
		return nil, err
	}
	if len(m.order) == 0 {
		return nil, Errorf(EInvalid, "The diagram has no nodes.")
	}
	return m.document(base), nil
}

var (
	mmEdge = regexp.MustCompile(`^\s*(?:(--|==)\s+("[^"]*"|[^-=|]+?)\s+(--[->ox]|==[=>])|(-\.)\s*("[^"]*"|[^.]+?)\s*(\.-+>?)|<?(-{2,}[->ox]?|={2,}[=>]?|-\.+-[>ox]?|~~~)(?:\s*\|([^|]*)\|)?)`)
	mmID   = regexp.MustCompile(`^[\p{L}\p{N}_][\p{L}\p{N}_\-]*`)
	mmCode = regexp.MustCompile(`#(\d+|[a-z]+);`)
)

// flowchart reads a flowchart's statements from line start.
func (m *mermaid) flowchart(lines []string, start int) error {
	var placement []string // the subgraphs we are in: their placement, or ""
	for i := start; i < len(lines); i++ {
		for _, st := range statements(lines[i]) {
			st = strings.TrimSpace(st)
			word, _, _ := strings.Cut(st, " ")
			switch {
			case st == "" || strings.HasPrefix(st, "%%"):
			case word == "subgraph":
				id := strings.TrimSpace(strings.TrimPrefix(st, "subgraph"))
				if j := strings.IndexAny(id, "[ "); j >= 0 {
					id = id[:j]
				}
				pl := ""
				if id == PlacementUtility || id == PlacementFooter {
					pl = id
				} else if len(placement) > 0 {
					pl = placement[len(placement)-1]
				}
				placement = append(placement, pl)
			case word == "end":
				if len(placement) > 0 {
					placement = placement[:len(placement)-1]
				}
			case slices.Contains([]string{"class", "classDef", "style", "linkStyle", "click", "direction", "accTitle:", "accDescr:"}, word):
			default:
				pl := ""
				if len(placement) > 0 {
					pl = placement[len(placement)-1]
				}
				if err := m.statement(st, pl); err != nil {
					return Errorf(EInvalid, "Line %d: %s", i+1, err.Error())
				}
			}
		}
	}
	return nil
}

var entityStart = regexp.MustCompile(`#[0-9a-z]+$`)

// statements splits a line at its semicolons, but not inside a quoted
// label or at the end of an entity code ("#quot;").
func statements(line string) []string {
	var out []string
	quoted, from := false, 0
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '"':
			quoted = !quoted
		case line[i] == ';' && !quoted && !entityStart.MatchString(line[from:i]):
			out = append(out, line[from:i])
			from = i + 1
		}
	}
	return append(out, line[from:])
}

// statement reads "A[Home] --> B & C -. label .-> D".
func (m *mermaid) statement(st, placement string) error {
	prev, rest, err := m.readGroup(st, placement)
	if err != nil {
		return err
	}
	for rest != "" {
		loc := mmEdge.FindStringSubmatchIndex(rest)
		if loc == nil {
			return Errorf(EInvalid, "cannot read %q: an arrow (-->, -.->) or a node (A[Title]) was expected", clip(rest))
		}
		sub := func(k int) string {
			if loc[2*k] < 0 {
				return ""
			}
			return rest[loc[2*k]:loc[2*k+1]]
		}
		arrow := sub(3) + sub(6) + sub(7)
		label := mermaidText(strings.Trim(strings.TrimSpace(sub(2)+sub(5)+sub(8)), `"`))
		dotted := sub(4) != "" || strings.Contains(arrow, ".")
		next, r, err := m.readGroup(rest[loc[1]:], placement)
		if err != nil {
			return err
		}
		for _, a := range prev {
			for _, b := range next {
				if arrow != "~~~" {
					m.edge(a, b, label, dotted)
				}
			}
		}
		prev, rest = next, r
	}
	return nil
}

// readGroup reads "A & B[Title]" and returns the nodes and what follows.
func (m *mermaid) readGroup(s, placement string) ([]*mmNode, string, error) {
	var group []*mmNode
	rest := strings.TrimSpace(s)
	for {
		n, r, err := m.readNode(rest)
		if err != nil {
			return nil, "", err
		}
		if placement != "" && n.placement == "" {
			n.placement = placement
		}
		group = append(group, n)
		rest = strings.TrimSpace(r)
		if !strings.HasPrefix(rest, "&") {
			return group, rest, nil
		}
		rest = strings.TrimSpace(rest[1:])
	}
}

// edge records an arrow: the first solid one into b makes it a child of
// a, unless that would make a loop; any other is a cross-link.
func (m *mermaid) edge(a, b *mmNode, label string, dotted bool) {
	if a == b {
		return
	}
	if !dotted && b.parent == nil && !a.below(b) {
		b.parent = a
		a.children = append(a.children, b)
		return
	}
	if dotted {
		m.dotted = true
	}
	m.links = append(m.links, mmLink{a, b, label})
}

// below reports whether n is b or below it.
func (n *mmNode) below(b *mmNode) bool {
	for q := n; q != nil; q = q.parent { // parents never loop: edge refuses a loop
		if q == b {
			return true
		}
	}
	return false
}

// shapes are Mermaid's node shapes, longest opening first.
var shapes = [][2]string{{"([", "])"}, {"[[", "]]"}, {"[(", ")]"}, {"((", "))"}, {"{{", "}}"}, {"[/", "/]"}, {"[/", `\]`},
	{`[\`, `\]`}, {`[\`, "/]"}, {"))", "(("}, {"[", "]"}, {"(", ")"}, {"{", "}"}, {">", "]"}, {")", "("}}

// readNode reads a node (its id and, if there, its shape and label)
// from the start of s and returns what follows.
func (m *mermaid) readNode(s string) (*mmNode, string, error) {
	id := mmID.FindString(s)
	for strings.HasSuffix(id, "-") { // "A--" is A and an arrow
		id = id[:len(id)-1]
	}
	if id == "" {
		return nil, "", Errorf(EInvalid, "cannot read %q: a node id was expected", clip(s))
	}
	n := m.node(id)
	rest := s[len(id):]
	for _, sh := range shapes {
		if !strings.HasPrefix(rest, sh[0]) {
			continue
		}
		body := rest[len(sh[0]):]
		var label string
		if strings.HasPrefix(body, `"`) {
			end := strings.Index(body[1:], `"`)
			if end < 0 {
				return nil, "", Errorf(EInvalid, "node %s: a quoted label without its closing quote", clip(id))
			}
			label, body = body[1:end+1], body[end+2:]
			if !strings.HasPrefix(body, sh[1]) {
				continue
			}
		} else {
			end := strings.Index(body, sh[1])
			if end < 0 {
				continue
			}
			label, body = body[:end], body[end:]
		}
		rest = body[len(sh[1]):]
		if !n.labelled {
			n.label, n.labelled, n.shape = mermaidText(label), true, sh[0]
		}
		break
	}
	if strings.HasPrefix(rest, ":::") {
		rest = rest[3:]
		rest = rest[len(mmID.FindString(rest)):]
	}
	return n, rest, nil
}

// mindmap reads a mindmap's nodes from line start: indentation nests.
func (m *mermaid) mindmap(lines []string, start int) error {
	type level struct {
		indent int
		node   *mmNode
	}
	var stack []level
	made := 0
	for i := start; i < len(lines); i++ {
		raw := lines[i]
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "%%") || strings.HasPrefix(text, "::icon(") || strings.HasPrefix(text, ":::") {
			continue
		}
		indent := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
		var n *mmNode
		if id := mmID.FindString(text); id != "" && len(text) > len(id) && strings.ContainsAny(text[len(id):len(id)+1], "[({)") {
			var err error
			if n, _, err = m.readNode(text); err != nil {
				return Errorf(EInvalid, "Line %d: %s", i+1, err.Error())
			}
		} else {
			label := text
			for _, sh := range shapes {
				if strings.HasPrefix(text, sh[0]) && strings.HasSuffix(text, sh[1]) && len(text) >= len(sh[0])+len(sh[1]) {
					label = text[len(sh[0]) : len(text)-len(sh[1])]
					break
				}
			}
			made++
			n = m.node("\x00" + strconv.Itoa(made)) // no id: never a key
			n.label, n.labelled = mermaidText(strings.Trim(label, `"`)), true
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && n.parent == nil && n != stack[len(stack)-1].node && !stack[len(stack)-1].node.below(n) {
			p := stack[len(stack)-1].node
			n.parent = p
			p.children = append(p.children, n)
		}
		stack = append(stack, level{indent, n})
	}
	return nil
}

// mermaidText is a label as text: Mermaid's entity codes ("#35;",
// "#quot;") decoded, markdown backticks and line breaks dropped.
func mermaidText(s string) string {
	s = mmCode.ReplaceAllStringFunc(s, func(code string) string {
		c := code[1 : len(code)-1]
		if n, err := strconv.Atoi(c); err == nil && n > 0 && n <= unicode.MaxRune {
			return string(rune(n))
		}
		switch c {
		case "quot":
			return `"`
		case "amp":
			return "&"
		case "lt":
			return "<"
		case "gt":
			return ">"
		case "nbsp":
			return " "
		}
		return code
	})
	for _, br := range []string{"<br/>", "<br />", "<br>", "\\n", "`"} {
		s = strings.ReplaceAll(s, br, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}

// hiddenCount is the "(+N)" our export adds to a card whose pages it did
// not draw: the label without it, and whether it had one.
var hiddenCount = regexp.MustCompile(`\s*\(\+[\d,]+\)$`)

// document builds the plan: on base, or new.
func (m *mermaid) document(base *Document) *Document {
	had := map[string]*DocPage{}
	if base != nil {
		var walk func(list []*DocPage)
		walk = func(list []*DocPage) {
			for _, p := range list {
				if p.Key != "" {
					had[p.Key] = p
				}
				walk(p.Children)
			}
		}
		walk(base.Pages)
	}
	d := &Document{Format: FormatV1}
	if base != nil {
		d.Project = base.Project
	}
	used := map[string]bool{}
	var build func(n *mmNode, root bool) *DocPage
	build = func(n *mmNode, root bool) *DocPage {
		label, keepHidden := n.label, false
		if loc := hiddenCount.FindStringIndex(label); loc != nil {
			label, keepHidden = label[:loc[0]], true
		}
		if !n.labelled {
			label = n.id
		}
		var p *DocPage
		if old := had[n.id]; old != nil && !used[n.id] {
			used[n.id] = true
			cp := *old
			cp.Children = nil
			p = &cp
			if !sameTitle(label, old.Title) {
				p.Title = label
			}
		} else {
			p = &DocPage{Title: label, Key: n.key()}
			if n.shape == "[/" {
				p.Kind = KindGroup
			}
		}
		switch {
		case !root:
			p.Placement = ""
		case n.placement != "":
			p.Placement = n.placement
		case p.Placement != PlacementMain:
			p.Placement = "" // outside the utility and footer subgraphs: the main tree
		}
		for _, c := range n.children {
			p.Children = append(p.Children, build(c, false))
		}
		if keepHidden && had[n.id] != nil {
			for _, c := range had[n.id].Children {
				if !m.drawn(c.Key) {
					p.Children = append(p.Children, c) // not drawn: kept as it is
					markUsed(c, used)
				}
			}
		}
		return p
	}
	var roots []*DocPage
	for _, n := range m.order {
		if n.parent == nil {
			roots = append(roots, build(n, true))
		}
	}
	if base == nil {
		makeHome(roots, m)
	}
	d.Pages = roots
	d.Links = m.docLinks(base, used)
	if base != nil && d.Project.XDefault != "" && d.Project.XDefault != XDefaultLocale && !used[d.Project.XDefault] {
		d.Project.XDefault = ""
	}
	return d
}

// key is a node's page key: its id, or none for a mindmap's node
// without one.
func (n *mmNode) key() string {
	if strings.HasPrefix(n.id, "\x00") {
		return ""
	}
	return n.id
}

// docLinks are the plan's cross-links: the diagram's when it has any
// (or is a new plan), else base's between the pages kept (used).
func (m *mermaid) docLinks(base *Document, used map[string]bool) []DocLink {
	var out []DocLink
	if m.dotted || base == nil {
		seen := map[[2]string]bool{}
		for _, l := range m.links {
			k := [2]string{l.from.key(), l.to.key()}
			if k[0] == "" || k[1] == "" || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, DocLink{From: k[0], To: k[1], Label: l.label})
		}
		return out
	}
	for _, l := range base.Links {
		if used[l.From] && used[l.To] {
			out = append(out, l)
		}
	}
	return out
}

func (m *mermaid) drawn(key string) bool { return key != "" && m.nodes[key] != nil }

func markUsed(p *DocPage, used map[string]bool) {
	if p.Key != "" {
		used[p.Key] = true
	}
	for _, c := range p.Children {
		markUsed(c, used)
	}
}

// sameTitle reports whether a label is title as a diagram wrote it:
// the same words, or its start cut with "…".
func sameTitle(label, title string) bool {
	t := strings.Join(strings.Fields(title), " ")
	if label == t {
		return true
	}
	cut, ok := strings.CutSuffix(label, "…")
	return ok && strings.HasPrefix(t, strings.TrimSpace(cut))
}

// makeHome makes a new plan's home page: its one main root, else the
// root drawn as a stadium (["Home"]) or titled Home.
func makeHome(roots []*DocPage, m *mermaid) {
	var main []*DocPage
	for _, r := range roots {
		if r.Placement == "" || r.Placement == PlacementMain {
			main = append(main, r)
		}
	}
	empty := ""
	for _, r := range main {
		if len(main) == 1 || strings.EqualFold(r.Title, "home") || m.nodes[r.Key] != nil && m.nodes[r.Key].shape == "([" {
			r.Slug = &empty
			return
		}
	}
}
