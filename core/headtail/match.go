package headtail

import "strings"

// defaultWords are DefaultErrorPattern's words, lower case; "error" and
// "exception" also stand for its class names, "err!" for npm's "ERR!".
var defaultWords = []string{
	"error", "fatal", "panic", "exception", "traceback", "critical", "fail", "failed", "failure",
	"timeout", "timed out", "abort", "aborted", "segfault", "segmentation fault", "out of memory",
	"oom", "denied", "refused", "unhandled", "uncaught", "err!",
}

// words finds defaultWords in a line, ignoring ASCII case.
var words = newAutomaton(defaultWords)

// automaton is an Aho-Corasick automaton over bytes, upper-case ASCII
// letters moving as their lower case: next is the transition table, ends
// the words (indices into defaultWords) that end on reaching a state.
type automaton struct {
	next [][256]uint8
	ends [][]uint8
}

func newAutomaton(ws []string) *automaton {
	a := &automaton{next: make([][256]uint8, 1), ends: make([][]uint8, 1)}
	for k, w := range ws { // the trie; 0 is "no edge yet" (the root has no inbound edge)
		s := 0
		for i := 0; i < len(w); i++ {
			if a.next[s][w[i]] == 0 {
				if len(a.next) == 256 {
					panic("headtail: too many states for the words")
				}
				a.next = append(a.next, [256]uint8{})
				a.ends = append(a.ends, nil)
				a.next[s][w[i]] = uint8(len(a.next) - 1)
			}
			s = int(a.next[s][w[i]])
		}
		a.ends[s] = append(a.ends[s], uint8(k))
	}
	fail := make([]int, len(a.next))
	var queue []int
	for c := range 256 {
		if t := a.next[0][c]; t != 0 {
			queue = append(queue, int(t))
		}
	}
	for len(queue) > 0 { // breadth first: a state's failure is complete before its children's
		s := queue[0]
		queue = queue[1:]
		a.ends[s] = append(a.ends[s], a.ends[fail[s]]...)
		for c := range 256 {
			if t := a.next[s][c]; t != 0 {
				fail[t] = int(a.next[fail[s]][c])
				queue = append(queue, int(t))
			} else {
				a.next[s][c] = a.next[fail[s]][c]
			}
		}
	}
	for s := range a.next {
		for c := 'A'; c <= 'Z'; c++ {
			a.next[s][c] = a.next[s][c+'a'-'A']
		}
	}
	return a
}

// matchDefault reports whether DefaultErrorPattern matches line, without
// running it: the automaton finds the words, and their word boundaries and
// cases are checked here. A line with a Kelvin sign or a long s, which (?i)
// folds to k and s, is left to the pattern. FuzzCut checks that both agree.
func matchDefault(line string) bool {
	if klog(line) {
		return true
	}
	s, high := uint8(0), false
	for i := 0; i < len(line); i++ {
		c := line[i]
		high = high || c >= 0x80
		s = words.next[s][c]
		for _, k := range words.ends[s] {
			if wordAt(line, int(k), i+1) {
				return true
			}
		}
	}
	return high && (strings.Contains(line, "\u212a") || strings.Contains(line, "\u017f")) &&
		defaultPattern.MatchString(line)
}

// wordAt reports whether defaultWords[k], found ending at end, is a match
// of the pattern there.
func wordAt(line string, k, end int) bool {
	w := defaultWords[k]
	start := end - len(w)
	before := start == 0 || !isWord(line[start-1])
	after := end == len(line) || !isWord(line[end])
	switch {
	case w == "err!":
		return before && line[start:end] == "ERR!"
	case before && after:
		return true
	case (w == "error" || w == "exception") && after && start > 0 && isLetter(line[start-1]):
		return line[start] == 'E' && line[start+1:end] == w[1:]
	}
	return false
}

// klog reports whether line starts like klog's error and fatal lines:
// "E1126 10:00:00" or "F1126 10:00:00".
func klog(line string) bool {
	if len(line) < 14 || (line[0] != 'E' && line[0] != 'F') || line[5] != ' ' || line[8] != ':' || line[11] != ':' {
		return false
	}
	for _, i := range [...]int{1, 2, 3, 4, 6, 7, 9, 10, 12, 13} {
		if line[i] < '0' || line[i] > '9' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isWord(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

// matcher returns the test of an error-like line: the pattern's, by hand
// when it is DefaultErrorPattern (Go's regexp is slow on that pattern).
func matcher(o Options) func(string) bool {
	if o.ErrorPattern == defaultPattern {
		return matchDefault
	}
	return o.ErrorPattern.MatchString
}
