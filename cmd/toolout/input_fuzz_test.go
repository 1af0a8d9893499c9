package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"strings"
	"testing"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/internal/seeds"
)

// scenarioTexts returns the tool outputs of the bundled extract and leaked
// scenarios, each cut to 8 KiB, as fuzz seeds.
func scenarioTexts(f *testing.F) []string {
	var texts []string
	for _, dir := range []string{"../../scenarios/extract", "../../scenarios/leaked"} {
		out, err := seeds.Outputs(dir, 200)
		if err != nil || len(out) == 0 {
			f.Fatalf("seeds from %s: %v (%d found)", dir, err, len(out))
		}
		texts = append(texts, out...)
	}
	for i, t := range texts {
		texts[i] = t[:min(len(t), 8<<10)]
	}
	return texts
}

// FuzzMaxInput checks the --max-input parser on any string: a value it
// accepts is digits and a known unit, equals digits × unit computed in big
// integers, is between 1 and math.MaxInt64 − 1, and reads back from its
// String; an error is one line. Seeds: the values of the specs.
func FuzzMaxInput(f *testing.F) {
	for _, s := range []string{"100", "100B", "1KiB", "1k", "64MiB", "64m", "2GiB", "1TiB", "1kB", "64MB", "2GB",
		"", "MiB", "lots", "-5", "1.5MiB", "64 MiB", "64XB", "0", "9223372036854775807", "9000000TiB",
		"99999999999999999999999", "0064mib", "8388607TiB", "9223372036854775806"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b byteSize
		err := b.Set(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: error of more than one line: %v", s, err)
			}
			return
		}
		digits := strings.TrimRight(s, "BbKkIiMmGgTt")
		unit := strings.ToLower(s[len(digits):])
		mult := map[string]int64{"": 1, "b": 1, "k": 1 << 10, "kib": 1 << 10, "kb": 1e3, "m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
			"g": 1 << 30, "gib": 1 << 30, "gb": 1e9, "t": 1 << 40, "tib": 1 << 40, "tb": 1e12}[unit]
		n, ok := new(big.Int).SetString(digits, 10)
		if !ok || mult == 0 || strings.TrimLeft(digits, "0123456789") != "" {
			t.Fatalf("%q accepted as %d: not digits and a unit", s, int64(b))
		}
		if want := n.Mul(n, big.NewInt(mult)); !want.IsInt64() || want.Int64() != int64(b) {
			t.Fatalf("%q = %d, want %v", s, int64(b), want)
		}
		if b < 1 || int64(b) > maxByteSize {
			t.Fatalf("%q = %d: out of range", s, int64(b))
		}
		var again byteSize
		if err := again.Set(b.String()); err != nil || again != b {
			t.Fatalf("%q = %d prints as %q, which reads back as %d (%v)", s, int64(b), b.String(), int64(again), err)
		}
	})
}

// trickle is a source that serves its text in reads of at most step bytes
// and records how many bytes it served.
type trickle struct {
	text   string
	step   int
	served int
}

func (t *trickle) Read(p []byte) (int, error) {
	if t.served == len(t.text) {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), t.step)], t.text[t.served:])
	t.served += n
	return n, nil
}

// FuzzInput checks the input helper for any text, limit and read size: the
// whole text comes back (as a string, as bytes, and through Read) exactly
// when it is within the limit, otherwise a *tooLargeError that names the
// input; and the source is never asked for more than the limit plus one
// byte. Seeds: the tool outputs of the extract and leaked scenarios.
func FuzzInput(f *testing.F) {
	for i, text := range scenarioTexts(f) {
		f.Add(text, uint16(len(text)-i%3+1), uint8(1+i*13))
	}
	f.Add("", uint16(1), uint8(1))
	f.Add("ab", uint16(1), uint8(255))
	f.Fuzz(func(t *testing.T, text string, limit16 uint16, step8 uint8) {
		limit := byteSize(max(1, limit16))
		for how := range 3 {
			src := &trickle{text: text, step: max(1, int(step8))}
			in, err := openInput(nil, src, limit)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			switch how {
			case 0:
				got, err = in.ReadText()
			case 1:
				var b []byte
				b, err = in.ReadBytes()
				got = string(b)
			default:
				var b []byte
				b, err = io.ReadAll(in)
				got = string(b)
			}
			var tl *tooLargeError
			switch {
			case len(text) <= int(limit) && (err != nil || got != text):
				t.Fatalf("read %d of %d bytes within the limit %d: %v", len(got), len(text), limit, err)
			case len(text) > int(limit) && (!errors.As(err, &tl) || tl.name != stdinName || tl.limit != limit):
				t.Fatalf("%d bytes over the limit %d: got error %v", len(text), limit, err)
			case src.served > int(limit)+1:
				t.Fatalf("limit %d: the source served %d bytes", limit, src.served)
			}
		}
	})
}

// FuzzStats checks that `toolout stats` and `gateway shadow-id`, which read
// in one pass, print what store.Measure and gateway.ShadowID give for the
// whole text, in either encoding. Seeds: the tool outputs of the extract
// and leaked scenarios.
func FuzzStats(f *testing.F) {
	for i, text := range scenarioTexts(f) {
		f.Add(text, i%2 == 1)
	}
	tks := []*tokens.Tiktoken{tokens.MustNew(tokens.CL100K), tokens.MustNew(tokens.O200K)}
	f.Fuzz(func(t *testing.T, text string, o200k bool) {
		tk := tks[0]
		if o200k {
			tk = tks[1]
		}
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"stats", "--encoding", tk.Name()}, strings.NewReader(text), &out, &errb); code != 0 {
			t.Fatalf("stats: exit %d: %s", code, errb.String())
		}
		want, _ := json.Marshal(store.Measure(text, tk))
		if got := strings.TrimSpace(out.String()); got != string(want) {
			t.Fatalf("%s: stats %s, store.Measure %s: %q", tk.Name(), got, want, text)
		}
		out.Reset()
		if code := run(context.Background(), []string{"gateway", "shadow-id"}, strings.NewReader(text), &out, &errb); code != 0 {
			t.Fatalf("shadow-id: exit %d: %s", code, errb.String())
		}
		if want := `{"shadow_id":"` + gateway.ShadowID(text) + `"}`; strings.TrimSpace(out.String()) != want {
			t.Fatalf("shadow-id %s, want %s", out.String(), want)
		}
	})
}
