package diagram

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"siteplan/site"
)

// GraphML for yEd: the yFiles extension keys carry each node's shape,
// colour, label and laid-out geometry, so yEd opens the plan as drawn.
type graphML struct {
	XMLName        xml.Name `xml:"graphml"`
	XMLNS          string   `xml:"xmlns,attr"`
	Y              string   `xml:"xmlns:y,attr"`
	XSI            string   `xml:"xmlns:xsi,attr"`
	SchemaLocation string   `xml:"xsi:schemaLocation,attr"`
	Keys           []gmlKey `xml:"key"`
	Graph          gmlGraph `xml:"graph"`
}

type gmlKey struct {
	ID     string `xml:"id,attr"`
	For    string `xml:"for,attr"`
	Name   string `xml:"attr.name,attr,omitempty"`
	Type   string `xml:"attr.type,attr,omitempty"`
	YFiles string `xml:"yfiles.type,attr,omitempty"`
}

type gmlGraph struct {
	ID          string    `xml:"id,attr"`
	EdgeDefault string    `xml:"edgedefault,attr"`
	Nodes       []gmlNode `xml:"node"`
	Edges       []gmlEdge `xml:"edge"`
}

type gmlData struct {
	Key   string      `xml:"key,attr"`
	Value string      `xml:",chardata"`
	Shape *yShapeNode `xml:"y:ShapeNode,omitempty"`
	Line  *yPolyLine  `xml:"y:PolyLineEdge,omitempty"`
}

type gmlNode struct {
	ID   string    `xml:"id,attr"`
	Data []gmlData `xml:"data"`
}

type gmlEdge struct {
	ID     string    `xml:"id,attr"`
	Source string    `xml:"source,attr"`
	Target string    `xml:"target,attr"`
	Data   []gmlData `xml:"data"`
}

type yShapeNode struct {
	Geometry struct {
		X      float64 `xml:"x,attr"`
		Y      float64 `xml:"y,attr"`
		Width  float64 `xml:"width,attr"`
		Height float64 `xml:"height,attr"`
	} `xml:"y:Geometry"`
	Fill struct {
		Color       string `xml:"color,attr"`
		Transparent bool   `xml:"transparent,attr"`
	} `xml:"y:Fill"`
	Border yLineStyle `xml:"y:BorderStyle"`
	Label  yLabel     `xml:"y:NodeLabel"`
	Shape  struct {
		Type string `xml:"type,attr"`
	} `xml:"y:Shape"`
}

type yLineStyle struct {
	Color string  `xml:"color,attr"`
	Type  string  `xml:"type,attr"`
	Width float64 `xml:"width,attr"`
}

type yLabel struct {
	FontFamily string `xml:"fontFamily,attr"`
	FontSize   int    `xml:"fontSize,attr"`
	TextColor  string `xml:"textColor,attr"`
	Text       string `xml:",chardata"`
}

type yPolyLine struct {
	Line   yLineStyle `xml:"y:LineStyle"`
	Arrows struct {
		Source string `xml:"source,attr"`
		Target string `xml:"target,attr"`
	} `xml:"y:Arrows"`
	Label *yLabel `xml:"y:EdgeLabel,omitempty"`
}

// writeGraphML writes the drawn pages (one node each, from the nodes
// written for the layout), their tree edges and the cross-links.
func (d *diagram) writeGraphML(w io.Writer, cells map[int64]box) error {
	g := graphML{
		XMLNS: "http://graphml.graphdrawing.org/xmlns", Y: "http://www.yworks.com/xml/graphml",
		XSI:            "http://www.w3.org/2001/XMLSchema-instance",
		SchemaLocation: "http://graphml.graphdrawing.org/xmlns http://www.yworks.com/xml/schema/graphml/1.1/ygraphml.xsd",
		Keys: []gmlKey{
			{ID: "d0", For: "node", YFiles: "nodegraphics"},
			{ID: "d1", For: "edge", YFiles: "edgegraphics"},
			{ID: "d2", For: "node", Name: "url", Type: "string"},
			{ID: "d3", For: "node", Name: "status", Type: "string"},
			{ID: "d4", For: "node", Name: "type", Type: "string"},
			{ID: "d5", For: "node", Name: "kind", Type: "string"},
			{ID: "d6", For: "node", Name: "placement", Type: "string"},
			{ID: "d7", For: "edge", Name: "relation", Type: "string"},
		},
		Graph: gmlGraph{ID: "G", EdgeDefault: "directed"},
	}
	// Pages in outline order, each where the layout put its cell: in a
	// top-down tree a page's node may be taller, to line up with the
	// level's tallest stack.
	var pages []*site.Page
	for _, c := range d.cards {
		{
			p := c.page
			pages = append(pages, p)
			b := cells[p.ID]
			sn := &yShapeNode{}
			sn.Geometry.X, sn.Geometry.Y, sn.Geometry.Width, sn.Geometry.Height = b.x0, b.y0, b.x1-b.x0, b.y1-b.y0
			sn.Fill.Color = strings.ToUpper(d.fill(p))
			sn.Border = yLineStyle{Color: strings.ToUpper(mutedColor), Type: "line", Width: 1}
			sn.Shape.Type = "roundrectangle"
			switch p.Kind {
			case site.KindGroup:
				sn.Shape.Type, sn.Border.Width = "rectangle", 2
			case site.KindPlaceholder:
				sn.Border.Type = "dashed"
			case site.KindExternal:
				sn.Border.Type = "dotted"
			}
			label := p.Title
			if path := d.path(p); path != "" && (p.Kind != site.KindGroup || p.Slug != "") {
				label += "\n" + path
			}
			sn.Label = yLabel{FontFamily: "Dialog", FontSize: 12, TextColor: strings.ToUpper(textColor), Text: label}
			g.Graph.Nodes = append(g.Graph.Nodes, gmlNode{ID: fmt.Sprintf("p%d", p.ID), Data: []gmlData{
				{Key: "d0", Shape: sn},
				{Key: "d2", Value: d.tree.Location(p.ID)},
				{Key: "d3", Value: p.Status},
				{Key: "d4", Value: p.Type},
				{Key: "d5", Value: p.Kind},
				{Key: "d6", Value: p.Placement},
			}})
		}
	}
	edge := func(id string, from, to int64, relation string, pl *yPolyLine) {
		g.Graph.Edges = append(g.Graph.Edges, gmlEdge{ID: id, Source: fmt.Sprintf("p%d", from), Target: fmt.Sprintf("p%d", to),
			Data: []gmlData{{Key: "d1", Line: pl}, {Key: "d7", Value: relation}}})
	}
	shown := func(id int64) bool { _, ok := cells[id]; return ok }
	for _, p := range pages {
		if p.ParentID != 0 && shown(p.ParentID) {
			pl := &yPolyLine{Line: yLineStyle{Color: strings.ToUpper(lineColor), Type: "line", Width: 1}}
			pl.Arrows.Source, pl.Arrows.Target = "none", "standard"
			edge(fmt.Sprintf("t%d", p.ID), p.ParentID, p.ID, "child", pl)
		}
	}
	if d.opt.Links {
		for _, lk := range d.links {
			if !d.drawsLink(lk) {
				continue
			}
			pl := &yPolyLine{Line: yLineStyle{Color: strings.ToUpper(linkColor), Type: "dashed", Width: 1}}
			pl.Arrows.Source, pl.Arrows.Target = "none", "standard"
			if lk.Label != "" {
				pl.Label = &yLabel{FontFamily: "Dialog", FontSize: 10, TextColor: strings.ToUpper(linkColor), Text: lk.Label}
			}
			edge(fmt.Sprintf("l%d", lk.ID), lk.FromID, lk.ToID, "cross-link", pl)
		}
	}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", " ")
	if err := enc.Encode(g); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
