package jsonaware

import "regexp"

// Defaults of the zero Options.
const (
	DefaultMaxStringBytes = 512
	DefaultKeepRows       = 3
)

// minStringBytes is where the ladder stops halving strings before it cuts
// rows below KeepRows.
const minStringBytes = 16

// Options tune Shorten. The zero value means the defaults.
type Options struct {
	// MaxStringBytes: a string whose text (as written, between its quotes)
	// is longer keeps a head of at most this many bytes and a marker
	// saying how many were cut, once the budget asks for it. 0 means
	// DefaultMaxStringBytes (512); negative means 0.
	MaxStringBytes int
	// KeepRows: an array of more than 2*KeepRows+1 rows keeps its first
	// and last KeepRows rows (and the rows named in the package doc), once
	// the budget asks for it. 0 means DefaultKeepRows (3); negative means
	// 0.
	KeepRows int
	// ErrorPattern: a string inside an array that it matches (its text as
	// written) makes its row error-like. nil means DefaultErrorPattern.
	ErrorPattern *regexp.Regexp
}

// withDefaults returns o with its zero fields set to the defaults.
func (o Options) withDefaults() Options {
	switch {
	case o.MaxStringBytes == 0:
		o.MaxStringBytes = DefaultMaxStringBytes
	case o.MaxStringBytes < 0:
		o.MaxStringBytes = 0
	}
	switch {
	case o.KeepRows == 0:
		o.KeepRows = DefaultKeepRows
	case o.KeepRows < 0:
		o.KeepRows = 0
	}
	if o.ErrorPattern == nil {
		o.ErrorPattern = DefaultErrorPattern
	}
	return o
}

// Stats says what Shorten cut and kept.
type Stats struct {
	InBytes, OutBytes int // sizes of the input and the output
	// StringsShortened strings lost BytesCut bytes of their text as
	// written (an escape counts its bytes as written).
	StringsShortened, BytesCut int
	// ArraysShortened arrays lost RowsCut rows in all.
	ArraysShortened, RowsCut int
	// Rows kept only because they are error-like, outliers, or hold the
	// first occurrence of a key path (a row kept for several reasons
	// counts once, in that order of precedence: key path, error, outlier).
	ErrorRowsKept, OutlierRowsKept, KeyRowsKept int
	// Step is the step of the ladder that fit (see the package doc): 0
	// when the input was returned as it is, 1 for the input written
	// compact, up to Steps for the smallest form.
	Step, Steps int
	// OverBudget: even the smallest form (every key path kept) is larger
	// than maxBytes; the output is that form.
	OverBudget bool
}

// Shorten returns doc shortened to at most maxBytes as valid JSON, every
// key path kept (see the package doc for the contract, the markers and the
// ladder of cuts). A doc that already fits is returned as it is (the same
// slice, without a leading byte order mark). An input that is not JSON is
// a *jsonlex.SyntaxError naming its position, so that callers can fall back.
func Shorten(doc []byte, maxBytes int, o Options) ([]byte, Stats, error) {
	o = o.withDefaults()
	var m matcher = o.ErrorPattern
	if o.ErrorPattern == DefaultErrorPattern {
		m = defaultMatcher{}
	}
	t, err := parse(doc, m, o.KeepRows)
	if err != nil {
		return nil, Stats{InBytes: len(doc)}, err
	}
	steps := ladder(o)
	body := doc
	if len(body) >= len(bom) && string(body[:len(bom)]) == string(bom) {
		body = body[len(bom):]
	}
	if len(body) <= maxBytes {
		return body, Stats{InBytes: len(doc), OutBytes: len(body), Steps: len(steps)}, nil
	}
	// Two buffers of sizes: the one of the best step that fits so far is
	// kept, so that writing it needs no measuring again.
	r := render{t: t}
	var best []int32
	size := func(i int) int {
		r.lv = steps[i]
		n := r.measure()
		if n <= maxBytes {
			best, r.sizes = r.sizes, best
		}
		return n
	}
	pick, over := len(steps)-1, false
	if size(pick) > maxBytes {
		over = true
		best = r.sizes
	} else {
		lo, hi := 0, pick // size(hi) fits, and best holds its sizes
		for lo < hi {
			mid := lo + (hi-lo)/2
			if size(mid) <= maxBytes {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		pick = hi
	}
	r.lv, r.sizes = steps[pick], best
	r.out = make([]byte, 0, r.sizes[0])
	r.value(0)
	st := r.st
	st.InBytes, st.OutBytes, st.Step, st.Steps, st.OverBudget = len(doc), len(r.out), pick+1, len(steps), over
	return r.out, st, nil
}

// ladder returns the steps of shortening, from the mildest to the
// smallest form (the package doc lists them).
func ladder(o Options) []level {
	s0, k0 := o.MaxStringBytes, o.KeepRows
	steps := []level{{s: -1, k: -1, e: -1, outliers: true}}
	for s := 1 << 20; s > s0; s = shrink(s) {
		steps = append(steps, level{s: s, k: -1, e: -1, outliers: true})
	}
	for k := 1 << 20; k > k0; k = shrink(k) {
		steps = append(steps, level{s: s0, k: k, e: -1, outliers: true})
	}
	steps = append(steps, level{s: s0, k: k0, e: -1, outliers: true})
	for s := s0 / 2; s >= minStringBytes; s /= 2 {
		steps = append(steps, level{s: s, k: k0, e: -1, outliers: true})
	}
	sMin := min(s0, minStringBytes)
	for k := k0 - 1; k >= 1; k-- {
		steps = append(steps, level{s: sMin, k: k, e: -1, outliers: true})
	}
	kMin := min(k0, 1)
	steps = append(steps, level{s: sMin, k: kMin, e: -1})
	for e := 4096; e >= 1; e = shrink(e) {
		steps = append(steps, level{s: sMin, k: kMin, e: e})
	}
	return append(steps, level{s: 0, k: 0, e: 0})
}

// shrink returns the next limit of a series: four fifths of v (at least
// one less), so that a step cuts at most a fifth of what the one before it
// kept and the budget is used to within about that much.
func shrink(v int) int { return min(v*4/5, v-1) }
