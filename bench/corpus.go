package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/toolout/toolout/core/chunk"
	"github.com/toolout/toolout/core/tokens"
)

// Case is one large tool output of the strategy corpus, with the question
// asked of it and the facts a perfect answer contains.
type Case struct {
	Name     string
	Tool     string
	Question string
	Output   string
	// Facts are the ground truth, each "fact-N=VALUE".
	Facts []string
}

// FactRE matches a whole fact; a fact cut in two matches nowhere.
var FactRE = regexp.MustCompile(`fact-\d+=[0-9a-f]{8}\b`)

// Question is asked of every case.
const Question = "List every fact-N=VALUE entry in the output (N a number, VALUE 8 hex digits)."

func fact(i int) string { return fmt.Sprintf("fact-%d=%08x", i, uint32(i)*2654435761) }

// CaseSpec is one case of the corpus before it is built: its name, the
// tool that produced it, the kind of output and its size in bytes.
type CaseSpec struct {
	Name, Tool, Kind string
	Size             int
}

// JSON reports whether the case's output is one JSON document.
func (s CaseSpec) JSON() bool {
	return strings.HasPrefix(s.Kind, "json") || strings.HasPrefix(s.Kind, "records")
}

// CorpusCases lists the corpus in report order. A case's facts are
// numbered from 100 times its position plus one, so they do not depend on
// which other cases are built.
var CorpusCases = []CaseSpec{
	{"logs-10KB", "logs__query", "logs", 10 << 10},
	{"logs-1MB", "logs__query", "logs", 1 << 20},
	{"logs-10MB", "logs__query", "logs", 10 << 20},
	{"json-api-300KB", "shop__orders", "json-pretty", 300 << 10},
	{"json-single-line-2MB", "shop__orders", "json-line", 2 << 20},
	{"csv-500KB", "warehouse__export", "csv", 500 << 10},
	{"code-search-200KB", "code__search", "code", 200 << 10},
	{"json-records-400KB", "events__list", "records", 400 << 10},
	{"logs-stacktrace-300KB", "logs__query", "logs-trace", 300 << 10},
	{"json-single-line-5MB", "events__list", "records-line", 5 << 20},
	{"text-cuts-1MB", "web__fetch", "text-line", 1 << 20},
}

// Corpus returns the deterministic corpus (CorpusCases): logs, JSON API
// dumps (pretty and single-line), CSV and code-search results, from 10 KB
// to 10 MB, with facts at the start, the middle, the end, and, for the
// documents that need several chunks, across the chunk boundaries of the
// budget; and the harder cases: a JSON array of event records whose facts
// sit in some records' fields (the first, the last, error-like records in
// the middle, one ordinary record in the middle), logs with a stack trace
// in the middle (facts in the exception messages and a frame), a 5 MB
// single-line array of records, and a single-line text whose facts are
// planted across every cut of the chunk plan.
//
// budgetFor returns the chunk budget full-chunked will use on a document;
// boundary facts are placed where a plan without overlap cuts, so that only
// overlap keeps them whole.
// keep, when not nil, picks the cases to build by name; only those are
// built, and each case is the same whichever others are built.
func Corpus(budgetFor func(tool, doc string) int, keep func(name string) bool) []Case {
	var out []Case
	for i, s := range CorpusCases {
		if keep != nil && !keep(s.Name) {
			continue
		}
		out = append(out, build(s, 100*(i+1), func(d string) int { return budgetFor(s.Tool, d) }))
	}
	return out
}

// maxCutFacts bounds the facts planted across cuts in one case, so that a
// case's facts stay within its hundred numbers.
const maxCutFacts = 60

// build makes the case of s; its facts are numbered from n+1.
func build(s CaseSpec, n int, budget func(string) int) Case {
	c := Case{Name: s.Name, Tool: s.Tool, Question: Question}
	var doc string
	switch s.Kind {
	case "records", "records-line":
		doc, c.Facts = records(s.Size, s.Kind == "records", &n)
	case "logs-trace":
		doc, c.Facts = traceLogs(s.Size, &n)
	default:
		doc = filler(s.Kind, s.Size)
		// Facts at the start, the middle and the end.
		var places []int
		for _, frac := range []float64{0.01, 0.5, 0.99} {
			places = append(places, int(frac*float64(len(doc))))
		}
		doc, c.Facts = plant(s.Kind, doc, places, &n)
	}
	// Facts across the chunk boundaries of a plan without overlap: up to
	// four, or every cut of the two single-line cases made for them.
	var more []string
	doc, more = straddle(doc, budget, s.Kind == "text-line" || s.Kind == "records-line", &n)
	c.Facts = append(c.Facts, more...)
	c.Output = doc
	return c
}

// filler returns about size bytes of one kind of output.
func filler(kind string, size int) string {
	rng := rand.New(rand.NewPCG(uint64(size), 42))
	var b strings.Builder
	b.Grow(size + 256)
	switch kind {
	case "logs":
		return generate("logs", size)
	case "text-line":
		return strings.ReplaceAll(generate("prose", size), "\n", " ")
	case "code":
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "internal/handlers/h%03d.go:%d:\tif err := validate(req%d); err != nil { return nil, fmt.Errorf(\"h%d: %%w\", err) }\n",
				i%500, 10+rng.IntN(900), i, i)
		}
	case "csv":
		b.WriteString("id,sku,warehouse,qty,updated_at,note\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "%d,SKU-%05d,wh-%d,%d,2026-11-%02dT%02d:00:00Z,restock\n", i, rng.IntN(1e5), rng.IntN(9), rng.IntN(500), 1+rng.IntN(28), rng.IntN(24))
		}
	case "json-pretty", "json-line":
		var orders []map[string]any
		for i := 0; b.Len() < size; i++ {
			o := map[string]any{"id": i, "number": fmt.Sprintf("ORD-%06d", i), "status": []string{"paid", "shipped", "refunded"}[rng.IntN(3)],
				"total": fmt.Sprintf("%d.%02d", rng.IntN(900), rng.IntN(100)), "note": "ok",
				"comment": strings.Repeat(words[rng.IntN(len(words))]+" ", 20+rng.IntN(20))}
			orders = append(orders, o)
			line, _ := json.Marshal(o)
			b.Write(line) // only to measure
			if kind == "json-pretty" {
				b.WriteString(strings.Repeat(" ", 60)) // indentation and newlines
			}
		}
		var data []byte
		if kind == "json-pretty" {
			data, _ = json.MarshalIndent(map[string]any{"data": map[string]any{"orders": orders}}, "", "  ")
		} else {
			data, _ = json.Marshal(map[string]any{"data": map[string]any{"orders": orders}})
		}
		return string(data)
	}
	return b.String()
}

// plant writes a fact at each place, on a line or field of its own kind,
// replacing the bytes there so the document keeps its size and shape.
func plant(kind, doc string, places []int, n *int) (string, []string) {
	var facts []string
	for _, at := range places {
		*n++
		f := fact(*n)
		facts = append(facts, f)
		var ins string
		switch kind {
		case "json-pretty", "json-line":
			// Inside a note value: find the next "ok" note and replace it.
			i := strings.Index(doc[at:], `"note": "ok"`)
			w := `"note": "ok"`
			if kind == "json-line" {
				i, w = strings.Index(doc[at:], `"note":"ok"`), `"note":"ok"`
			}
			if i < 0 {
				i = strings.LastIndex(doc[:at], w) - at
			}
			p := at + i
			doc = doc[:p] + strings.Replace(w, "ok", "ok "+f, 1) + doc[p+len(w):]
			continue
		case "csv":
			ins = fmt.Sprintf("%d,SKU-00000,wh-0,0,2026-11-01T00:00:00Z,%s\n", 900000+*n, f)
		case "code":
			ins = fmt.Sprintf("internal/config/facts.go:%d:\t// %s\n", *n, f)
		default:
			ins = fmt.Sprintf("2026-11-03T10:00:00Z host=web-0 level=WARN msg=\"audit %s\" latency_ms=0\n", f)
		}
		p := lineStart(doc, at)
		doc = doc[:p] + ins + doc[p:]
	}
	return doc, facts
}

// straddle overwrites text around four chunk cuts (every cut, up to
// maxCutFacts, when every is set) of a plan without
// overlap with facts, so that each fact has its first half before the cut
// and the rest after. Overwriting keeps every byte offset; as the new text
// tokenizes a little differently, it replans and moves the facts until each
// straddles a cut (a few rounds). Only letters and spaces are overwritten, so
// JSON stays valid. A cut on a line break (line-oriented documents) is left
// alone: the planner's line preference keeps such facts whole anyway.
func straddle(doc string, budgetFor func(string) int, every bool, n *int) (string, []string) {
	tk := tokens.MustNew(tokens.CL100K)
	cutsOf := func(d string) []int {
		plan, err := chunk.Make(d, tk, budgetFor(d), 0)
		if err != nil || len(plan.Chunks) < 2 {
			return nil
		}
		var cuts []int
		for _, ch := range plan.Chunks[:len(plan.Chunks)-1] {
			cuts = append(cuts, ch.End)
		}
		switch {
		case every:
			cuts = cuts[:min(len(cuts), maxCutFacts)]
		case len(cuts) > 4:
			cuts = []int{cuts[0], cuts[len(cuts)/3], cuts[2*len(cuts)/3], cuts[len(cuts)-1]}
		}
		return cuts
	}
	orig := doc
	cuts := cutsOf(doc)
	var facts []string
	var spans [][2]int
	for range cuts {
		*n++
		facts = append(facts, fact(*n))
	}
	for round := 0; round < 6 && len(cuts) > 0; round++ {
		b := []byte(orig)
		spans = spans[:0]
		for i, c := range cuts {
			if i >= len(facts) || c > 0 && doc[c-1] == '\n' {
				continue
			}
			f := " " + facts[i] + " "
			p, ok := overwritable(orig, c, len(f))
			if !ok {
				continue
			}
			copy(b[p:], f)
			spans = append(spans, [2]int{p + 1, p + len(f) - 1})
		}
		doc = string(b)
		next := cutsOf(doc)
		done := true
		for _, sp := range spans {
			if !slicesContainsBetween(next, sp[0], sp[1]) {
				done = false
			}
		}
		if done {
			break
		}
		cuts = next
	}
	// Report only the facts that made it into the text.
	var kept []string
	for _, f := range facts {
		if strings.Contains(doc, f) {
			kept = append(kept, f)
		}
	}
	return doc, kept
}

// overwritable finds a window of width bytes, holding only letters and
// spaces, that contains position c strictly inside it.
func overwritable(s string, c, width int) (int, bool) {
	for d := 0; d < width-2; d++ {
		for _, p := range []int{c - width/2 - d, c - width/2 + d} {
			if p < 0 || p+width > len(s) || p >= c || p+width <= c {
				continue
			}
			ok := true
			for _, ch := range []byte(s[p : p+width]) {
				if !(ch == ' ' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
					ok = false
					break
				}
			}
			if ok {
				return p, true
			}
		}
	}
	return 0, false
}

func slicesContainsBetween(cuts []int, lo, hi int) bool {
	for _, c := range cuts {
		if c > lo && c < hi {
			return true
		}
	}
	return false
}

func lineStart(s string, at int) int {
	if i := strings.LastIndexByte(s[:at], '\n'); i >= 0 {
		return i + 1
	}
	return 0
}
