package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// record is one event of the records cases: a JSON array of these.
type record struct {
	ID      int            `json:"id"`
	TS      string         `json:"ts"`
	Service string         `json:"service"`
	Level   string         `json:"level"`
	Status  int            `json:"status"`
	Message string         `json:"message"`
	Error   string         `json:"error,omitempty"`
	Attrs   map[string]any `json:"attrs"`
}

// records returns a JSON array of about size bytes of event records,
// indented when pretty, else on one line, with five facts in record
// fields: in the first record's attrs, in the error field of two
// error-like records (level error, status 5xx) at a third and two thirds,
// in an ordinary record's attrs at the middle, and in the last record's
// message. A third error-like record, at a sixth, holds no fact. Facts are
// numbered from *n+1.
func records(size int, pretty bool, n *int) (string, []string) {
	rng := rand.New(rand.NewPCG(uint64(size), 7))
	// Each record takes about 258 bytes on one line, 330 indented.
	per := 258
	if pretty {
		per = 330
	}
	count := max(size/per, 12)
	recs := make([]record, count)
	for i := range recs {
		recs[i] = record{ID: 100000 + i, TS: fmt.Sprintf("2026-11-03T%02d:%02d:%02dZ", i/3600%24, i/60%60, i%60),
			Service: []string{"checkout", "cart", "search", "auth"}[rng.IntN(4)], Level: "info", Status: 200,
			Message: sentence(rng, 12+rng.IntN(10)),
			Attrs:   map[string]any{"region": []string{"eu-west-1", "us-east-1", "ap-south-1"}[rng.IntN(3)], "user": fmt.Sprintf("u%05d", rng.IntN(1e5)), "latency_ms": rng.IntN(900)}}
	}
	var facts []string
	next := func() string { *n++; f := fact(*n); facts = append(facts, f); return f }
	failing := func(i int, detail string) {
		recs[i].Level, recs[i].Status = "error", 503
		recs[i].Error = "upstream timeout after 30s " + detail
	}
	recs[0].Attrs["note"] = "first event " + next()
	failing(count/6, "while calling the ledger")
	failing(count/3, next()+" while calling payments")
	recs[count/2].Attrs["note"] = "audit " + next()
	failing(2*count/3, next()+" while calling inventory")
	recs[count-1].Message += " " + next()
	var data []byte
	if pretty {
		data, _ = json.MarshalIndent(recs, "", "  ")
	} else {
		data, _ = json.Marshal(recs)
	}
	return string(data), facts // in the order they appear
}

// quiet is the shared vocabulary without the words of failure ("error",
// "timeout"), which strategies that keep error-like lines and records look
// for: the ordinary lines and records of the harder cases read as healthy.
var quiet = slices.DeleteFunc(slices.Clone(words), func(w string) bool { return w == "error" || w == "timeout" })

// sentence is k quiet words.
func sentence(rng *rand.Rand, k int) string {
	w := make([]string, k)
	for i := range w {
		w[i] = quiet[rng.IntN(len(quiet))]
	}
	return strings.Join(w, " ")
}

// traceLogs returns about size bytes of quiet service logs (INFO and DEBUG
// lines, no errors) with a Java stack trace in the middle: an ERROR line,
// the exception, frames, and its cause. Five facts: an audit line near the
// start and one near the end, and in the middle the exception's message,
// a frame's text and the cause's message, where head-only truncation never
// reaches. Facts are numbered from *n+1.
func traceLogs(size int, n *int) (string, []string) {
	rng := rand.New(rand.NewPCG(uint64(size), 11))
	var facts []string
	next := func() string { *n++; f := fact(*n); facts = append(facts, f); return f }
	var b strings.Builder
	b.Grow(size + 4096)
	line := func(i int, level, msg string) {
		fmt.Fprintf(&b, "2026-11-03T11:%02d:%02d.%03dZ host=api-%d level=%s logger=com.shop.http msg=%q req=%d\n",
			i/60%60, i%60, rng.IntN(1000), rng.IntN(6), level, msg, 880000+i)
	}
	trace := false
	for i := 0; b.Len() < size; i++ {
		switch {
		case i == 3:
			line(i, "INFO", "audit "+next())
		case !trace && b.Len() >= size/2:
			trace = true
			line(i, "ERROR", "request failed: unhandled exception")
			fmt.Fprintf(&b, "java.lang.IllegalStateException: ledger mismatch %s for order ORD-%06d\n", next(), rng.IntN(1e6))
			frames := []string{"ledger.Reconciler.check(Reconciler.java:214)", "ledger.Reconciler.run(Reconciler.java:88)",
				"orders.Service.settle(Service.java:301)", "http.Handler.serve(Handler.java:57)"}
			for _, f := range frames {
				fmt.Fprintf(&b, "\tat com.shop.%s\n", f)
			}
			fmt.Fprintf(&b, "\tat com.shop.ledger.Batch.apply(Batch.java:412) [batch %s]\n", next())
			fmt.Fprintf(&b, "\t... 23 more\nCaused by: java.io.IOException: upstream closed the stream %s\n", next())
			fmt.Fprintf(&b, "\tat com.shop.net.Client.read(Client.java:61)\n\t... 31 more\n")
		default:
			line(i, []string{"INFO", "INFO", "INFO", "DEBUG"}[rng.IntN(4)], sentence(rng, 3+rng.IntN(5)))
		}
	}
	line(1<<20, "INFO", "audit "+next())
	return b.String(), facts
}
