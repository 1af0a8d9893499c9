package yamlstrict

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Message is a yaml.v3 error on one line, without the "yaml: " prefix
// that every one of its errors carries: a TypeError lists its problems
// separated by "; ". The readers of toolout's YAML word their errors with
// it, so that the prefix is dropped here alone.
func Message(err error) string {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return strings.Join(te.Errors, "; ")
	}
	return strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")
}

// Locate places a syntax error that yaml.v3 reported for src (decoding
// its first document, and then a second one), as line and column (1-based,
// the column in characters, as Walk counts them), and returns the message
// without its "yaml: " and "line N: " prefixes. ok is false when err is
// not an error the parser gives again for src.
//
// yaml.v3 gives no column, and its line is not the problem's: for a
// parser error it is the 0-based line of the enclosing construct ("while
// parsing a flow sequence"), for a scanner error a 1-based one, and none
// at all for a problem on the first line. Locate instead finds the
// shortest prefix of src, cut after a character, that the parser refuses
// with the same error: its last character is where the parser stopped,
// and that is the position. It takes about 2·log2(size) parses of at most
// src, on the error path only. Where no prefix search applies (the error
// does not recur), the position is the line the message names, corrected
// to 1-based, at its first non-blank character. A flow collection that
// lacks a ',' or its closing bracket is placed at its opening bracket.
func Locate(src []byte, err error) (line, col int, msg string, ok bool) {
	full := err.Error()
	if again := parseDocs(src); again == nil || again.Error() != full {
		return 0, 0, "", false
	}
	msg = Message(err)
	hint := 1
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		hint, _ = strconv.Atoi(m[1])
		msg = m[2]
		if parserProblems[msg] {
			hint++ // the parser's marks are 0-based
		}
	}
	chars, stop := lineChars(src)
	same := func(end int) bool {
		e := parseDocs(src[:end])
		return e != nil && e.Error() == full
	}
	// charEnd is the offset just past character j.
	charEnd := func(j int) int {
		if j+1 < len(chars) {
			return chars[j+1].Off
		}
		return stop
	}
	// The first line whose end reproduces the error, then the first
	// character of it that does.
	lines := splitLines(chars)
	k := search(len(lines), func(i int) bool { return same(charEnd(lines[i][1] - 1)) })
	if k < 0 {
		return hint, firstNonBlank(chars, hint), msg, true
	}
	first, last := lines[k][0], lines[k][1]
	c := search(last-first, func(i int) bool { return same(charEnd(first + i)) })
	if c < 0 {
		c = last - first - 1
	}
	at := first + c
	if strings.HasPrefix(msg, "did not find expected ',' or ") {
		at = opener(chars, at)
	}
	return chars[at].Line, chars[at].Col, msg, true
}

// opener returns the index of the innermost '{' or '[' left open before
// character i, or i: a flow collection the parser found no ',' or closing
// bracket in is placed at its opening bracket (the shortest prefix that
// fails the same way stops at the first token inside it, with the end of
// the prefix standing for the missing bracket).
func opener(chars []Char, i int) int {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch chars[j].R {
		case '}', ']':
			depth++
		case '{', '[':
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return i
}

// parseDocs decodes the first two documents of src and returns the first
// error that is not the end of the input.
func parseDocs(src []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for range 2 {
		var n yaml.Node
		if err := dec.Decode(&n); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
	return nil
}

var lineRE = regexp.MustCompile(`^line (\d+): (.*)$`)

// parserProblems are yaml.v3's parser errors (parserc.go), whose line it
// reports 0-based; its scanner errors report theirs 1-based.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"did not find expected '-' indicator": true, "did not find expected <document start>": true,
	"did not find expected <stream-start>": true, "did not find expected key": true,
	"did not find expected node content": true, "found duplicate %TAG directive": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found undefined tag handle": true,
}

// lineChars returns the characters of src as Walk reads them, up to the
// first one that does not decode, and the offset where they end.
func lineChars(src []byte) (chars []Char, stop int) {
	stop = len(src)
	Walk(src, func(c Char) bool {
		if c.R < 0 {
			stop = c.Off
			return false
		}
		chars = append(chars, c)
		return true
	})
	return chars, stop
}

// splitLines groups characters by line: each line is the index range
// [start, end) of its characters.
func splitLines(chars []Char) [][2]int {
	var lines [][2]int
	for i := 0; i < len(chars); {
		j := i
		for j < len(chars) && chars[j].Line == chars[i].Line {
			j++
		}
		lines = append(lines, [2]int{i, j})
		i = j
	}
	return lines
}

// search returns the least i < n with ok(i), assuming ok holds from some
// index on, or -1 when it does not hold for n-1.
func search(n int, ok func(int) bool) int {
	if n == 0 || !ok(n-1) {
		return -1
	}
	lo, hi := 0, n-1
	for lo < hi {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// firstNonBlank is the column of the first character of line (1-based)
// that is not a space or tab, or 1.
func firstNonBlank(chars []Char, line int) int {
	for _, c := range chars {
		if c.Line == line && c.R != ' ' && c.R != '\t' && c.R != '\n' && c.R != '\r' {
			return c.Col
		}
	}
	return 1
}
