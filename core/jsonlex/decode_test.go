package jsonlex_test

import (
	"bytes"
	"testing"

	"github.com/toolout/toolout/core/jsonlex"
)

// FuzzAppendString holds AppendString to String then Unescape (replacing
// invalid UTF-8) on any bytes: the same end, fault and escaped flag
// (escaped also for replaced UTF-8), and on OK the same text.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\"c\\"`, `"\ud83d\ude00x"`, `"\ud83d\u00e9"`, `"\ud83d\uzzzz"`, "\"\xff\xe2\x82\"", `"\`, `"\x"`, "\"a\x01\"", `"\u12"`, `"é` + "\u2028" + `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			b = append([]byte{'"'}, b...)
		}
		wantAt, wantEsc, wantF := jsonlex.String(b, 0)
		got, at, esc, fault := jsonlex.AppendString([]byte("prefix"), b, 0)
		if at != wantAt || fault != wantF {
			t.Fatalf("%q: end %d fault %d, String %d fault %d", b, at, fault, wantAt, wantF)
		}
		if fault != jsonlex.OK {
			return
		}
		want := jsonlex.Unescape([]byte("prefix"), b[1:at-1], true)
		if !esc {
			got = append(got, b[1:at-1]...) // the text is the literal's bytes, not appended
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: text %q, Unescape %q", b, got, want)
		}
		if esc != (wantEsc || !bytes.Equal(want[len("prefix"):], b[1:at-1])) {
			t.Fatalf("%q: escaped %v, String %v", b, esc, wantEsc)
		}
	})
}
