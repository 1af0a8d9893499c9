package leaked

// Phi-4-mini writes its calls as functools[{"name": …, "arguments": {…}},
// …], then <|end|>. "functools" is plain text in its vocabulary, not a
// special token, so a server has nothing to strip.

const phi4Needle = "functools["

var phi4Form = jsonForm{pattern: phi4Needle, ends: []string{"<|end|>"}, opens: []string{phi4Needle}}

// phi4 handles functools[ at s[i]: the '[' opens a JSON array of calls.
// Followed by anything but an object ("functools[partial]", "functools[]"),
// it is prose and stays.
func (sc *scanner) phi4(i int) (int, bool) {
	j := i + len(phi4Needle) - 1 // the '['
	if !jsonStart(sc.s, j) {
		return 0, false
	}
	return sc.familyJSON(&phi4Form, i, j), true
}
