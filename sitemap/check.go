package sitemap

import (
	"hash/maphash"
	"regexp"
	"slices"
	"strings"

	"siteplan/site"
)

// rules are the protocol's rules for the URLs of a reading, as siteplan
// check reports them: each broken rule is a problem of the file the URL
// is in, counted, with the first line that broke it. Duplicates and
// http/https twins are found across all files by a 64-bit hash of each
// normalised URL (8 bytes a URL, not the URL).
type rules struct {
	seen urlSet
	norm site.URLNormalizer
	file string // the file whose directory dir is
	dir  string // "": the file is not on the web
}

func newRules() *rules { return &rules{seen: newURLSet()} }

// urlSet is a set of URLs by a 64-bit hash of each: 8 bytes a URL, and a
// false "seen" once in about 10^19 pairs.
type urlSet struct {
	seed maphash.Seed
	m    map[uint64]struct{}
}

func newURLSet() urlSet { return urlSet{seed: maphash.MakeSeed(), m: map[uint64]struct{}{}} }

func (s urlSet) has(u string) bool {
	_, ok := s.m[maphash.String(s.seed, u)]
	return ok
}

// add adds u and reports whether it was new.
func (s urlSet) add(u string) bool {
	h := maphash.String(s.seed, u)
	if _, ok := s.m[h]; ok {
		return false
	}
	s.m[h] = struct{}{}
	return true
}

var rePriority = regexp.MustCompile(`^(0(\.\d+)?|1(\.0+)?|\.\d+)$`)

// check applies the rules to u, a URL of the file at file.
func (r *rules) check(ps *problems, file string, u *Found) {
	loc, line := u.Loc, u.Line
	if len(loc) > site.MaxURLLen {
		ps.add("loc-length", true, line, "Line %d: the URL is %d characters long; the protocol allows 2,048.", line, len(loc))
	}
	norm, err := r.norm.Normalize(loc) // refuses anything but an absolute http or https URL
	if err != nil {
		ps.add("loc-absolute", true, line, "Line %d: %q is not an absolute http or https URL, as every <loc> must be.", line, clipped(loc))
		return
	}
	if norm != loc && norm != loc+"/" {
		ps.add("loc-encoding", false, line, "Line %d: %q is not written as the protocol asks (lower-case host, characters percent-encoded); write %q.", line, clipped(loc), clipped(norm))
	}
	if file != r.file {
		r.file, r.dir = file, ""
		if at, err := site.NormalizeURL(file); err == nil {
			r.dir = site.Dir(at)
		}
	}
	if dir := r.dir; dir != "" {
		switch {
		case hostOf(norm) != hostOf(dir):
			ps.add("off-host", true, line, "Line %d: %s is on another host than the sitemap (%s); search engines ignore it.", line, clipped(loc), hostOf(dir))
		case site.Origin(norm) != site.Origin(dir): // the same host, so the scheme differs
			ps.add("scheme", true, line, "Line %d: %s does not use the sitemap's scheme (%s); search engines ignore it.", line, clipped(loc), dir[:strings.Index(dir, ":")])
		case !strings.HasPrefix(norm, dir):
			ps.add("scope", true, line, "Line %d: %s is outside the sitemap's directory %s; a sitemap may list only URLs at or below its own location.", line, clipped(loc), dir)
		}
	}
	if !r.seen.add(norm) {
		ps.add("duplicate", false, line, "Line %d: %s is listed more than once; list each URL once.", line, clipped(loc))
	} else if r.seen.has(site.OtherScheme(norm)) {
		ps.add("twin", false, line, "Line %d: %s is listed with both http and https; list only the one the site serves.", line, clipped(loc))
	}
	if site.HasSessionParam(norm) {
		ps.add("session-id", false, line, "Line %d: %s carries a session id; search engines index it as many URLs.", line, clipped(loc))
	}
	if msg := site.LastmodProblem(u.Lastmod); msg != "" {
		rule := "lastmod"
		if strings.Contains(msg, "no time zone") {
			rule = "lastmod-zone"
		}
		ps.add(rule, true, line, "Line %d: %s", line, msg)
	}
	if u.Changefreq != "" && !slices.Contains(site.Changefreqs, u.Changefreq) {
		ps.add("changefreq", true, line, "Line %d: changefreq %q is not one of %s.", line, u.Changefreq, strings.Join(site.Changefreqs, ", "))
	}
	if u.Priority != "" && !rePriority.MatchString(u.Priority) {
		ps.add("priority", true, line, "Line %d: priority %q is not a decimal from 0.0 to 1.0.", line, u.Priority)
	}
}

// hostOf returns the scheme-less host of an absolute URL.
func hostOf(u string) string {
	_, rest, _ := strings.Cut(u, "://")
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// clipped shortens a URL for a message.
func clipped(s string) string { return site.Clip(s, 120) }
