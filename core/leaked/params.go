package leaked

import (
	"encoding/json"
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// params builds the arguments object of an XML-parameter call: its keys in
// order of first appearance, a repeated key keeping its first place and
// taking its last value, as a JSON decoder would. Keys and values are
// written as JSON into one buffer, reused from call to call, and the object
// is written once, at its exact size, into the arena.
type params struct {
	buf   []byte         // the keys and values as JSON, back to back
	list  []param        // in order of first appearance
	index map[string]int // key → place in list, once a call has many parameters
}

// param is a parameter: its key, and where its key and its value (the
// last one given) stand in params.buf as JSON.
type param struct {
	key            string
	k0, k1, v0, v1 int
}

// paramsIndexed is how many parameters a call has before a repeated key is
// looked up in a map rather than by a walk of the list.
const paramsIndexed = 8

func (p *params) reset() {
	clear(p.list)
	p.buf, p.list, p.index = p.buf[:0], p.list[:0], nil
}

// set records a parameter's key and its raw text v, typed by kind (see
// appendValue); j is scratch for validating JSON.
func (p *params) set(key, v string, kind valueKind, j *strict) {
	v0 := len(p.buf)
	p.buf = appendValue(p.buf, v, kind, j)
	if k, ok := p.lookup(key); ok {
		p.list[k].v0, p.list[k].v1 = v0, len(p.buf)
		return
	}
	k0 := len(p.buf)
	p.buf = jsonlex.Append(p.buf, key)
	p.list = append(p.list, param{key: key, k0: k0, k1: len(p.buf), v0: v0, v1: k0})
	if p.index != nil {
		p.index[key] = len(p.list) - 1
	} else if len(p.list) > paramsIndexed {
		p.index = make(map[string]int, 2*len(p.list))
		for k, q := range p.list {
			p.index[q.key] = k
		}
	}
}

// lookup returns the place of key in the list.
func (p *params) lookup(key string) (int, bool) {
	if p.index != nil {
		k, ok := p.index[key]
		return k, ok
	}
	for k := range p.list {
		if p.list[k].key == key {
			return k, true
		}
	}
	return 0, false
}

// object writes the parameters as a JSON object into the arena.
func (p *params) object(a *arena) []byte {
	n := len("{}")
	for k, q := range p.list {
		n += q.k1 - q.k0 + 1 + q.v1 - q.v0
		if k > 0 {
			n++
		}
	}
	b := append(a.alloc(n), '{')
	for k, q := range p.list {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, p.buf[q.k0:q.k1]...)
		b = append(b, ':')
		b = append(b, p.buf[q.v0:q.v1]...)
	}
	return append(b, '}')
}

// appendParamValue appends a parameter's text v as a JSON value. One
// leading and one trailing newline are stripped (templates write the value
// on its own lines). The value is then JSON when, trimmed of white space,
// it is a JSON object, array, number, true or false (compacted); else it
// is a string, verbatim. j is scratch for validating JSON.
func appendParamValue(dst []byte, v string, j *strict) []byte {
	v = stripNewlines(v)
	t := strings.Trim(v, " \t\r\n")
	switch {
	case t == "true" || t == "false" || isJSONNumber(t):
		return append(dst, t...)
	case t != "" && (t[0] == '{' || t[0] == '[') && isJSON(t, j):
		return appendCompact(dst, t)
	}
	return jsonlex.Append(dst, v)
}

// isJSON reports whether t, trimmed, is one JSON value, as json.Valid
// does: the strict parser accepts only valid JSON, and encoding/json
// answers for what it refuses (invalid, or nested deeper than its limit).
func isJSON(t string, j *strict) bool {
	return j.value(t, 0) == len(t) || json.Valid([]byte(t))
}

// isJSONNumber reports whether t is a number in JSON's grammar.
func isJSONNumber(t string) bool {
	end, ok := jsonlex.Number(t, 0)
	return ok && end == len(t)
}
