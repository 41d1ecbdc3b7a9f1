package main

import (
	"bufio"
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
