package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"go.yaml.in/yaml/v3"
)

// maxChunks is the most chunks a recorded stream is replayed in: the
// recording's gaps are spread evenly over them, its whole time kept.
const maxChunks = 64

// timingOf is a call's timing from its answer, for a streamed answer.
func timingOf(a answer) *Timing {
	if !a.stream {
		return nil
	}
	t := &Timing{FirstByteMS: a.ttfb.Milliseconds()}
	for _, g := range a.gaps[:min(len(a.gaps), maxGaps)] {
		t.GapsMS = append(t.GapsMS, g.Milliseconds())
	}
	return t
}

// loadTimings reads the timing of each call of an existing log, in order
// (nil for a call without one); a log that does not exist has none.
func loadTimings(path string) ([]*Timing, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*Timing
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 2*DefaultMaxAnswerBytes+1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l struct {
			Timing *Timing `json:"timing"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s: line %d: %v", path, len(out)+1, err)
		}
		out = append(out, l.Timing)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %v", path, len(out)+1, err)
	}
	return out, nil
}

// withTiming adds to the scenario's steps the timing of the calls they
// replay, as respond.stream: {chunks, recorded: {first_byte, every}}. The
// scenario's last steps replay the log's last calls, one each (an import
// replays the conversation from its last user message on).
func withTiming(data []byte, timings []*Timing) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil, fmt.Errorf("the imported scenario: %v", err)
	}
	steps := member(doc.Content[0], "llm")
	if steps == nil {
		return data, nil
	}
	changed := false
	for j := 1; j <= len(steps.Content) && j <= len(timings); j++ {
		t, respond := timings[len(timings)-j], member(steps.Content[len(steps.Content)-j], "respond")
		if t == nil || respond == nil || member(respond, "stream") != nil {
			continue
		}
		respond.Content = append(respond.Content, scalar("stream"), streamNode(t))
		changed = true
	}
	if !changed {
		return data, nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

// streamNode is the stream spec that replays t.
func streamNode(t *Timing) *yaml.Node {
	chunks := min(len(t.GapsMS)+1, maxChunks)
	var total int64
	for _, g := range t.GapsMS {
		total += g
	}
	every := time.Duration(0)
	if chunks > 1 {
		every = time.Duration(total) * time.Millisecond / time.Duration(chunks-1)
	}
	first := time.Duration(t.FirstByteMS) * time.Millisecond
	return mapping(
		scalar("chunks"), scalar(fmt.Sprint(chunks)),
		scalar("recorded"), mapping(scalar("first_byte"), scalar(first.String()), scalar("every"), scalar(every.Round(time.Millisecond).String())),
	)
}

// member is the value of key in the mapping n, or nil.
func member(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func mapping(kv ...*yaml.Node) *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Content: kv} }
