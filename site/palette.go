package site

import "hash/fnv"

// TypeColors are the swatches page types are shown in, in the outline and
// on the diagram alike (static/app.css repeats them as .type.t0 to .t7).
var TypeColors = [8]string{"#6d9eeb", "#93c47d", "#f6b26b", "#c27ba0", "#76a5af", "#e06666", "#ffd966", "#8e7cc3"}

// TypeColor returns the index in TypeColors of a page type's swatch: the
// same for a type wherever it shows, whatever other types the plan has.
func TypeColor(pageType string) int {
	h := fnv.New32a()
	h.Write([]byte(pageType))
	return int(h.Sum32() % uint32(len(TypeColors)))
}
