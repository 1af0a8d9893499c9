package harness

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolout/toolout/internal/yamlstrict"
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

// problemPos finds where in src the YAML parser's position-less problem msg
// lies: the first character YAML refuses for a reader problem (bad UTF-8 or
// UTF-16, a control character), the first use of the alias for an unknown
// anchor, else the start of the file.
func problemPos(display string, src []byte, msg string) Pos {
	pos := Pos{File: display, Line: 1, Col: 1}
	switch {
	case strings.Contains(msg, "UTF-") || strings.Contains(msg, "surrogate") ||
		msg == "invalid Unicode character" || msg == "control characters are not allowed":
		yamlstrict.Walk(src, func(c yamlstrict.Char) bool {
			if c.R < 0 || !yamlstrict.Printable(c.R) {
				pos.Line, pos.Col = c.Line, c.Col
				return false
			}
			return true
		})
	case unknownAnchorRE.MatchString(msg):
		name := unknownAnchorRE.FindStringSubmatch(msg)[1]
		var prev rune = ' '
		yamlstrict.Walk(src, func(c yamlstrict.Char) bool {
			if c.R == '*' && strings.ContainsRune(" \t\r\n,[{:-?", prev) && aliasAt(src, c.Line, c.Col, name) {
				pos.Line, pos.Col = c.Line, c.Col
				return false
			}
			prev = c.R
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
