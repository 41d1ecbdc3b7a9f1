package web

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

var updateReference = flag.Bool("update", false, "rewrite docs/api-reference.md from web/openapi.yaml")

const referenceFile = "../docs/api-reference.md"

// TestAPIReference: docs/api-reference.md is the contract
// (web/openapi.yaml) as a page to browse, route by route and schema by
// schema; a contract changed without it fails here. go test ./web -run
// TestAPIReference -update writes it again.
func TestAPIReference(t *testing.T) {
	doc, _ := contract(t)
	got := apiReference(doc)
	if *updateReference {
		if err := os.WriteFile(referenceFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(referenceFile)
	if err != nil || string(want) != got {
		t.Errorf("docs/api-reference.md is not the contract as it is: run go test ./web -run TestAPIReference -update (%v)", err)
	}
}

// apiReference renders the contract as Markdown.
func apiReference(doc *openapi3.T) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# API reference\n\n%s, version %s: every route of `/api/v1` and its schemas, as [`web/openapi.yaml`](../web/openapi.yaml) "+
		"(the contract the tests hold the API to) describes them. [api.md](api.md) says how to use them.\n\n"+
		"This page is written from the contract: `go test ./web -run TestAPIReference -update`.\n\n", doc.Info.Title, doc.Info.Version)
	type op struct {
		method, path string
		o            *openapi3.Operation
	}
	byTag := map[string][]op{}
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if o := item.GetOperation(m); o != nil && len(o.Tags) > 0 {
				byTag[o.Tags[0]] = append(byTag[o.Tags[0]], op{m, path, o})
			}
		}
	}
	for _, tag := range doc.Tags {
		ops := byTag[tag.Name]
		slices.SortFunc(ops, func(a, b op) int { return strings.Compare(a.path+" "+a.method, b.path+" "+b.method) })
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", tag.Name, tag.Description)
		for _, o := range ops {
			writeOperation(&b, o.method, o.path, o.o)
		}
	}
	b.WriteString("## Schemas\n\n")
	names := make([]string, 0, len(doc.Components.Schemas))
	for name := range doc.Components.Schemas {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		s := doc.Components.Schemas[name].Value
		fmt.Fprintf(&b, "### %s\n\n", name)
		if s.Description != "" {
			fmt.Fprintf(&b, "%s\n\n", oneLine(s.Description))
		}
		writeProperties(&b, s)
	}
	return b.String()
}

func writeOperation(b *strings.Builder, method, path string, o *openapi3.Operation) {
	fmt.Fprintf(b, "### `%s /api/v1%s`\n\n%s", method, path, o.Summary)
	if o.Description != "" {
		fmt.Fprintf(b, ". %s", oneLine(o.Description))
	}
	b.WriteString("\n\n")
	if len(o.Parameters) > 0 {
		b.WriteString("| parameter | in | |\n|---|---|---|\n")
		for _, p := range o.Parameters {
			v := p.Value
			req := ""
			if v.Required {
				req = " (required)"
			}
			fmt.Fprintf(b, "| `%s`%s | %s | %s |\n", v.Name, req, v.In, cell(v.Description))
		}
		b.WriteString("\n")
	}
	if rb := o.RequestBody; rb != nil && rb.Value != nil {
		for _, ct := range sortedKeys(rb.Value.Content) {
			if s := rb.Value.Content[ct].Schema; s != nil && s.Ref == "" && len(s.Value.Properties) > 0 {
				fmt.Fprintf(b, "Body, `%s`:\n\n", ct)
				writeProperties(b, s.Value)
			} else {
				fmt.Fprintf(b, "Body, `%s`: %s\n\n", ct, schemaWords(s))
			}
		}
	}
	b.WriteString("| answer | |\n|---|---|\n")
	for _, code := range sortedKeys(o.Responses.Map()) {
		r := o.Responses.Value(code)
		what := cell(*r.Value.Description)
		for _, ct := range sortedKeys(r.Value.Content) {
			what += fmt.Sprintf(" `%s`: %s", ct, schemaWords(r.Value.Content[ct].Schema))
		}
		fmt.Fprintf(b, "| %s | %s |\n", code, what)
	}
	b.WriteString("\n")
}

// writeProperties lists an object schema's properties.
func writeProperties(b *strings.Builder, s *openapi3.Schema) {
	for _, part := range s.AllOf {
		if part.Ref != "" {
			fmt.Fprintf(b, "All of %s, and:\n\n", schemaWords(part))
		} else {
			writeProperties(b, part.Value)
		}
	}
	if len(s.Properties) == 0 {
		if len(s.AllOf) == 0 {
			fmt.Fprintf(b, "%s\n\n", schemaWords(openapi3.NewSchemaRef("", s)))
		}
		return
	}
	b.WriteString("| field | type | |\n|---|---|---|\n")
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name]
		req := ""
		if slices.Contains(s.Required, name) {
			req = " (required)"
		}
		desc := ""
		if p.Value != nil && p.Ref == "" {
			desc = cell(p.Value.Description)
		}
		fmt.Fprintf(b, "| `%s`%s | %s | %s |\n", name, req, cell(schemaWords(p)), desc)
	}
	b.WriteString("\n")
}

// schemaWords names a schema: a link to a named one, else its type.
func schemaWords(s *openapi3.SchemaRef) string {
	if s == nil {
		return "any"
	}
	if s.Ref != "" {
		name := s.Ref[strings.LastIndex(s.Ref, "/")+1:]
		return "[" + name + "](#" + strings.ToLower(name) + ")"
	}
	v := s.Value
	switch {
	case len(v.AllOf) > 0:
		var parts []string
		for _, p := range v.AllOf {
			parts = append(parts, schemaWords(p))
		}
		return strings.Join(parts, " and ")
	case v.Type.Is("array"):
		return "array of " + schemaWords(v.Items)
	case len(v.Enum) > 0:
		var vals []string
		for _, e := range v.Enum {
			vals = append(vals, fmt.Sprintf("`%v`", e))
		}
		return "one of " + strings.Join(vals, ", ")
	case v.Const != nil:
		return fmt.Sprintf("`%v`", v.Const)
	case v.Type.Is("object") && len(v.Properties) > 0:
		var fields []string
		for _, name := range sortedKeys(v.Properties) {
			fields = append(fields, "`"+name+"`: "+schemaWords(v.Properties[name]))
		}
		return "{" + strings.Join(fields, ", ") + "}"
	case v.Type != nil && len(*v.Type) > 0:
		t := strings.Join(*v.Type, " or ")
		if v.Format != "" {
			t += " (" + v.Format + ")"
		}
		return t
	}
	return "any"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func cell(s string) string { return strings.ReplaceAll(oneLine(s), "|", `\|`) }
