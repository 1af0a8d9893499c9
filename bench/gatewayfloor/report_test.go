package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestLineString(t *testing.T) {
	l := line{"throughput", 32, []value{{2091.5, "gateway-req/s"}, {3217, "floor req/s"}}}
	want := "BenchmarkGatewayFloor/throughput\t32\t2091.5 gateway-req/s\t3217 floor_req/s"
	if got := l.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	// bench/ratios reads a line whose fields, name and N first, come in
	// value-unit pairs.
	if f := strings.Fields(l.String()); len(f)%2 != 0 || len(f) != 6 {
		t.Errorf("%d fields, want 6: %q", len(f), f)
	}
	var b strings.Builder
	if err := writeLines(&b, []line{l, {"memory", 1500, []value{{301.25, "peak-MiB"}}}}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "\n"); n != 2 {
		t.Errorf("%d lines written, want 2: %q", n, b.String())
	}
}

func TestPercentile(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 3}, {100, 5}, {1, 1}, {90, 5}} {
		if got := percentile(ds, c.p); got != c.want {
			t.Errorf("p%v = %d, want %d", c.p, got, c.want)
		}
	}
	if got := percentile([]time.Duration{4, 1, 3, 2}, 50); got != 2 {
		t.Errorf("p50 of four = %d, want 2 (nearest rank)", got)
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of none = %d, want 0", got)
	}
}

func TestPerRequest(t *testing.T) {
	if got := perRequest(1500*time.Millisecond, 300); got != 5 {
		t.Errorf("perRequest = %v ms, want 5", got)
	}
	if got := perRequest(time.Second, 0); got != 0 {
		t.Errorf("perRequest of no request = %v, want 0", got)
	}
}

func TestBodies(t *testing.T) {
	a, b := logResult(1, 200_000), logResult(2, 200_000)
	if len(a) != 200_000 || len(b) != 200_000 {
		t.Fatalf("sizes %d, %d; want 200000", len(a), len(b))
	}
	if a == b || strings.SplitN(a, "\n", 2)[0] == strings.SplitN(b, "\n", 2)[0] {
		t.Error("two seeds gave the same result")
	}
	var req struct {
		Messages []struct{ Role, Content string }
	}
	if err := json.Unmarshal(toolBody(a), &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Messages) != 3 || req.Messages[2].Role != "tool" || req.Messages[2].Content != a {
		t.Errorf("the tool message does not carry the result: %d messages", len(req.Messages))
	}
	for _, body := range []string{passthroughBody, streamBody, answerJSON} {
		if !json.Valid([]byte(body)) {
			t.Errorf("not JSON: %s", body)
		}
	}
}

func TestConfigCheck(t *testing.T) {
	ok := config{Reps: 3, Conc: 32, Latency: 300, CPU: 300, Size: 200_000, Mem: 1500, Duration: time.Second, Cap: 256 << 20}
	if err := ok.check(); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]func(*config){
		"reps":     func(c *config) { c.Reps = 0 },
		"duration": func(c *config) { c.Duration = 0 },
		"size":     func(c *config) { c.Size = 100 },
		"mem":      func(c *config) { c.Mem = -1 },
		"cap":      func(c *config) { c.Cap = 1 << 20 },
	} {
		c := ok
		bad(&c)
		if err := c.check(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
