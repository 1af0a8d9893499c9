package prom

import (
	"strconv"
	"sync"
	"unicode/utf8"
)

// Label-value bounds: a value the gateway does not define is kept as given
// up to maxExtra distinct values per label; the rest, and any value that is
// empty, longer than maxValueLen or not UTF-8 (which the client library
// would refuse), become Other. This bounds the series whatever a caller
// passes.
const (
	maxExtra    = 16
	maxValueLen = 64
	// Other is the label value that stands for a value out of bounds.
	Other = "other"
)

// labelSet maps the values of one label onto a bounded set.
type labelSet struct {
	known map[string]bool // read-only after newLabelSet

	mu    sync.Mutex
	extra map[string]bool
}

func newLabelSet(known ...string) *labelSet {
	s := &labelSet{known: map[string]bool{Other: true}, extra: map[string]bool{}}
	for _, v := range known {
		s.known[v] = true
	}
	return s
}

// value returns v, or Other when v is out of bounds.
func (s *labelSet) value(v string) string {
	if s.known[v] {
		return v
	}
	if v == "" || len(v) > maxValueLen || !utf8.ValidString(v) {
		return Other
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.extra[v] {
		return v
	}
	if len(s.extra) >= maxExtra {
		return Other
	}
	s.extra[v] = true
	return v
}

// statusLabel renders an upstream HTTP status: "error" for 0 (no
// response), the decimal code for 100..599, Other for anything else.
func statusLabel(status int) string {
	switch {
	case status == 0:
		return "error"
	case status >= 100 && status <= 599:
		return statusText[status-100]
	default:
		return Other
	}
}

// statusText holds the labels of 100..599, so an event does not allocate.
var statusText = func() (t [500]string) {
	for i := range t {
		t[i] = strconv.Itoa(100 + i)
	}
	return t
}()
