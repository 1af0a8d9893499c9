package harness

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Pos is a position in a scenario file: the file as displayed (relative to the
// project root when the file lies under a scenarios folder), 1-based line and
// column. A zero Line means the whole file.
type Pos struct {
	File string
	Line int
	Col  int
}

// String renders file:line:col, or file alone when the line is unknown.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a problem found at a position of a scenario file.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is every problem found in one or more scenario files, like
// go/scanner.ErrorList. Its Error method prints one problem per line.
type ErrorList []*Error

// Add appends a problem at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders the list by file, line and column, keeping insertion order for
// problems at the same position.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// suggest returns the candidate closest to s by edit distance when it is close
// enough to be a likely misspelling, or "".
func suggest(s string, candidates []string) string {
	best, bestD := "", len(s)/2+1
	if bestD > 3 {
		bestD = 3
	}
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// problemPos finds where in src the YAML parser's position-less problem msg
// lies: the first character YAML refuses for a reader problem (bad UTF-8 or
// UTF-16, a control character), the first use of the alias for an unknown
// anchor, else the start of the file.
func problemPos(display string, src []byte, msg string) Pos {
	pos := Pos{File: display, Line: 1, Col: 1}
	switch {
	case strings.Contains(msg, "UTF-") || strings.Contains(msg, "surrogate") ||
		msg == "invalid Unicode character" || msg == "control characters are not allowed":
		walkChars(src, func(r rune, line, col int) bool {
			if r < 0 || !yamlChar(r) {
				pos.Line, pos.Col = line, col
				return false
			}
			return true
		})
	case unknownAnchorRE.MatchString(msg):
		name := unknownAnchorRE.FindStringSubmatch(msg)[1]
		var prev rune = ' '
		walkChars(src, func(r rune, line, col int) bool {
			if r == '*' && strings.ContainsRune(" \t\r\n,[{:-?", prev) && aliasAt(src, line, col, name) {
				pos.Line, pos.Col = line, col
				return false
			}
			prev = r
			return true
		})
	}
	return pos
}

var unknownAnchorRE = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// aliasAt reports whether "*"+name, ended by white space, a flow indicator
// or the end, is at line:col of a UTF-8 src.
func aliasAt(src []byte, line, col int, name string) bool {
	rest := src
	for range line - 1 {
		i := bytes.IndexAny(rest, "\n")
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
	}
	for range col - 1 {
		_, size := utf8.DecodeRune(rest)
		rest = rest[size:]
	}
	rest, ok := bytes.CutPrefix(rest, []byte("*"+name))
	return ok && (len(rest) == 0 || bytes.ContainsAny(rest[:1], " \t\r\n,]}"))
}

// yamlChar reports whether YAML allows r in a file (YAML 1.2, c-printable).
func yamlChar(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85:
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
	default:
		return false
	}
	return true
}

// walkChars calls fn with each character of a YAML file and its 1-based line
// and column (in characters, as the parser counts them), until fn returns
// false. The file is UTF-8, or UTF-16 after a byte-order mark; a sequence
// that does not decode is passed as -1 and ends the walk.
func walkChars(src []byte, fn func(r rune, line, col int) bool) {
	next := func(b []byte) (rune, int) {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size <= 1 {
			return -1, 1
		}
		return r, size
	}
	switch {
	case bytes.HasPrefix(src, []byte{0xff, 0xfe}):
		src, next = src[2:], utf16Char(binary.LittleEndian)
	case bytes.HasPrefix(src, []byte{0xfe, 0xff}):
		src, next = src[2:], utf16Char(binary.BigEndian)
	}
	line, col, afterCR := 1, 1, false
	for i := 0; i < len(src); {
		r, size := next(src[i:])
		if !fn(r, line, col) || r < 0 {
			return
		}
		switch {
		case r == '\n' && afterCR: // the line broke at the CR
		case r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029:
			line, col = line+1, 1
		default:
			col++
		}
		afterCR = r == '\r'
		i += size
	}
}

// utf16Char decodes one UTF-16 character, or -1 for a broken one.
func utf16Char(order binary.ByteOrder) func([]byte) (rune, int) {
	return func(b []byte) (rune, int) {
		if len(b) < 2 {
			return -1, len(b)
		}
		u := rune(order.Uint16(b))
		switch {
		case u >= 0xDC00 && u <= 0xDFFF:
			return -1, 2
		case u < 0xD800 || u > 0xDBFF:
			return u, 2
		case len(b) < 4:
			return -1, len(b)
		}
		v := rune(order.Uint16(b[2:]))
		if v < 0xDC00 || v > 0xDFFF {
			return -1, 2
		}
		return 0x10000 + (u-0xD800)<<10 + (v - 0xDC00), 4
	}
}
