package verify

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
)

// JUnit writes the report as JUnit XML, which CI systems show: a test
// case for each planned page (its page checks), one for the live
// sitemaps, and one for each old URL with a problem, a failure for each
// error (warnings are in the case's output).
func (r *Report) JUnit(w io.Writer) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string    `xml:"name,attr"`
		Classname string    `xml:"classname,attr"`
		Failures  []failure `xml:"failure"`
		Output    string    `xml:"system-out,omitempty"`
	}
	type suite struct {
		XMLName  xml.Name   `xml:"testsuite"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	byPage := map[int64][]Problem{}
	var site, redirects []Problem
	for _, p := range r.Problems {
		switch {
		case p.Rule == RuleRedirectMap:
			redirects = append(redirects, p)
		case p.Rule == RuleSitemapMissing || p.Rule == RuleSitemapExtra || p.PageID == 0:
			site = append(site, p)
		default:
			byPage[p.PageID] = append(byPage[p.PageID], p)
		}
	}
	s := suite{Name: "siteplan verify " + r.Base}
	add := func(name, class string, ps []Problem) {
		tc := testcase{Name: name, Classname: class}
		for _, p := range ps {
			line := fmt.Sprintf("[%s] %s: %s", p.Rule, p.URL, p.Message)
			if p.Severity == Error {
				tc.Failures = append(tc.Failures, failure{Message: p.Message, Type: p.Rule, Text: line})
			} else {
				tc.Output += "warning " + line + "\n"
			}
		}
		s.Cases = append(s.Cases, tc)
		s.Tests++
		if len(tc.Failures) > 0 {
			s.Failures++
		}
	}
	for _, c := range r.Checked {
		add(c.Title+" ("+c.URL+")", "pages", byPage[c.ID])
	}
	add("live sitemaps ("+strconv.Itoa(r.Sitemaps)+" URLs)", "sitemaps", site)
	for _, p := range redirects {
		add(p.URL, "redirects", []Problem{p})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Kept is a check as a server keeps it (site.LaunchCheck.Report): the
// report, what it checked in words, and the pages it checked (for their
// results, ok included), by id.
type Kept struct {
	*Report
	What    string  `json:"what"`
	Checked []int64 `json:"checked"`
}

// Keep is rep as a server keeps it, what naming the plan or version
// checked.
func Keep(rep *Report, what string) Kept {
	k := Kept{Report: rep, What: what, Checked: make([]int64, len(rep.Checked))}
	for i, c := range rep.Checked {
		k.Checked[i] = c.ID
	}
	return k
}

// ReadKept reads a kept check, id naming it in an error. Errors: the
// decoder's, as they are.
func ReadKept(blob []byte, id int64) (*Report, string, error) {
	k := Kept{Report: &Report{}}
	if err := json.Unmarshal(blob, &k); err != nil {
		return nil, "", fmt.Errorf("launch check %d: %w", id, err)
	}
	for _, id := range k.Checked {
		k.Report.Checked = append(k.Report.Checked, CheckedPage{ID: id})
	}
	return k.Report, k.What, nil
}
