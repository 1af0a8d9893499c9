package extract_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/internal/hostile"
	"github.com/toolout/toolout/internal/seeds"
)

// maxModesFuzzBytes bounds the fuzzed output.
const maxModesFuzzBytes = 8 << 10

// FuzzModes answers tool_output in each mode that calls no model
// (truncate, head-tail, json-aware), with each way truncate cuts, on any
// output up to 8 KiB and any budget, and checks: the success format with the
// routed strategy or truncate in the header; the exact fallback warning when
// json-aware falls back, and only then; a json-aware answer (and a truncate
// cut with json-aware) valid JSON; the body (the cut, after any fallback
// warning) within the budget, its markers included, in every mode and cut
// (a budget is a bound), and a json-aware fallback saying why in
// Outcome.Failure; no model called; the same answer twice.
// Seeds: the tool outputs of the bundled scenarios, JSON shapes, and an
// object of many keys whose every-key form is over the budget.
func FuzzModes(f *testing.F) {
	texts := append(seeds.MustOutputs(f, "../../scenarios", 100), `[{"id":1,"error":"boom"},{"id":2}]`, `{"a":"`+strings.Repeat("x", 3000)+`"}`, "", "[", `"\ud800"`, "[[[[[[[[[[1]]]]]]]]]]")
	for i, s := range texts {
		s = s[:min(len(s), maxModesFuzzBytes)]
		f.Add(s, uint16(len(s)*(i%10)/10+1), uint8(i), uint8(i/3), uint8(i*7))
	}
	f.Add(hostile.ManyKeys(400), uint16(999), uint8(2), uint8(0), uint8(20)) // every-key form over the budget: once came back whole, 4,801 bytes at 1,000
	f.Add(hostile.ManyKeys(400), uint16(999), uint8(0), uint8(2), uint8(20))
	modes := []string{extract.ModeTruncate, extract.ModeHeadTail, extract.ModeJSONAware}
	cuts := []string{extract.CutBytes, extract.CutHeadTail, extract.CutJSONAware}
	stores := &rotatingStore{base: f.TempDir()}
	defer stores.close()
	f.Fuzz(func(t *testing.T, output string, budget uint16, mode, cut, head uint8) {
		output = output[:min(len(output), maxModesFuzzBytes)]
		c := extract.DefaultConfig()
		c.OfferModes = extract.ExtraModes
		c.TruncateWith = cuts[int(cut)%len(cuts)]
		c.HeadPercent = int(head) % 101
		m := modes[int(mode)%len(modes)]
		st, h := stores.put(t, output)
		answer := func() extract.Outcome {
			ex, err := extract.New(extract.Options{Store: st, Tokenizer: tokens.Estimator{}, Nonce: "n1", Config: c, TruncateBytes: int(budget) + 1,
				LLM: core.LLMFunc(func(context.Context, core.Request) (core.Response, error) {
					t.Fatal("a mode that calls no model called one")
					return core.Response{}, nil
				})})
			if err != nil {
				t.Fatal(err)
			}
			args, _ := json.Marshal(map[string]string{"handle": h, "extract": "x", "mode": m})
			return ex.Extract(context.Background(), args)
		}
		o := answer()
		if o2 := answer(); o2.Text != o.Text {
			t.Fatalf("two answers differ:\n%q\n%q", o.Text, o2.Text)
		}
		checkModeAnswer(t, o, m, h, int(budget)+1)
	})
}

// checkModeAnswer checks an answer of mode m for handle h: the success
// format; the mode asked for, or truncate for json-aware with a fallback
// warning and a failure saying why; at most budget bytes; valid JSON from
// json-aware.
func checkModeAnswer(t *testing.T, o extract.Outcome, m, h string, budget int) {
	t.Helper()
	header := "ABSTRACT FROM TOOL OUTPUT t WITH HANDLE " + h + ", STRATEGY:" + o.Strategy + ":\n\n"
	body, ok := strings.CutPrefix(o.Text, header)
	switch {
	case o.IsError || !ok:
		t.Fatalf("not the success format of %s: %q", o.Strategy, o.Text)
	case o.Strategy != m && !(m == extract.ModeJSONAware && o.Strategy == extract.ModeTruncate):
		t.Fatalf("mode %s answered as %s", m, o.Strategy)
	}
	warning := extract.FallbackWarning("json-aware failed") + "\n"
	if fell := o.Fallback != ""; fell != strings.HasPrefix(body, warning) || fell != (m != o.Strategy) {
		t.Fatalf("fallback %q, body %q", o.Fallback, body)
	}
	body = strings.TrimPrefix(body, warning)
	if len(body) > budget {
		t.Fatalf("%s (cut %s) answered %d bytes over the budget of %d: %q", o.Strategy, o.Cut, len(body), budget, body)
	}
	if o.Fallback != "" && o.Failure == "" {
		t.Fatalf("fallback %q without a failure saying why", o.Fallback)
	}
	if (o.Strategy == extract.ModeJSONAware || o.Cut == extract.CutJSONAware) && !json.Valid([]byte(body)) {
		t.Fatalf("%s (cut %s) gave invalid JSON: %q", o.Strategy, o.Cut, body)
	}
}

// rotatingStore serves 64 inputs from one store, then closes it (which
// removes its files) and makes another: a store per input spends the run
// in mkdir.
type rotatingStore struct {
	base string
	st   *store.Store
	uses int
	n    int
}

// put stores output and returns the store and its handle.
func (r *rotatingStore) put(t *testing.T, output string) (*store.Store, string) {
	if r.st == nil || r.uses == 64 {
		r.close()
		st, err := store.New(store.Options{Base: r.base, SessionID: "fuzz", Sources: core.Sources{NewID: func() string {
			r.n++
			return "h" + strconv.Itoa(r.n)
		}}})
		if err != nil {
			t.Fatal(err)
		}
		r.st, r.uses = st, 0
	}
	r.uses++
	m, err := r.st.Put("t", "{}", output, store.Measure(output, tokens.Estimator{}))
	if err != nil {
		t.Fatal(err)
	}
	return r.st, m.Handle
}

func (r *rotatingStore) close() {
	if r.st != nil {
		r.st.Close()
		r.st = nil
	}
}
