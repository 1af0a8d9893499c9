package record_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/harness/importer"
	"github.com/toolout/toolout/harness/record"
)

// exchange is a chat request of the conversation opened by first, its
// turn-th call, and its answer.
func exchange(first string, turn int) proxy.Exchange {
	msgs := fmt.Sprintf(`{"role":"user","content":%q}`, first)
	if turn > 1 {
		msgs += `,` + call + `,` + result
	}
	req := `{"model":"m","messages":[` + msgs + `]}`
	answer := `{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call-1","type":"function","function":{"name":"logs__query","arguments":"{\"since\":\"1h\"}"}}]}}]}`
	if turn > 1 {
		answer = `{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Stored; will extract next."}}]}`
	}
	return proxy.Exchange{Wire: "openai", Caller: "k", Request: []byte(req), Forwarded: []byte(req), Answer: []byte(answer), Rounds: 1}
}

func captureFiles(dir string) []string {
	m, err := filepath.Glob(filepath.Join(dir, "capture-*.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	return m
}

var _ = Describe("The gateway's capture", func() {
	It("writes each conversation to a file of its own, redacted, that toolout import --final turns into session and gateway scenarios that pass", func() {
		dir := GinkgoT().TempDir()
		at := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
		now := func() time.Time { at = at.Add(90 * time.Second); return at }
		settings := &gateway.Settings{CompressorConfig: gateway.CompressorConfig{Strategy: "simple", SimpleWords: 12}, EnableExpandContext: true}
		c, err := record.NewCapture(record.CaptureOptions{Dir: dir, Sample: 1, MaxBytes: 1 << 20, MaxFiles: 10, Settings: settings, Now: now})
		Expect(err).NotTo(HaveOccurred())
		c.Capture(exchange("Count ERROR lines per host.", 1))
		c.Capture(exchange("Something else?", 1))
		c.Capture(exchange("Count ERROR lines per host.", 2))
		c.Close()
		written, _, _ := c.Stats()
		Expect(written).To(Equal(int64(3)))
		files := captureFiles(dir)
		Expect(files).To(HaveLen(2))
		Expect(onDisk(dir)).NotTo(ContainSubstring(secret))
		var conv string
		for _, f := range files {
			data, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			if strings.Count(string(data), "\n") == 2 {
				conv = f
			}
		}
		Expect(conv).NotTo(BeEmpty())
		data, _ := os.ReadFile(conv)
		files2, err := importer.Import(data, importer.ImportOptions{Dir: "d", Name: "cap", TraceName: "cap.jsonl", At: -1, Final: true})
		Expect(err).NotTo(HaveOccurred())
		out := GinkgoT().TempDir()
		for _, f := range files2 {
			p := filepath.Join(out, f.Path)
			Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
			Expect(os.WriteFile(p, f.Data, 0o644)).To(Succeed())
		}
		passes(filepath.Join(out, "d", "cap.yaml"))
		passes(filepath.Join(out, "d", "cap-gateway.yaml"))
		gw, err := os.ReadFile(filepath.Join(out, "d", "cap-gateway.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(gw)).To(ContainSubstring("advance: 3m0s"), "the third request came two stamps after the first")
		Expect(string(gw)).To(ContainSubstring("strategy: simple\n  simple_words: 12\n"))
	})

	It("removes the oldest files past max_files and max_bytes, and drops a request over max_bytes", func() {
		dir := GinkgoT().TempDir()
		c, err := record.NewCapture(record.CaptureOptions{Dir: dir, Sample: 1, MaxBytes: 3000, MaxFiles: 2})
		Expect(err).NotTo(HaveOccurred())
		for i := range 4 {
			c.Capture(exchange(fmt.Sprintf("question %d", i), 1))
		}
		big := exchange("big", 1)
		big.Answer = []byte(`"` + strings.Repeat("x", 4000) + `"`)
		c.Capture(big)
		c.Close()
		written, dropped, failed := c.Stats()
		Expect([]int64{written, dropped, failed}).To(Equal([]int64{4, 1, 0}))
		files := captureFiles(dir)
		Expect(files).To(HaveLen(2))
		var total int64
		for _, f := range files {
			info, err := os.Stat(f)
			Expect(err).NotTo(HaveOccurred())
			total += info.Size()
		}
		Expect(total).To(BeNumerically("<=", 3000))
		Expect(onDisk(dir)).To(ContainSubstring("question 3"))
		Expect(onDisk(dir)).NotTo(ContainSubstring("question 0"))
	})

	It("never blocks: a full queue drops, a folder it cannot write fails, each counted", func() {
		// The folder is a file: a write fails for root too, which a
		// read-only folder would not stop.
		dir := GinkgoT().TempDir()
		blocked := filepath.Join(dir, "not-a-folder")
		Expect(os.WriteFile(blocked, nil, 0o444)).To(Succeed())
		stall := make(chan struct{})
		c, err := record.NewCapture(record.CaptureOptions{Dir: blocked, Sample: 1, MaxBytes: 1 << 20, MaxFiles: 10, Queue: 1,
			Count: func(o string) {
				if o != "dropped" {
					<-stall // the writer waits here: the queue fills
				}
			}})
		Expect(err).NotTo(HaveOccurred())
		for i := range 5 {
			c.Capture(exchange(fmt.Sprintf("q%d", i), 1)) // returns at once, whatever the writer does
		}
		close(stall)
		c.Close()
		written, dropped, failed := c.Stats()
		Expect(written).To(BeZero())
		Expect(dropped + failed).To(Equal(int64(5)))
		Expect(failed).To(BeNumerically(">=", 1))
		Expect(dropped).To(BeNumerically(">=", 3))
		c.Capture(exchange("after close", 1))
		_, dropped2, _ := c.Stats()
		Expect(dropped2).To(Equal(dropped + 1))
	})

	It("captures a share of the conversations, each whole or not at all", func() {
		dir := GinkgoT().TempDir()
		c, err := record.NewCapture(record.CaptureOptions{Dir: dir, Sample: 0.5, MaxBytes: 1 << 20, MaxFiles: 1000})
		Expect(err).NotTo(HaveOccurred())
		for i := range 100 {
			c.Capture(exchange(fmt.Sprintf("q%d", i), 1))
			c.Capture(exchange(fmt.Sprintf("q%d", i), 2))
		}
		c.Close()
		files := captureFiles(dir)
		Expect(len(files)).To(BeNumerically("~", 50, 20))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			Expect(strings.Count(string(data), "\n")).To(Equal(2))
		}
		none, err := record.NewCapture(record.CaptureOptions{Dir: dir, Sample: 0, MaxBytes: 1, MaxFiles: 1})
		Expect(err).NotTo(HaveOccurred())
		none.Close()
	})

	It("refuses bad options", func() {
		_, err := record.NewCapture(record.CaptureOptions{Sample: 1, MaxBytes: 1, MaxFiles: 1})
		Expect(err).To(MatchError("capture: dir: want a folder"))
		_, err = record.NewCapture(record.CaptureOptions{Dir: "x", Sample: 2, MaxBytes: 1, MaxFiles: 1})
		Expect(err).To(MatchError("capture: sample 2: want a share from 0 to 1"))
		_, err = record.NewCapture(record.CaptureOptions{Dir: "x", Sample: 1})
		Expect(err).To(MatchError("capture: max_bytes and max_files: want positive numbers"))
	})
})

// FuzzCapture captures any request and answer: no panic, and what is
// written is one valid JSON line per request, its request and response
// members present, with no built-in secret left in it.
func FuzzCapture(f *testing.F) {
	f.Add([]byte(`{"messages":[{"role":"user","content":"hi sk-proj-abcdefghijklmnopqrstuv0123"}]}`), []byte(`{"id":"x"}`), false)
	f.Add([]byte(`{"input":[{"role":"user","content":"q"}],"instructions":"s"}`), []byte("data: {\"a\":\"\\\"\"}\n\n"), true)
	f.Add([]byte(`{"messages":[]}`), []byte("not json"), false)
	// Found by the README's run: a second request spaced otherwise (jq's
	// output) went to a file of its own; and a forward's "<<<SHADOW:" was
	// written escaped.
	f.Add([]byte("{\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"<<<SHADOW:x>>> & q\"}\n  ]\n}"), []byte(`{"id":"<a>"}`), false)
	f.Fuzz(func(t *testing.T, req, answer []byte, stream bool) {
		dir := t.TempDir()
		c, err := record.NewCapture(record.CaptureOptions{Dir: dir, Sample: 1, MaxBytes: 1 << 20, MaxFiles: 4})
		if err != nil {
			t.Fatal(err)
		}
		for _, wire := range []string{"openai", "responses"} {
			c.Capture(proxy.Exchange{Wire: wire, Request: req, Forwarded: req, Answer: answer, Stream: stream})
		}
		c.Close()
		files, _ := filepath.Glob(filepath.Join(dir, "capture-*.jsonl"))
		for _, name := range files {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				var l map[string]json.RawMessage
				if err := json.Unmarshal([]byte(line), &l); err != nil || l["request"] == nil || l["response"] == nil {
					t.Fatalf("line %q: %v", line, err)
				}
				if strings.Contains(line, "sk-proj-abcdefghijklmnop") {
					t.Fatalf("a key is left in %q", line)
				}
			}
		}
	})
}

var _ = Describe("The capture's conversations", func() {
	It("keep a conversation in one file however its requests space their JSON", func() {
		dir := GinkgoT().TempDir()
		c, err := record.NewCapture(record.CaptureOptions{Dir: dir, Sample: 1, MaxBytes: 1 << 20, MaxFiles: 10})
		Expect(err).NotTo(HaveOccurred())
		first := exchange("Count ERROR lines per host.", 1)
		second := exchange("Count ERROR lines per host.", 2)
		second.Request = []byte(strings.Replace(string(second.Request), `{"role":"user","content":"Count ERROR lines per host."}`,
			"{\n  \"content\": [{\"type\": \"text\", \"text\": \"Count ERROR lines per host.\"}],\n  \"role\": \"user\"\n}", 1))
		c.Capture(first)
		c.Capture(second)
		c.Close()
		Expect(captureFiles(dir)).To(HaveLen(1))
	})
})

var _ = Describe("A capture of a gateway whose compressor is a model", func() {
	It("imports as a gateway scenario that scripts the compressor's answers from the forwards: compressed, a cache hit, not smaller, failed", func() {
		log := strings.Repeat("ts=1 host=web-1 level=ERROR db timeout\n", 80)
		other := strings.Repeat("ts=2 host=web-2 level=INFO ok\n", 100)
		third := strings.Repeat("ts=3 host=web-3 level=INFO slow\n", 100)
		id := gateway.ShadowID(log)
		msgs := func(outputs ...string) string {
			var b strings.Builder
			b.WriteString(user)
			for i, o := range outputs {
				fmt.Fprintf(&b, `,{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":"logs__query","arguments":"{}"}}]}`, i)
				fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"c%d","content":%q}`, i, o)
			}
			return `{"model":"m","messages":[` + b.String() + `]}`
		}
		answer := func(text string) []byte {
			return []byte(`{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"` + text + `"}}]}`)
		}
		marked := gateway.Mark(id, "web-1: 80 db timeouts")
		res := func(i int, reason string) proxy.CapturedResult {
			r := proxy.CapturedResult{Index: i, Tool: "logs__query", Action: gateway.ActionPassthrough, Reason: reason, Bytes: 3000}
			if reason == "compressed" || reason == "cache hit" {
				r.Action, r.ShadowID = gateway.ActionCompressed, id
			}
			return r
		}
		dir := GinkgoT().TempDir()
		settings := &gateway.Settings{CompressorConfig: gateway.CompressorConfig{Strategy: gateway.StrategyExternalProvider}}
		c, err := record.NewCapture(record.CaptureOptions{Dir: dir, Sample: 1, MaxBytes: 1 << 20, MaxFiles: 10, Settings: settings})
		Expect(err).NotTo(HaveOccurred())
		callNext := []byte(`{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"logs__query","arguments":"{}"}}]}}]}`)
		c.Capture(proxy.Exchange{Wire: "openai", Caller: "k", Request: []byte(msgs(log)), Forwarded: []byte(msgs(marked)),
			Answer: callNext, Rounds: 1, Results: []proxy.CapturedResult{res(0, "compressed")}})
		c.Capture(proxy.Exchange{Wire: "openai", Caller: "k", Request: []byte(msgs(log, other, third)), Forwarded: []byte(msgs(marked, other, third)),
			Answer: answer("All read."), Rounds: 1, Results: []proxy.CapturedResult{res(0, "cache hit"),
				res(1, "not smaller after compression (3100 >= 3000 bytes)"), res(2, "compression failed, fallback passthrough: timeout")}})
		c.Close()
		files := captureFiles(dir)
		Expect(files).To(HaveLen(1))
		data, err := os.ReadFile(files[0])
		Expect(err).NotTo(HaveOccurred())
		imported, err := importer.Import(data, importer.ImportOptions{Dir: "d", Name: "remote", TraceName: "remote.jsonl", At: -1, Final: true})
		Expect(err).NotTo(HaveOccurred())
		out := GinkgoT().TempDir()
		var scenario string
		for _, f := range imported {
			p := filepath.Join(out, f.Path)
			Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
			Expect(os.WriteFile(p, f.Data, 0o644)).To(Succeed())
			if strings.HasSuffix(f.Path, "-gateway.yaml") {
				scenario = string(f.Data)
			}
		}
		Expect(scenario).To(ContainSubstring("strategy: external_provider"))
		Expect(strings.Count(scenario, "tag: gateway.compress")).To(Equal(3), "compressed, not smaller, failed: the cache hit makes no call")
		Expect(scenario).To(ContainSubstring("text: 'web-1: 80 db timeouts'"))
		Expect(scenario).To(ContainSubstring("kind: server_error"))
		passes(filepath.Join(out, "d", "remote-gateway.yaml"))
	})
})
