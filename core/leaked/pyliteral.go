package leaked

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// The Python literals of pythonic calls, written as JSON: strings (single,
// double and triple quotes, the prefixes r and u, the escapes of Python,
// adjacent literals joined), integers (decimal, 0x, 0o, 0b, underscores)
// and floats, a sign before a number, True, False and None, lists and
// tuples as arrays, dicts with string keys as objects. Anything else (a
// name, an expression, a set, a call) is not a literal. One pass, no
// backtracking; nesting is bounded by maxPyDepth.

// pyState holds what the pythonic parser reads and writes.
type pyState struct {
	out   []byte // the calls' arguments as JSON, back to back
	str   []byte // the string literal being decoded
	depth int
	// spaced: a value in parentheses left white space in out
	spaced bool
	calls  []pyCall
	keys   []string            // the keyword arguments of the current call
	set    map[string]struct{} // the same, once a call has many
	fail   pyFail
}

// pyFail is why a parse stopped: at what byte, and whether the input ended
// first (cut) or the text is not what the grammar wants.
type pyFail struct {
	at  int
	cut bool
	msg string
}

// maxPyDepth bounds the nesting of lists, tuples and dicts in a value.
const maxPyDepth = 100

// maxRadixDigits bounds a 0x, 0o or 0b integer (its conversion to decimal
// is not linear); 256 hex digits already exceed a float64.
const maxRadixDigits = 256

func (p *pyState) bad(at int, msg string) (int, bool) {
	p.fail = pyFail{at: at, msg: msg}
	return at, false
}

func (p *pyState) cut(at int, inside string) (int, bool) {
	p.fail = pyFail{at: at, cut: true, msg: "the input ends inside " + inside}
	return at, false
}

func isIdentStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isIdentByte(c byte) bool  { return isIdentStart(c) || isDigit(c) }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }

// identEnd returns the end of the identifier at s[j] (j when there is none).
func identEnd(s string, j int) int {
	if j >= len(s) || !isIdentStart(s[j]) {
		return j
	}
	j++
	for j < len(s) && isIdentByte(s[j]) {
		j++
	}
	return j
}

// pyValue reads the literal at s[j] and appends it as JSON.
func (sc *scanner) pyValue(j int) (int, bool) {
	s, p := sc.s, &sc.py
	if j >= len(s) {
		return p.cut(j, "a value")
	}
	switch c := s[j]; {
	case sc.pyStringAt(j):
		return sc.pyStrings(j)
	case c == '[':
		return sc.pyList(j)
	case c == '(':
		return sc.pyTuple(j)
	case c == '{':
		return sc.pyDict(j)
	case c == '-' || c == '+':
		k := sc.skip(j + 1)
		if k >= len(s) {
			return p.cut(k, "a number")
		}
		if !numberAt(s, k) {
			return p.bad(j, "a sign before something that is not a number")
		}
		return sc.pyNumber(k, c == '-')
	case numberAt(s, j):
		return sc.pyNumber(j, false)
	case isIdentStart(c):
		return sc.pyWord(j)
	}
	return p.bad(j, "not a literal")
}

// pyWord reads True, False or None.
func (sc *scanner) pyWord(j int) (int, bool) {
	s, p := sc.s, &sc.py
	end := identEnd(s, j)
	w := s[j:end]
	switch w {
	case "True":
		p.out = append(p.out, "true"...)
	case "False":
		p.out = append(p.out, "false"...)
	case "None":
		p.out = append(p.out, "null"...)
	default:
		if end == len(s) && (strings.HasPrefix("True", w) || strings.HasPrefix("False", w) || strings.HasPrefix("None", w)) {
			return p.cut(end, "a value")
		}
		return p.bad(j, "a name, not a literal")
	}
	return end, true
}

// pyDeeper enters a list, tuple or dict.
func (sc *scanner) pyDeeper(j int) bool {
	sc.py.depth++
	if sc.py.depth > maxPyDepth {
		sc.py.bad(j, "nested too deep")
		return false
	}
	return true
}

// pyList reads a list at s[j] as a JSON array.
func (sc *scanner) pyList(j int) (int, bool) {
	if !sc.pyDeeper(j) {
		return j, false
	}
	defer func() { sc.py.depth-- }()
	sc.py.out = append(sc.py.out, '[')
	return sc.pyItems(sc.skip(j+1), ']', 0)
}

// pyTuple reads a tuple at s[j] as a JSON array; (x) without a comma is x.
func (sc *scanner) pyTuple(j int) (int, bool) {
	s, p := sc.s, &sc.py
	if !sc.pyDeeper(j) {
		return j, false
	}
	defer func() { p.depth-- }()
	k := sc.skip(j + 1)
	if k < len(s) && s[k] == ')' {
		p.out = append(p.out, "[]"...)
		return k + 1, true
	}
	// A place for the '[' of a tuple, white space when the parentheses
	// hold one value (the call's arguments are compacted then), so that
	// what was written need not move.
	mark := len(p.out)
	p.out = append(p.out, ' ')
	end, ok := sc.pyValue(k)
	if !ok {
		return end, false
	}
	k = sc.skip(end)
	switch {
	case k >= len(s):
		return p.cut(k, "a tuple")
	case s[k] == ')':
		p.spaced = true
		return k + 1, true
	case s[k] != ',':
		return p.bad(k, "expected ',' or ')'")
	}
	p.out[mark] = '['
	return sc.pyItems(sc.skip(k+1), ')', 1)
}

// pyItems reads the items of a list or tuple from s[k] (the start of an
// item or the closing bracket), n of them already read, and closes the
// JSON array.
func (sc *scanner) pyItems(k int, closing byte, n int) (int, bool) {
	s, p := sc.s, &sc.py
	for {
		if k >= len(s) {
			return p.cut(k, "a list")
		}
		if s[k] == closing {
			p.out = append(p.out, ']')
			return k + 1, true
		}
		if n > 0 {
			p.out = append(p.out, ',')
		}
		end, ok := sc.pyValue(k)
		if !ok {
			return end, false
		}
		n++
		k = sc.skip(end)
		switch {
		case k >= len(s):
			return p.cut(k, "a list")
		case s[k] == ',':
			k = sc.skip(k + 1)
		case s[k] != closing:
			return p.bad(k, "expected ',' or a closing bracket")
		}
	}
}

// pyDict reads a dict at s[j], whose keys are strings, as a JSON object. A
// key given twice is written twice (JSON readers keep the last value, as
// Python does).
func (sc *scanner) pyDict(j int) (int, bool) {
	s, p := sc.s, &sc.py
	if !sc.pyDeeper(j) {
		return j, false
	}
	defer func() { p.depth-- }()
	p.out = append(p.out, '{')
	k := sc.skip(j + 1)
	for n := 0; ; n++ {
		if k >= len(s) {
			return p.cut(k, "a dict")
		}
		if s[k] == '}' {
			p.out = append(p.out, '}')
			return k + 1, true
		}
		if n > 0 {
			p.out = append(p.out, ',')
		}
		if !sc.pyStringAt(k) {
			return p.bad(k, "a dict key that is not a string")
		}
		end, ok := sc.pyStrings(k)
		if !ok {
			return end, false
		}
		if k = sc.skip(end); k >= len(s) {
			return p.cut(k, "a dict")
		} else if s[k] != ':' {
			return p.bad(k, "expected ':'")
		}
		p.out = append(p.out, ':')
		if end, ok = sc.pyValue(sc.skip(k + 1)); !ok {
			return end, false
		}
		k = sc.skip(end)
		switch {
		case k >= len(s):
			return p.cut(k, "a dict")
		case s[k] == ',':
			k = sc.skip(k + 1)
		case s[k] != '}':
			return p.bad(k, "expected ',' or '}'")
		}
	}
}

// numberAt reports whether a number starts at s[j]: a digit, or a '.'
// followed by one.
func numberAt(s string, j int) bool {
	return isDigit(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1])
}

// pyNumber reads the number at s[j] (after its sign, neg for '-') and
// appends it as a JSON number: underscores dropped, 0x/0o/0b in decimal,
// "1." as 1.0 and ".5" as 0.5. A complex number, a decimal integer with
// leading zeros (007) and a number too large for a float64 are not
// literals we take.
func (sc *scanner) pyNumber(j int, neg bool) (int, bool) {
	s, p := sc.s, &sc.py
	mark := len(p.out)
	if neg {
		p.out = append(p.out, '-')
	}
	var end int
	var ok bool
	if s[j] == '0' && j+1 < len(s) && strings.IndexByte("xXoObB", s[j+1]) >= 0 {
		end, ok = sc.pyRadix(j)
	} else {
		end, ok = sc.pyDecimal(j)
	}
	if !ok {
		return end, false
	}
	if end < len(s) && (isIdentByte(s[end]) || s[end] == '.') {
		return p.bad(end, "a malformed number")
	}
	if num := p.out[mark:]; len(num) > 300 || slices.Contains(num, 'e') {
		if _, err := strconv.ParseFloat(string(num), 64); err != nil {
			return p.bad(j, "a number out of range")
		}
	}
	return end, true
}

// pyDigits appends the digits of the digit part at s[j] (digits, single
// underscores between them) and returns its end, j when there is none.
func (sc *scanner) pyDigits(j int, digit func(byte) bool) (int, bool) {
	s, p := sc.s, &sc.py
	k := j
	for k < len(s) {
		switch {
		case digit(s[k]):
			p.out = append(p.out, s[k])
			k++
		case s[k] == '_' && k > j && k+1 < len(s) && digit(s[k+1]):
			k++
		case s[k] == '_':
			return p.bad(k, "a malformed number")
		default:
			return k, true
		}
	}
	return k, true
}

// pyDecimal reads a decimal integer or a float.
func (sc *scanner) pyDecimal(j int) (int, bool) {
	s, p := sc.s, &sc.py
	start := len(p.out)
	k, ok := sc.pyDigits(j, isDigit)
	if !ok {
		return k, false
	}
	intEnd, float := len(p.out), false
	if k == j {
		p.out = append(p.out, '0') // .5
	}
	if k < len(s) && s[k] == '.' {
		float = true
		p.out = append(p.out, '.')
		f := len(p.out)
		if k, ok = sc.pyDigits(k+1, isDigit); !ok {
			return k, false
		}
		if len(p.out) == f {
			p.out = append(p.out, '0') // 1.
		}
	}
	if k < len(s) && s[k]|0x20 == 'e' {
		float = true
		p.out = append(p.out, 'e')
		k++
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			p.out = append(p.out, s[k])
			k++
		}
		if k >= len(s) {
			return p.cut(k, "a number")
		}
		e := k
		if k, ok = sc.pyDigits(k, isDigit); !ok {
			return k, false
		}
		if k == e {
			return p.bad(k, "a malformed number")
		}
	}
	// Leading zeros: none in JSON; in Python only in floats and in 0 itself.
	z := start
	for z < intEnd-1 && p.out[z] == '0' {
		z++
	}
	if z > start {
		if !float && p.out[z] != '0' {
			return p.bad(j, "a decimal integer with leading zeros")
		}
		p.out = append(p.out[:start], p.out[z:]...)
	}
	return k, true
}

// pyRadix reads a 0x, 0o or 0b integer at s[j] and appends it in decimal.
func (sc *scanner) pyRadix(j int) (int, bool) {
	s, p := sc.s, &sc.py
	base, digit := 16, func(c byte) bool { return hexVal(c) >= 0 }
	switch s[j+1] | 0x20 {
	case 'o':
		base, digit = 8, func(c byte) bool { return c >= '0' && c <= '7' }
	case 'b':
		base, digit = 2, func(c byte) bool { return c == '0' || c == '1' }
	}
	k := j + 2
	if k < len(s) && s[k] == '_' {
		k++ // 0x_ff
	}
	mark := len(p.out)
	end, ok := sc.pyDigits(k, digit)
	switch {
	case !ok:
		return end, false
	case end == k && end >= len(s):
		return p.cut(end, "a number")
	case end == k:
		return p.bad(end, "a malformed number")
	case end-k > maxRadixDigits:
		return p.bad(j, "a number out of range")
	}
	var n big.Int
	n.SetString(string(p.out[mark:]), base)
	p.out = n.Append(p.out[:mark], 10)
	return end, true
}
