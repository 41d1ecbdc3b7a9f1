package site

import (
	"strings"

	"github.com/gosimple/unidecode"
)

// A plan's search finds pages by their titles and slugs, whatever the
// case and accents: über, uber and ueber all find "Über uns", and a page
// whose title starts with what was typed comes first.

// SearchKey is text as search compares it: in lower case, each letter
// spelled in ASCII without its accents (Über: uber, Straße: strasse),
// words one space apart, anything but letters and digits left out.
func SearchKey(s string) string { return fold(s, false) }

// SearchWords are the words a page is found by, in a row as they come:
// its title's as SearchKey spells them, then again with German's
// spelling of the umlauts if it differs (Über uns: uber uns ueber uns),
// then its slug's.
func SearchWords(title, slug string) string {
	words := []string{fold(title, false)}
	if de := fold(title, true); de != words[0] {
		words = append(words, de)
	}
	if s := fold(slug, false); s != "" && s != words[0] {
		words = append(words, s)
	}
	return strings.TrimSpace(strings.Join(words, " "))
}

// fold spells s as search compares it (SearchKey), in German's way if
// german (ä, ö, ü: ae, oe, ue).
func fold(s string, german bool) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false // a space before the next letter
	put := func(t string) {
		for i := 0; i < len(t); i++ {
			c := t[i]
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				gap = b.Len() > 0
				continue
			}
			if gap {
				b.WriteByte(' ')
				gap = false
			}
			b.WriteByte(c)
		}
	}
	for i, r := range s {
		switch {
		case r < 0x80:
			put(s[i : i+1])
		case german && strings.ContainsRune("äöüÄÖÜ", r):
			put(map[rune]string{'ä': "ae", 'ö': "oe", 'ü': "ue", 'Ä': "ae", 'Ö': "oe", 'Ü': "ue"}[r])
		default:
			put(unidecode.Unidecode(string(r)))
		}
	}
	return b.String()
}

// Found is a page a search found, with its URL ("" for a page without
// one of its own).
type Found struct {
	Page Page
	URL  string
}
