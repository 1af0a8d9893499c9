package record

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/fakes"
	"go.yaml.in/yaml/v3"
)

// TestReplayedWithinTwentyPercent: a recorded stream's timing, written
// into a step as streamNode writes it and replayed at speed 1 on the
// stepping clock (the stream's delays, summed), lasts within 20% of what
// was recorded, first byte and cadence alike.
func TestReplayedWithinTwentyPercent(t *testing.T) {
	for _, rec := range []Timing{
		{FirstByteMS: 800, GapsMS: repeat(7, 100)},
		{FirstByteMS: 120, GapsMS: repeat(35, 12)},
		{FirstByteMS: 2500},
		{FirstByteMS: 3, GapsMS: []int64{1, 900, 2, 0, 40}},
	} {
		var spec fakes.StreamSpec
		if err := streamNode(&rec).Decode(&spec); err != nil {
			t.Fatal(err)
		}
		text := strings.Repeat("word ", 200)
		l, err := fakes.NewLLM([]fakes.Step{{ID: "s", Respond: fakes.Respond{Text: &text, Stream: &spec}}}, fakes.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := l.CompleteStream(context.Background(), core.Request{})
		if err != nil {
			t.Fatal(err)
		}
		played := s.Replayed(1)
		var got time.Duration
		for _, d := range played.Delays {
			got += d
		}
		want := time.Duration(rec.FirstByteMS) * time.Millisecond
		for _, g := range rec.GapsMS {
			want += time.Duration(g) * time.Millisecond
		}
		if diff := got - want; diff < -want/5 || diff > want/5 {
			t.Errorf("recorded %v (first byte %d ms, %d gaps), replayed %v", want, rec.FirstByteMS, len(rec.GapsMS), got)
		}
		if played.Delays[0] != time.Duration(rec.FirstByteMS)*time.Millisecond {
			t.Errorf("first byte: replayed after %v, recorded %d ms", played.Delays[0], rec.FirstByteMS)
		}
	}
}

func repeat(ms int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = ms
	}
	return out
}

// FuzzRecordedData reads any bytes as a call log's timings and as a
// scenario to add timing to: no panic; an error names the log's line; a
// scenario given timing is still YAML, whose steps each hold one stream.
func FuzzRecordedData(f *testing.F) {
	f.Add([]byte(`{"request":{},"response":"data: x","timing":{"first_byte_ms":5,"gaps_ms":[1,2]}}`+"\n\n{\"request\":{}}\n"), []byte("llm:\n  - id: a\n    respond:\n      final: x\n"))
	f.Add([]byte(`{"timing":{"first_byte_ms":"x"}}`), []byte("llm: [{respond: {stream: {chunks: 2}}}, {respond: {}}]"))
	f.Add([]byte("not json\n"), []byte(": : :"))
	f.Fuzz(func(t *testing.T, log, scenario []byte) {
		path := t.TempDir() + "/x.calls.jsonl"
		if err := os.WriteFile(path, log, 0o644); err != nil {
			t.Fatal(err)
		}
		timings, err := loadTimings(path)
		if err != nil && !strings.Contains(err.Error(), ": line ") && !strings.Contains(err.Error(), "token too long") {
			t.Fatalf("loadTimings: %v", err)
		}
		timings = append(timings, &Timing{FirstByteMS: 10, GapsMS: []int64{1, 2, 3}})
		out, err := withTiming(scenario, timings)
		if err != nil {
			return
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(out, &doc); err != nil {
			t.Fatalf("withTiming gave YAML that does not parse: %v\n%s", err, out)
		}
	})
}
