package anthropic

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonlex"
)

// maxDepth bounds the nesting of arrays and objects in any input.
const maxDepth = 512

// reader is a strict JSON reader over one input. It decodes values in place,
// as the caller asks for them, so that nothing is built that the caller does
// not keep: an unknown member or a value kept as raw JSON is only validated.
// Keys match exactly (no case folding); a key the caller knows may appear
// once per object. Errors are *Error values with the byte offset and the
// path of the value (line and column are added by [locate]).
type reader struct {
	b     []byte
	i     int
	depth int
}

// fail returns a syntax or shape error at byte off.
func (r *reader) fail(off int, msg string) *Error {
	return &Error{Offset: off, Msg: msg}
}

func (r *reader) ws() { r.i = jsonlex.Space(r.b, r.i) }

// peek skips white space and returns the next byte, 0 at the end.
func (r *reader) peek() byte {
	r.ws()
	if r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// kind names the value that starts at the next byte, for messages.
func (r *reader) kind() string {
	switch c := r.peek(); {
	case r.i >= len(r.b):
		return "the end of the input"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	case c >= 0x80 || c < 0x20:
		return "byte 0x" + strconv.FormatUint(uint64(c), 16)
	default:
		return strconv.QuoteRune(rune(c))
	}
}

func (r *reader) want(what string) *Error {
	return r.fail(r.i, "want "+what+", got "+r.kind())
}

// end checks that only white space follows the value.
func (r *reader) end() error {
	if r.ws(); r.i < len(r.b) { // not peek() == 0: a NUL byte is data too
		return r.fail(r.i, "data after the JSON value")
	}
	return nil
}

// null consumes a null when one comes next.
func (r *reader) null() bool {
	return r.peek() == 'n' && r.lit("null")
}

// lit consumes the literal s when the input holds it at the current offset.
func (r *reader) lit(s string) bool {
	end := jsonlex.Literal(r.b, r.i, s)
	if end < 0 {
		return false
	}
	r.i = end
	return true
}

func (r *reader) enter() error {
	if r.depth++; r.depth > maxDepth {
		return r.fail(r.i, "nested more than "+strconv.Itoa(maxDepth)+" levels")
	}
	return nil
}

// object reads an object. For each member whose key is keys[k] it calls
// each(k), which must consume the value; other members are validated and
// skipped. A known key that appears twice is an error: another reader of
// the same bytes could take either value.
func (r *reader) object(keys []string, each func(k int) error) error {
	var seen uint64
	return r.scanObject(func(raw []byte, escaped bool, at int) error {
		k := match(keys, raw, escaped)
		switch {
		case k < 0:
			return r.skip()
		case seen&(1<<k) != 0:
			return r.fail(at, "duplicate key "+quote(keys[k]))
		}
		seen |= 1 << k
		return each(k)
	})
}

// members reads an object whose keys the caller keeps, calling each(key)
// to consume each value; a key that appears twice is an error. It is
// meant for small objects: each key is compared with the ones before it
// until there are 64, then looked up in a map.
func (r *reader) members(each func(key string) error) error {
	var seen []string
	var index map[string]bool
	return r.scanObject(func(raw []byte, escaped bool, at int) error {
		key := keyName(raw, escaped)
		dup := false
		if index != nil {
			dup = index[key]
		} else {
			dup = slices.Contains(seen, key)
		}
		if dup {
			return r.fail(at, "duplicate key "+quote(key))
		}
		if seen = append(seen, key); len(seen) == 64 {
			index = map[string]bool{}
			for _, k := range seen {
				index[k] = true
			}
		}
		if index != nil {
			index[key] = true
		}
		return each(key)
	})
}

// scanObject reads an object, calling member with each key's bytes (between
// the quotes), whether they hold escapes, and the key's offset; member must
// consume the value. Errors from member get the key in their path.
func (r *reader) scanObject(member func(raw []byte, escaped bool, at int) error) error {
	return r.container('{', '}', "an object", func(int) error {
		if r.peek() != '"' {
			return r.want("a string key")
		}
		at := r.i
		raw, escaped, err := r.scanString()
		if err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.want("':' after the key")
		}
		r.i++
		if err := member(raw, escaped, at); err != nil {
			return within(err, keySeg(keyName(raw, escaped)))
		}
		return nil
	})
}

// match returns the index of the key in keys, or -1; it allocates only for
// a key with escapes.
func match(keys []string, raw []byte, escaped bool) int {
	if len(keys) == 0 {
		return -1
	}
	if escaped || !utf8.Valid(raw) {
		raw = []byte(unescape(raw))
	}
	for j, name := range keys {
		if string(raw) == name {
			return j
		}
	}
	return -1
}

func keyName(raw []byte, escaped bool) string {
	if escaped || !utf8.Valid(raw) {
		return unescape(raw)
	}
	return string(raw)
}

// array reads an array, calling each(i) to consume element i.
func (r *reader) array(each func(i int) error) error {
	return r.container('[', ']', "an array", func(i int) error {
		if err := each(i); err != nil {
			return within(err, "["+strconv.Itoa(i)+"]")
		}
		return nil
	})
}

// container reads an object or an array (what names it in the error when
// the value is neither): it enters a level, calls member(i) to read the
// i-th member, the members separated by ',', up to closer.
func (r *reader) container(opener, closer byte, what string, member func(i int) error) error {
	if r.peek() != opener {
		return r.want(what)
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.i++
	if r.peek() == closer {
		r.i++
		r.depth--
		return nil
	}
	for i := 0; ; i++ {
		if err := member(i); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.i++
		case closer:
			r.i++
			r.depth--
			return nil
		default:
			return r.want("',' or '" + string(closer) + "'")
		}
	}
}

// skip validates and consumes one value of any kind.
func (r *reader) skip() error {
	switch c := r.peek(); {
	case c == '{':
		return r.skipObject()
	case c == '[':
		return r.array(func(int) error { return r.skip() })
	case c == '"':
		_, _, err := r.scanString()
		return err
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	default:
		_, err := r.number()
		return err
	}
}

// skipObject validates an object whose keys nobody reads: a duplicate is
// kept as it is, for the next reader to judge.
func (r *reader) skipObject() error {
	return r.object(nil, nil)
}

func (r *reader) literal(s string) error {
	if !r.lit(s) {
		return r.want("a JSON value")
	}
	return nil
}

// raw consumes one value and returns its bytes (a view of the input).
func (r *reader) raw() ([]byte, error) {
	r.ws()
	start := r.i
	if err := r.skip(); err != nil {
		return nil, err
	}
	return r.b[start:r.i], nil
}

// optStr reads a string or null (nil).
func (r *reader) optStr() (*string, error) {
	if r.null() {
		return nil, nil
	}
	s, err := r.str()
	return &s, err
}

// boolean reads true, false or null (false).
func (r *reader) boolean() (bool, error) {
	switch {
	case r.peek() == 't' && r.lit("true"):
		return true, nil
	case r.peek() == 'f' && r.lit("false"):
		return false, nil
	case r.null():
		return false, nil
	}
	return false, r.want("a boolean")
}

// integer reads a non-negative integer that fits an int, or null (0).
func (r *reader) integer() (int, error) {
	if r.null() {
		return 0, nil
	}
	c := r.peek()
	if c != '-' && (c < '0' || c > '9') {
		return 0, r.want("an integer")
	}
	at := r.i
	text, err := r.number()
	if err != nil {
		return 0, err
	}
	n, perr := strconv.Atoi(string(text))
	if perr != nil || n < 0 {
		return 0, r.fail(at, "want a non-negative integer, got "+string(text))
	}
	return n, nil
}

// number consumes a JSON number and returns its text.
func (r *reader) number() ([]byte, error) {
	start := r.i
	end, ok := jsonlex.Number(r.b, start)
	switch {
	case ok:
		r.i = end
		return r.b[start:end], nil
	case end-start < 2: // no digit: not a number at all
		r.i = end
		return nil, r.want("a JSON value")
	case r.b[end-1] == '.':
		return nil, r.fail(end, "want a digit after '.'")
	}
	return nil, r.fail(end, "want a digit in the exponent")
}
