package site

import "strconv"

// Plural is a count with its noun as people write it: "1 page", "3 pages".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Counted is Plural for counts that run to thousands, grouped as people
// read them: "12,000 old URLs".
func Counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}
