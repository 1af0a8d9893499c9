package bench

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// BenchmarkGatewayTTFB is the time to the first byte of a streamed text
// answer, straight from the upstream and through the gateway's proxy, timed
// in pairs (the side that goes first alternates), for a request with
// nothing to expand and for one whose tool result the gateway compresses
// (expand_context offered: text is relayed until a tool call starts). The
// upstream sends its first event at once and the rest only when the client
// has read that first byte, as a model streams tokens while it still
// generates: a proxy that buffered the stream would never see its end.
// Metrics: the medians of both sides in microseconds and of the gateway's
// added time (the goal: within 20 ms of the direct figure).
func BenchmarkGatewayTTFB(b *testing.B) {
	proceed := make(chan struct{}, 1)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"first"}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-proceed:
		case <-r.Context().Done():
			return
		}
		_, _ = io.WriteString(w, `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer up.Close()
	front := expandingFront(b, up)
	defer front.Close()
	request := func(result string) string {
		content, _ := json.Marshal(result)
		return `{"model":"m","stream":true,"messages":[{"role":"user","content":"which host failed?"},` +
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"logs","arguments":"{}"}}]},` +
			`{"role":"tool","tool_call_id":"c1","content":` + string(content) + `}]}`
	}
	for _, c := range []struct{ name, body string }{
		{"nothing-to-expand", request("a small result")},
		// A 12 KB log is compressed and expand_context offered; the model
		// answers with text, relayed as it comes.
		{"expand-offered", request(strings.Repeat("line host=db-1 status=ok\n", 500))},
	} {
		b.Run(c.name, func(b *testing.B) { ttfbPairs(b, up.URL, front.URL, c.body, proceed) })
	}
}

// ttfbPairs times the first byte of body's answer from the upstream and
// through the gateway, in pairs, and reports the medians.
func ttfbPairs(b *testing.B, direct, gateway, body string, proceed chan struct{}) {
	ttfb := func(base string) time.Duration {
		start := time.Now()
		resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		rd := bufio.NewReader(resp.Body)
		if _, err := rd.ReadByte(); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		proceed <- struct{}{}
		if _, err := io.Copy(io.Discard, rd); err != nil {
			b.Fatal(err)
		}
		return d
	}
	var ds, gs, added []float64
	for i := 0; b.Loop(); i++ {
		var d, g time.Duration
		if i%2 == 0 {
			d, g = ttfb(direct), ttfb(gateway)
		} else {
			g, d = ttfb(gateway), ttfb(direct)
		}
		ds, gs, added = append(ds, us(d)), append(gs, us(g)), append(added, us(g-d))
	}
	b.ReportMetric(median(ds), "direct-us")
	b.ReportMetric(median(gs), "gateway-us")
	b.ReportMetric(median(added), "added-us")
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func median(v []float64) float64 {
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// BenchmarkGatewayStream is the time a whole plain-text stream of 2,000
// chat chunks (about 230 KB, as a long answer streams) takes, straight from
// the upstream and through the gateway's proxy, for a request with nothing
// to expand: what the gateway's reading of each event, and its check that
// the stream ended whole, cost a stream that has no tool call. Metrics: the
// medians of both sides in microseconds, and the gateway's added time.
func BenchmarkGatewayStream(b *testing.B) {
	var stream strings.Builder
	for i := range 2000 {
		stream.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"token ` +
			strings.Repeat("x", i%40) + ` "},"finish_reason":null}]}` + "\n\n")
	}
	stream.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n")
	events := stream.String()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for rest := events; rest != ""; {
			n := min(len(rest), 4<<10) // a model's pace: a few events per write
			_, _ = io.WriteString(w, rest[:n])
			w.(http.Flusher).Flush()
			rest = rest[n:]
		}
	}))
	defer up.Close()
	front := expandingFront(b, up)
	defer front.Close()
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"write a long answer"}]}`
	whole := func(base string) time.Duration {
		start := time.Now()
		resp, err := http.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err != nil || n != int64(len(events)) {
			b.Fatalf("read %d of %d bytes: %v", n, len(events), err)
		}
		return time.Since(start)
	}
	var ds, gs, added []float64
	for i := 0; b.Loop(); i++ {
		var d, g time.Duration
		if i%2 == 0 {
			d, g = whole(up.URL), whole(front.URL)
		} else {
			g, d = whole(front.URL), whole(up.URL)
		}
		ds, gs, added = append(ds, us(d)), append(gs, us(g)), append(added, us(g-d))
	}
	b.ReportMetric(median(ds), "direct-us")
	b.ReportMetric(median(gs), "gateway-us")
	b.ReportMetric(median(added), "added-us")
}

// expandingFront is a gateway on the OpenAI wire in front of up, with
// expand_context offered, a memstore and a compressor keeping 8 words.
func expandingFront(b *testing.B, up *httptest.Server) *httptest.Server {
	u, _ := url.Parse(up.URL)
	p, err := gateway.NewPipe(gateway.Options{Compressor: gateway.Simple{Words: 8}, Store: memstore.New(gateway.StoreOptions{})})
	if err != nil {
		b.Fatal(err)
	}
	return httptest.NewServer(proxy.New(&gateway.Gateway{Pipe: p, Wire: openai.Wire{}, Expand: true}, u, up.Client()))
}
