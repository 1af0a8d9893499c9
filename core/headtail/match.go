package headtail

import "strings"

// defaultWords are the words one of which every match of
// DefaultErrorPattern contains, ignoring ASCII case: the pattern's words,
// and "error" and "exception" for its class names. A line with none of
// them (and no klog prefix, no Kelvin sign or long s, which (?i) folds to k
// and s) cannot match, so the pattern runs only on the lines that have one:
// the pattern alone reads about 7 MB/s, the automaton hundreds.
var defaultWords = []string{
	"error", "fatal", "panic", "exception", "traceback", "critical", "fail", "timeout", "timed out",
	"abort", "segfault", "segmentation fault", "out of memory", "oom", "denied", "refused",
	"unhandled", "uncaught", "err!",
}

// automaton is an Aho-Corasick automaton over ASCII-lowercased bytes: next
// is the transition table, final marks the states that end a word.
type automaton struct {
	next  [][256]uint8
	final []bool
}

var words = newAutomaton(defaultWords)

func newAutomaton(ws []string) *automaton {
	a := &automaton{next: make([][256]uint8, 1), final: make([]bool, 1)}
	for _, w := range ws { // the trie; 0 is "no edge yet" (the root has no inbound edge)
		s := 0
		for i := 0; i < len(w); i++ {
			if a.next[s][w[i]] == 0 {
				if len(a.next) == 256 {
					panic("headtail: too many states for the words")
				}
				a.next = append(a.next, [256]uint8{})
				a.final = append(a.final, false)
				a.next[s][w[i]] = uint8(len(a.next) - 1)
			}
			s = int(a.next[s][w[i]])
		}
		a.final[s] = true
	}
	fail := make([]int, len(a.next))
	queue := []int{}
	for c := range 256 {
		if t := a.next[0][c]; t != 0 {
			queue = append(queue, int(t))
		}
	}
	for len(queue) > 0 { // breadth first: a state's failure is done before its children's
		s := queue[0]
		queue = queue[1:]
		a.final[s] = a.final[s] || a.final[fail[s]]
		for c := range 256 {
			if t := a.next[s][c]; t != 0 {
				fail[t] = int(a.next[fail[s]][c])
				queue = append(queue, int(t))
			} else {
				a.next[s][c] = a.next[fail[s]][c]
			}
		}
	}
	for s := range a.next { // fold: an upper-case letter moves as its lower case
		for c := 'A'; c <= 'Z'; c++ {
			a.next[s][c] = a.next[s][c+'a'-'A']
		}
	}
	return a
}

// candidate reports whether line may match DefaultErrorPattern.
func (a *automaton) candidate(line string) bool {
	if len(line) >= 5 && (line[0] == 'E' || line[0] == 'F') && isDigit(line[1]) {
		return true
	}
	s, high := uint8(0), false
	for i := 0; i < len(line); i++ {
		c := line[i]
		high = high || c >= 0x80
		s = a.next[s][c]
		if a.final[s] {
			return true
		}
	}
	return high && (strings.Contains(line, "\u212a") || strings.Contains(line, "\u017f"))
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// matcher returns the test of an error-like line: the pattern, behind the
// automaton when it is DefaultErrorPattern.
func matcher(o Options) func(string) bool {
	re := o.ErrorPattern
	if re != DefaultErrorPattern {
		return re.MatchString
	}
	return func(line string) bool { return words.candidate(line) && re.MatchString(line) }
}
