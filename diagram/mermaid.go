package diagram

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"siteplan/site"
)

// Mermaid: the plan as a flowchart in Mermaid's language, which GitHub,
// GitLab and Notion render and Figma's FigJam imports as an editable
// diagram. The main tree runs top down; the utility and footer
// navigation are subgraphs of their own; cross-links are dotted arrows
// with their labels; each card's colour is its class (a page type's,
// or a status').

// writeMermaid writes the diagram as a Mermaid flowchart. Every piece
// of user text is a quoted label with Mermaid's entity codes for the
// characters that would end or change it, so no title can break out.
func (d *diagram) writeMermaid(w io.Writer) error {
	bw := bufio.NewWriter(w)
	dir := "TD"
	if d.opt.Layout == LayoutLR {
		dir = "LR"
	}
	fmt.Fprintf(bw, "flowchart %s\n", dir)
	drawn := map[int64]bool{}
	for _, c := range d.cards {
		drawn[c.page.ID] = true
	}
	classes := map[string]string{} // class name -> fill
	node := func(c *card, indent string) {
		p := c.page
		label := strings.Join(c.title, " ")
		if label == "" {
			label = p.Title
		}
		if c.hidden > 0 {
			label += " (+" + strconv.Itoa(c.hidden) + ")"
		}
		open, shut := "[", "]"
		switch {
		case p.IsHome():
			open, shut = "([", "])"
		case p.Kind == site.KindGroup:
			open, shut = "[/", "/]"
		case p.Kind == site.KindExternal:
			open, shut = "[[", "]]"
		}
		fmt.Fprintf(bw, "%sp%d%s\"%s\"%s\n", indent, p.ID, open, mermaidText(label), shut)
		cls := "c" + strings.TrimPrefix(c.fill, "#")
		classes[cls] = c.fill
		fmt.Fprintf(bw, "%sclass p%d %s\n", indent, p.ID, cls)
	}
	placements := []string{site.PlacementMain, site.PlacementUtility, site.PlacementFooter}
	for _, pl := range placements {
		var cards []*card
		for _, c := range d.cards {
			if c.page.Placement == pl || c.page.ParentID != 0 && d.rootPlacement(c.page) == pl {
				cards = append(cards, c)
			}
		}
		if len(cards) == 0 {
			continue
		}
		indent := "  "
		if pl != site.PlacementMain {
			fmt.Fprintf(bw, "  subgraph %s[\"%s\"]\n", pl, mermaidText(frameLabel(pl)))
			indent = "    "
		}
		for _, c := range cards {
			node(c, indent)
		}
		for _, c := range cards {
			if parent := c.page.ParentID; parent != 0 && drawn[parent] {
				fmt.Fprintf(bw, "%sp%d --> p%d\n", indent, parent, c.page.ID)
			}
		}
		if pl != site.PlacementMain {
			bw.WriteString("  end\n")
		}
	}
	if d.opt.Links {
		for _, l := range d.links {
			if !drawn[l.FromID] || !drawn[l.ToID] {
				continue
			}
			if l.Label != "" {
				fmt.Fprintf(bw, "  p%d -. \"%s\" .-> p%d\n", l.FromID, mermaidText(l.Label), l.ToID)
			} else {
				fmt.Fprintf(bw, "  p%d -.-> p%d\n", l.FromID, l.ToID)
			}
		}
	}
	for _, cls := range slices.Sorted(maps.Keys(classes)) {
		fmt.Fprintf(bw, "  classDef %s fill:%s,stroke:%s,color:%s\n", cls, classes[cls], cardBorder, inkColor)
	}
	return bw.Flush()
}

// rootPlacement is the placement of the root p is below.
func (d *diagram) rootPlacement(p *site.Page) string {
	for seen := 0; p != nil && p.ParentID != 0 && seen < site.MaxDepth+1; seen++ {
		p = d.tree.Page(p.ParentID)
	}
	if p == nil {
		return site.PlacementMain
	}
	return p.Placement
}

// mermaidText is text for a quoted Mermaid label: the characters that
// would end the label or read as markup as Mermaid's entity codes
// ("#35;"), line breaks as spaces.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '#' || r == '<' || r == '>' || r == '&' || r == '`' || r == '|' || r == '[' || r == ']' || r == '{' || r == '}' || r == '(' || r == ')':
			b.WriteString("#" + strconv.Itoa(int(r)) + ";")
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
