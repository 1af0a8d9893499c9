package jsonaware_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolout/toolout/core/jsonaware"
	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/internal/hostile"
	"github.com/toolout/toolout/internal/seeds"
)

// maxFuzzBytes bounds the fuzzed document.
const maxFuzzBytes = 64 << 10

// FuzzShorten holds Shorten to its contract on any input, budget and
// options (checkShorten): no panic; JSON that is valid (and UTF-8) in is
// valid JSON out, every key path kept, every scalar kept in order (a string
// whole, or its head with a marker), the budget met unless the smallest
// form is over it, a fitting input returned as it is, the same output
// twice, and the output shortened again unchanged; an output over the
// budget only with OverBudget set and only when it is the smallest form
// (what a budget of 0 gives), so the result says why it could not fit; an
// error is a *jsonlex.SyntaxError inside the input, and only for an input that is
// not JSON.
// Seeds: the JSON files of the scenarios, records with error rows and
// outliers, markers, escapes and the bounds of the package doc.
func FuzzShorten(f *testing.F) {
	f.Add([]byte(hostile.ManyKeys(3000)), uint16(1000), uint8(0), uint8(0)) // smallest form over the budget
	for _, s := range seedDocs(f) {
		f.Add(s, uint16(len(s)/3), uint8(0), uint8(0))
		f.Add(s, uint16(40), uint8(8), uint8(1))
	}
	f.Fuzz(func(t *testing.T, doc []byte, budget uint16, maxStr, keep uint8) {
		if len(doc) > maxFuzzBytes {
			doc = doc[:maxFuzzBytes]
		}
		o := jsonaware.Options{MaxStringBytes: int(maxStr) - 16, KeepRows: int(keep%8) - 1}
		if err := checkShorten(doc, int(budget), o); err != nil {
			t.Fatalf("budget %d, options %+v: %v\ninput: %q", budget, o, err, doc)
		}
	})
}

// seedDocs returns the JSON files of the scenarios (cut to maxFuzzBytes)
// and hand-written documents.
func seedDocs(f *testing.F) [][]byte {
	var docs [][]byte
	for _, data := range seeds.Files(f, "../../scenarios/*/data/*.json") {
		docs = append(docs, data[:min(len(data), maxFuzzBytes)])
	}
	for _, s := range []string{
		records(30, 12, 20), `[1,2,3,4,5,6,7,8,9,10,11,12,1000]`, `"` + strings.Repeat(`\ud83d\ude00é\n`, 30) + `"`,
		`{"a":["[… 5 rows cut …]",1,2,3,4,5,6,7,"[… 1 row cut …]"],"b":"xyz… [+12 bytes]"}`,
		"\uFEFF{\"x\": [ {}, [], \"\", 0, -1.5e300, true, false, null ] }", `[[[[{"deep":[{"k":1},{"k":2,"j":3}]}]]]]`,
		hostile.ManyKeys(3000), // 57,001 bytes whatever the budget (its smallest form)
		`{"a":1,"a":2}`, `123456789012345678901234567890`, `[{"a":1},{"b":2},{"c":3},{"d":4},{"e":5},{"f":6},{"g":7}]`,
		`["` + strings.Repeat("status ", 2000) + `"]`, // the 5xx regexp once ran over the whole string per "status"
		``, ` `, `[1,]`, `{"a" 1}`, `[1] x`, "\"\xff\"", strings.Repeat("[", 10_001), `"\ud800"`,
	} {
		docs = append(docs, []byte(s))
	}
	return docs
}

// records returns an object holding an array of n log records, record
// errAt an error and record outAt an outlier, each with a message of 40
// bytes.
func records(n, errAt, outAt int) string {
	var b strings.Builder
	b.WriteString(`{"service":"api","records":[`)
	for i := range n {
		level, ms := "info", 10+i%5
		if i == errAt {
			level = "error"
		}
		if i == outAt {
			ms = 5000
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"seq":%d,"level":%q,"ms":%d,"msg":"%s"}`, i, level, ms, strings.Repeat("m", 40))
	}
	b.WriteString(`],"total":` + fmt.Sprint(n) + `}`)
	return b.String()
}

// checkShorten runs Shorten on doc and checks the contract (see
// FuzzShorten).
func checkShorten(doc []byte, budget int, o jsonaware.Options) error {
	out, st, err := jsonaware.Shorten(doc, budget, o)
	valid := json.Valid(doc) && utf8.Valid(doc)
	if err != nil {
		var se *jsonlex.SyntaxError
		if !errors.As(err, &se) {
			return fmt.Errorf("error %v is not a *jsonlex.SyntaxError", err)
		}
		if line, col := jsonlex.LineCol(doc, se.Offset); se.Offset < 0 || se.Offset > len(doc) || line != se.Line || col != se.Col {
			return fmt.Errorf("error %v: offset outside the input or line:col not its own (%d:%d)", err, line, col)
		}
		if valid {
			return fmt.Errorf("valid JSON refused: %v", err)
		}
		return nil
	}
	if !json.Valid(out) || !utf8.Valid(out) {
		return fmt.Errorf("output is not valid JSON: %q", out)
	}
	body := bytes.TrimPrefix(doc, []byte("\uFEFF"))
	if len(body) <= budget && !bytes.Equal(out, body) {
		return fmt.Errorf("input fits but output differs: %q", out)
	}
	if len(out) > budget && !st.OverBudget {
		return fmt.Errorf("output of %d bytes over budget %d without OverBudget", len(out), budget)
	}
	if st.OverBudget {
		if smallest, _, _ := jsonaware.Shorten(doc, 0, o); len(out) > budget && !bytes.Equal(out, smallest) {
			return fmt.Errorf("output of %d bytes over budget %d is not the smallest form (%d bytes)", len(out), budget, len(smallest))
		}
	}
	if st.OutBytes != len(out) || st.InBytes != len(doc) {
		return fmt.Errorf("stats sizes %d -> %d, want %d -> %d", st.InBytes, st.OutBytes, len(doc), len(out))
	}
	if err := checkKept(body, out); err != nil {
		return err
	}
	again, _, err := jsonaware.Shorten(doc, budget, o)
	if err != nil || !bytes.Equal(again, out) {
		return fmt.Errorf("second run differs: %v\n%q\n%q", err, out, again)
	}
	twice, _, err := jsonaware.Shorten(out, budget, o)
	if err != nil || !bytes.Equal(twice, out) {
		return fmt.Errorf("output shortened again differs: %v\n%q\n%q", err, out, twice)
	}
	return nil
}

// checkKept checks that out keeps every key path of in, and that its
// scalars are those of in, in order (rows markers aside): the same, or for
// a string its head with a string marker.
func checkKept(in, out []byte) error {
	ids := pathIDs{}
	inToks, inPaths, err := tokens(in, ids)
	if err != nil {
		return fmt.Errorf("reading the input: %v", err)
	}
	outToks, outPaths, err := tokens(out, ids)
	if err != nil {
		return fmt.Errorf("reading the output: %v", err)
	}
	for p := range inPaths {
		if !outPaths[p] {
			return fmt.Errorf("key path %d lost", p)
		}
	}
	i := 0
	for _, ot := range outToks {
		if s, ok := ot.(string); ok {
			if _, ok := jsonaware.ParseRowsMarker(s); ok {
				continue
			}
		}
		for i < len(inToks) && !keeps(inToks[i], ot) {
			i++
		}
		if i == len(inToks) {
			return fmt.Errorf("output value %#v is not an input value in order", ot)
		}
		i++
	}
	return nil
}

// keeps reports whether output scalar o stands for input scalar in.
func keeps(in, o any) bool {
	if in == o {
		return true
	}
	is, ok1 := in.(string)
	os, ok2 := o.(string)
	if !ok1 || !ok2 {
		return false
	}
	head, _, ok := jsonaware.ParseStringMarker(os)
	if !ok {
		return false
	}
	if h, _, ok := jsonaware.ParseStringMarker(is); ok {
		is = h
	}
	return strings.HasPrefix(is, head)
}

// pathIDs numbers key paths, the same for both texts compared: a path is
// its parent's id and a key, or a row step.
type pathIDs map[pathStep]int

type pathStep struct {
	parent int
	key    string
	row    bool
}

func (p pathIDs) id(parent int, key string, row bool) int {
	s := pathStep{parent, key, row}
	if id, ok := p[s]; ok {
		return id
	}
	p[s] = len(p) + 1
	return len(p)
}

// tokens returns the scalars and keys of a JSON text in order (strings,
// json.Number, bools, nil; keys as key values) and the ids of its key
// paths. Paths are ids, not strings, so that a deep text costs linear
// time.
func tokens(doc []byte, ids pathIDs) ([]any, map[int]bool, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var toks []any
	paths := map[int]bool{}
	type frame struct {
		path, member int
		obj, wantKey bool
	}
	stack := []frame{{}} // the root: not a container
	valuePath := func() int {
		top := &stack[len(stack)-1]
		if top.obj {
			top.wantKey = true
			return top.member
		}
		if len(stack) == 1 {
			return 0
		}
		return ids.id(top.path, "", true)
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return toks, paths, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if top := &stack[len(stack)-1]; top.obj && top.wantKey {
			if tok == json.Delim('}') {
				stack = stack[:len(stack)-1]
				continue
			}
			k := tok.(string)
			top.member, top.wantKey = ids.id(top.path, k, false), false
			paths[top.member] = true
			toks = append(toks, key{k})
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			stack = append(stack, frame{path: valuePath(), obj: tok == json.Delim('{'), wantKey: true})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		default:
			valuePath()
			toks = append(toks, tok)
		}
	}
}

// key is an object key among tokens' scalars.
type key struct{ k string }

// hostileDocs are the adversarial schemas of internal/hostile at a small
// size, as further JSON inputs.
func hostileDocs(size int) [][]byte {
	var out [][]byte
	for _, a := range hostile.Schemas {
		out = append(out, a.Make(size))
	}
	return out
}
