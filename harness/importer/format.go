package importer

import (
	"fmt"
	"strings"
)

// traceFormat is one format a trace may come in: its name, what tells it
// from the content (nil: never told, only forced or the fallback), and its
// reader.
type traceFormat struct {
	name   string
	doc    string // one line for the CLI's help
	detect func(data []byte) bool
	parse  func(data []byte, name string) (*parsedTrace, error)
}

// formats lists the formats in the order auto tries them; the last is the
// fallback.
var formats = []traceFormat{
	{FormatOTelGenAI, `OTLP JSON, {"resourceSpans": ...} (or one a line), OpenTelemetry GenAI chat spans (semconv 1.37 or events, OpenLLMetry, OpenInference)`, isOTel, parseOTel},
	{FormatCodexRollout, `a Codex rollout, ~/.codex/sessions/.../rollout-*.jsonl: {"type": ..., "payload": ...} a line`, isRollout, parseRollout},
	{FormatResponsesLog, `OpenAI Responses calls, {"request": {"input": ...}, "response": ...}: JSONL, one object or a list`, isResponsesLog, parseResponsesLog},
	{FormatAnthropicMessages, `Anthropic Messages calls, {"request": ..., "response": ...}: JSONL, one object or a list`, isAnthropicLog, parseAnthropicLog},
	{FormatChatCompletionsLog, `JSONL, {"request": ..., "response": ...} a line`, isChatLog, parseChatLog},
	{FormatMessages, `a JSON list of chat messages, bare or under "messages"`, nil, parseTrace},
}

// Formats returns the names ImportOptions.Format takes, auto first, each
// with a one-line description.
func Formats() [][2]string {
	out := [][2]string{{FormatAuto, "told from the content"}}
	for _, f := range formats {
		out = append(out, [2]string{f.name, f.doc})
	}
	return out
}

// FormatNames returns the names ImportOptions.Format takes, auto first.
func FormatNames() []string {
	var names []string
	for _, f := range Formats() {
		names = append(names, f[0])
	}
	return names
}

// parseFormat parses data in the format named (see Formats).
func parseFormat(data []byte, name, format string) (*parsedTrace, error) {
	for _, f := range formats {
		if format == f.name || (format == "" || format == FormatAuto) && (f.detect == nil || f.detect(data)) {
			t, err := f.parse(data, name)
			if t != nil {
				t.format = f.name
			}
			return t, err
		}
	}
	return nil, fmt.Errorf("%s: format %q: want one of %s", name, format, strings.Join(FormatNames(), ", "))
}
