package diagram

import (
	"bytes"
	"context"
	"testing"

	"siteplan/internal/sitegen"
)

// BenchmarkDiagram draws generated plans end to end, from the tree to the
// file's bytes (targets: SVG of 1,000 pages under 150 ms; of 10,000 no
// slower than system Graphviz's dot -Tsvg on the same DOT, 24.7 s here),
// and the PNG (at 1x: at 2x it is too large), PDF and GraphML of 1,000.
func BenchmarkDiagram(b *testing.B) {
	for _, tc := range []struct {
		name    string
		leaves  int
		layout  string
		depth   int
		scale   int
		formats []string
	}{
		{"1k", 9, LayoutTree, 0, 1, []string{FormatSVG, FormatPNG, FormatPDF, FormatGraphML}},
		{"1k-radial", 9, LayoutRadial, 0, 0, []string{FormatSVG}},
		{"1k-lr", 9, LayoutLR, 0, 0, []string{FormatSVG}},
		{"1k-3levels", 9, LayoutTree, 3, 0, []string{FormatSVG, FormatPNG, FormatPDF}},
		{"5k", 49, LayoutTree, 0, 0, []string{FormatSVG, FormatScene}},
		{"10k", 99, LayoutTree, 0, 0, []string{FormatSVG, FormatScene, FormatPDF}},
	} {
		tr, links := sitegen.Document("Bench", 10, 10, tc.leaves).Tree()
		for _, format := range tc.formats {
			b.Run(tc.name+"-"+format, func(b *testing.B) {
				var size int
				for i := 0; i < b.N; i++ {
					var out bytes.Buffer
					_, err := Render(context.Background(), &out, tr, links, Options{Format: format, Links: true, Layout: tc.layout, Depth: tc.depth, Scale: tc.scale})
					if err != nil {
						b.Fatal(err)
					}
					size = out.Len()
				}
				b.ReportMetric(float64(tr.Len()), "pages")
				b.ReportMetric(float64(size)/(1<<20), "MB-file")
			})
		}
	}
}
