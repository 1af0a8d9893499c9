// Package tracegen writes synthetic production traces of a chosen size in
// every format toolout import reads, for measuring the importer's memory
// (go run ./bench/importmem, make import-mem, and the memory spec of
// cmd/toolout). A trace is an on-call agent's session in one of two
// shapes:
//
//   - "big": one tool result, a log of about the size asked for, over the
//     session's cap: the cost of one big string through the importer.
//   - "calls": thousands of tool calls with small results (the user says
//     "go on" every 100 calls, as a long session does, so that the
//     scenario from the last one stays small), then an oversized result:
//     the cost of many messages.
//   - "session": the calls without a "go on", all from the question: a
//     scenario that replays them all is over the 1 MiB a scenario may
//     hold, and the import is refused, after replaying and rendering it.
//
// The log lines vary (times, hosts, paths, and now and then an e-mail
// address and an API key to redact), as a real log does.
package tracegen

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Formats are the formats Trace writes: the importer's format names, and
// for OpenTelemetry one entry per convention it reads (the events of the
// conventions before 1.37, OpenLLMetry's and OpenInference's flattened
// attributes).
var Formats = []string{"messages", "chat-completions-log", "anthropic-messages", "responses-log", "codex-rollout",
	"otel-genai", "otel-genai-events", "otel-openllmetry", "otel-openinference"}

// Shapes are the shapes Trace writes.
var Shapes = []string{"big", "calls", "session"}

// ImportFormat is the importer's --format for a format of Formats.
func ImportFormat(format string) string {
	if strings.HasPrefix(format, "otel-") {
		return "otel-genai"
	}
	return format
}

// The session every trace holds.
const (
	system   = "You are the on-call assistant for the checkout platform. Use the tools to look things up; answer in two or three sentences."
	question = "Why did checkout latency spike at 14:05? p99 went from 180 ms to over 5 s."
	intro    = "I'll pull checkout-api's logs around 14:05."
	tool     = "query_logs"
	args     = `{"service":"checkout-api","since":"2026-11-20T14:04:00Z","until":"2026-11-20T14:07:00Z"}`
	answer   = "The spike is pool exhaustion: every slow request waited on the ledger-db pool after the 14:04 deploy cut max_conns to 4. Roll the deploy back or raise max_conns."
)

// msg is a message of the session: a text, and for an assistant's a tool
// call (call, args), for a tool's the call it answers (call).
type msg struct {
	role, text, call, args string
}

// Log returns about n bytes of log lines (at least one line), the lines
// numbered from first.
func Log(n, first int) string {
	var b strings.Builder
	b.Grow(n + 256)
	levels := []string{"INFO", "INFO", "INFO", "WARN", "ERROR"}
	for i := first; b.Len() < n || i == first; i++ {
		fmt.Fprintf(&b, "2026-11-20T14:%02d:%02d.%03dZ host=web-%d level=%s path=/v1/orders/%d status=%d dur_ms=%d",
			4+i/60000%3, i/1000%60, i%1000, i%7, levels[i%5], 100000+i*37%90000, []int{200, 200, 201, 500, 503}[i%5], 3+i*7919%5000)
		switch {
		case i%997 == 0:
			fmt.Fprintf(&b, " user=ops%d@example.com", i%13)
		case i%1499 == 0:
			fmt.Fprintf(&b, " auth=sk-proj-%016x%016x", uint64(i)*0x9e3779b97f4a7c15, uint64(i)*0xbf58476d1ce4e5b9)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// session returns the messages of shape for a trace of about n bytes in
// format, the last the answer.
func session(shape, format string, n int) ([]msg, error) {
	msgs := []msg{{role: "system", text: system}, {role: "user", text: question}}
	size := 0
	switch shape {
	case "big":
		size = n - 4096
	case "calls", "session":
		// The flat conventions' indexes stop at 99 999: fewer, bigger
		// results there.
		result := 100
		if format != "messages" && format != "responses-log" && format != "codex-rollout" {
			n /= 2 // two calls, each with the whole conversation
		}
		if shape == "session" {
			result = 20 // the steps, not the results, make the scenario
		}
		if strings.HasPrefix(format, "otel-open") {
			result = 2000
		}
		for i := 0; size < n-32<<10; i++ {
			if i > 0 && i%100 == 0 && shape == "calls" {
				msgs = append(msgs, msg{role: "user", text: "go on"})
			}
			id := fmt.Sprintf("call_%d", i)
			call := msg{role: "assistant", text: fmt.Sprintf("Checking shard %d.", i), call: id, args: fmt.Sprintf(`{"shard":%d}`, i)}
			out := msg{role: "tool", text: Log(result, i*10), call: id}
			msgs = append(msgs, call, out)
			size += len(call.text) + len(call.args) + len(out.text) + 2*len(id) + 200
		}
		size = 20 << 10
	default:
		return nil, fmt.Errorf("tracegen: shape %q: want one of %s", shape, strings.Join(Shapes, ", "))
	}
	return append(msgs, msg{role: "assistant", text: intro, call: "call_big", args: args},
		msg{role: "tool", text: Log(max(size, 1), 0), call: "call_big"}, msg{role: "assistant", text: answer}), nil
}

// Trace returns a trace in format (one of Formats) and shape (one of
// Shapes) of about n bytes.
func Trace(format, shape string, n int) ([]byte, error) {
	data, err := trace(format, shape, n)
	if err == nil && shape != "big" && len(data) > n+n/20 {
		// The calls' size is estimated: scale them once to the size asked.
		data, err = trace(format, shape, int(int64(n)*int64(n)/int64(len(data))))
	}
	return data, err
}

// trace is Trace without the scaling.
func trace(format, shape string, n int) ([]byte, error) {
	msgs, err := session(shape, format, n)
	if err != nil {
		return nil, err
	}
	// The log calls: the one that made the last call, and the one answered
	// with the answer.
	last := len(msgs) - 3
	switch format {
	case "messages":
		return []byte(`{"messages":[` + strings.Join(mapMsgs(msgs, chat), ",") + `]}`), nil
	case "chat-completions-log":
		return chatLog(msgs, last), nil
	case "anthropic-messages":
		return anthropicLog(msgs, last), nil
	case "responses-log":
		return responsesLog(msgs, last), nil
	case "codex-rollout":
		return rollout(msgs), nil
	case "otel-genai":
		return otelGenAI(msgs, last), nil
	case "otel-genai-events":
		return otelEvents(msgs, last), nil
	case "otel-openllmetry", "otel-openinference":
		return otelFlat(msgs, last, format == "otel-openllmetry"), nil
	}
	return nil, fmt.Errorf("tracegen: format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// mapMsgs is f of each message.
func mapMsgs(msgs []msg, f func(msg) string) []string {
	out := make([]string, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, f(m))
	}
	return out
}

// chat is m as an OpenAI chat message.
func chat(m msg) string {
	switch {
	case m.role == "tool":
		return `{"role":"tool","tool_call_id":"` + m.call + `","content":` + quote(m.text) + `}`
	case m.call != "":
		return `{"role":"assistant","content":` + quote(m.text) + `,"tool_calls":[{"id":"` + m.call + `","type":"function","function":{"name":"` +
			tool + `","arguments":` + quote(m.args) + `}}]}`
	}
	return `{"role":"` + m.role + `","content":` + quote(m.text) + `}`
}

// chatLog is the session as two Chat Completions calls.
func chatLog(msgs []msg, last int) []byte {
	call := func(in []msg, reply msg) string {
		return `{"request":{"model":"gpt-4o","messages":[` + strings.Join(mapMsgs(in, chat), ",") +
			`]},"response":{"object":"chat.completion","choices":[{"index":0,"message":` + chat(reply) + `,"finish_reason":"stop"}]}}` + "\n"
	}
	n := len(msgs) - 1
	return []byte(call(msgs[:last], msgs[last]) + call(msgs[:n], msgs[n]))
}
