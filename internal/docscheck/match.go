package docscheck

import "strings"

// Ellipsis is the line of an expected output that stands for any number of
// lines.
const Ellipsis = "..."

// Match reports whether got (a command's output) is what want shows: the
// same lines, each line "..." matching any run of lines, none included.
// Trailing white space of each line and trailing blank lines are ignored on
// both sides.
func Match(want []string, got string) bool {
	return matchLines(trimLines(want), trimLines(strings.Split(got, "\n")))
}

func trimLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " \t\r")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// matchLines is glob matching over lines, Ellipsis the star; it keeps the
// last star's position to backtrack to, so it is linear in practice and
// never worse than len(want)*len(got).
func matchLines(want, got []string) bool {
	w, g := 0, 0
	star, mark := -1, 0
	for g < len(got) {
		switch {
		case w < len(want) && want[w] == Ellipsis:
			star, mark = w, g
			w++
		case w < len(want) && want[w] == got[g]:
			w++
			g++
		case star >= 0:
			w = star + 1
			mark++
			g = mark
		default:
			return false
		}
	}
	for w < len(want) && want[w] == Ellipsis {
		w++
	}
	return w == len(want)
}
