package main

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// importRule is a row of docs/architecture.md's table of packages: the
// siteplan packages a package may import, and what it must not depend
// on.
type importRule struct{ allowed, forbidden []string }

// importRules reads the table of packages of docs/architecture.md, the
// one place the rules are written.
func importRules(t *testing.T) map[string]importRule {
	t.Helper()
	f, err := os.Open("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rules := map[string]importRule{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "## Packages":
			in = true
		case in && strings.HasPrefix(line, "## "):
			in = false
		case in && strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| package "):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			if len(cells) != 4 {
				t.Fatalf("docs/architecture.md: a row of the table of packages has %d cells, want 4: %s", len(cells), line)
			}
			list := func(cell, prefix string) []string {
				var out []string
				for _, x := range strings.Split(cell, ",") {
					if x = strings.TrimSpace(x); x != "" {
						out = append(out, prefix+x)
					}
				}
				return out
			}
			rules["siteplan/"+strings.TrimSpace(cells[0])] = importRule{list(cells[2], "siteplan/"), list(cells[3], "")}
		}
	}
	if len(rules) == 0 {
		t.Fatal("docs/architecture.md has no table of packages under ## Packages")
	}
	return rules
}

// TestImportRules keeps docs/architecture.md's table of packages true:
// every package has a row, and imports only what its row allows.
func TestImportRules(t *testing.T) {
	rules := importRules(t)
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if _, ok := rules[pkg]; !ok && pkg != "siteplan" && !strings.HasPrefix(pkg, "siteplan/cmd/") {
			t.Errorf("%s has no row in docs/architecture.md's table of packages: add one", pkg)
		}
	}
	// main.go only calls cli.
	out, err = exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "siteplan").Output()
	if err != nil {
		t.Fatalf("go list siteplan: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.HasPrefix(imp, "siteplan/") && imp != "siteplan/cli" {
			t.Errorf("main imports %s; it only calls siteplan/cli", imp)
		}
	}
	for pkg, r := range rules {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == pkg {
				continue
			}
			// A package's internal subpackages are parts of it: allowing
			// diagram allows diagram/internal/graphviz.
			partOf := func(a string) bool { return dep == a || strings.HasPrefix(dep, a+"/internal/") }
			if strings.HasPrefix(dep, "siteplan/") && !slices.ContainsFunc(r.allowed, partOf) {
				t.Errorf("%s imports %s; docs/architecture.md does not allow it", pkg, dep)
			}
			for _, f := range r.forbidden {
				if dep == f || strings.HasPrefix(dep, f+"/") || strings.HasPrefix(dep, f) && strings.Contains(f, ".") {
					t.Errorf("%s depends on %s; docs/architecture.md forbids it", pkg, dep)
				}
			}
		}
	}
}

// TestFrontEndModules keeps docs/architecture.md's table of the front
// end's modules true: every module of static/js has a row, every row
// names a module, and no module imports one that imports it back.
func TestFrontEndModules(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## The front end\n")
	if !ok {
		t.Fatal("docs/architecture.md has no ## The front end section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, name := range strings.Split(cell, ",") {
			listed[strings.Trim(strings.TrimSpace(name), "`")] = true
		}
	}
	files, err := filepath.Glob("static/js/*.js")
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	importRE := regexp.MustCompile(`(?m)^import (?:.* from )?"\./([\w.]+)";`)
	for _, f := range files {
		name := filepath.Base(f)
		if strings.HasSuffix(name, ".test.js") {
			continue
		}
		if !listed[name] {
			t.Errorf("static/js/%s has no row in docs/architecture.md's table of modules: add one", name)
		}
		delete(listed, name)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range importRE.FindAllStringSubmatch(string(src), -1) {
			imports[name] = append(imports[name], m[1])
		}
	}
	for name := range listed {
		t.Errorf("docs/architecture.md lists %s, which static/js does not have", name)
	}
	// A depth-first walk: a module met again while its own imports are
	// being walked closes a cycle.
	state := map[string]int{} // 1 walking, 2 done
	var walk func(name string, path []string)
	walk = func(name string, path []string) {
		state[name] = 1
		for _, dep := range imports[name] {
			switch state[dep] {
			case 1:
				t.Errorf("static/js imports in a cycle: %s", strings.Join(append(path, dep), " -> "))
			case 0:
				walk(dep, append(path, dep))
			}
		}
		state[name] = 2
	}
	for _, name := range slices.Sorted(maps.Keys(imports)) {
		if state[name] == 0 {
			walk(name, []string{name})
		}
	}
}

// longFunctions are the hand-written functions over maxFuncLines lines
// the budget was set on, with their lengths then: each may only shrink,
// and leaves the list once it fits.
var longFunctions = map[string]int{
	"cmd/loadtest/probes.go probes":         192,
	"cmd/loadtest/siteprobes.go siteProbes": 152,
	"cmd/loadtest/main.go run":              143,
	"sitemap/read.go readXML":               124,
	"diagram/radial.go diagram.radial":      123,
	"export/handoff.go WriteWXR":            119,
	"export/entries.go Selection.pass":      108,
	"diagram/paint.go chartPicture.draw":    106,
}

// maxFuncLines is the most lines a hand-written function may take, its
// signature and closing brace included; tests and generated code aside.
const maxFuncLines = 100

// TestFunctionBudget keeps functions to a screen or two: none over
// maxFuncLines lines but those of longFunctions, which may not grow.
func TestFunctionBudget(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_templ.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			name := path + " " + funcName(fd)
			budget, listed := longFunctions[name]
			seen[name] = listed
			switch {
			case listed && lines > budget:
				t.Errorf("%s grew to %d lines (was %d): split it into named steps", name, lines, budget)
			case listed && lines <= maxFuncLines:
				t.Errorf("%s fits in %d lines now (%d): take it off longFunctions", name, maxFuncLines, lines)
			case listed && lines < budget:
				t.Logf("%s shrank to %d lines: lower its entry in longFunctions", name, lines)
			case !listed && lines > maxFuncLines:
				t.Errorf("%s is %d lines, over the budget of %d: split it into named steps", name, lines, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range longFunctions {
		if !seen[name] {
			t.Errorf("longFunctions lists %s, which is gone: take it off", name)
		}
	}
}

// funcName is a function's name, a method's with its receiver's type.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if ix, ok := typ.(*ast.IndexExpr); ok {
		typ = ix.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
