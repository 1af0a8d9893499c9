package tracegen

import (
	"fmt"
	"strings"
)

// anthropicMsgs are msgs (after the system prompt) as Anthropic messages:
// a tool result is a user message's tool_result block, and a user text
// that follows it a text block of the same message.
func anthropicMsgs(msgs []msg) []string {
	var out []string
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch {
		case m.role == "tool":
			blocks := `{"type":"tool_result","tool_use_id":"` + m.call + `","content":[{"type":"text","text":` + quote(m.text) + `}]}`
			if i+1 < len(msgs) && msgs[i+1].role == "user" {
				i++
				blocks += `,{"type":"text","text":` + quote(msgs[i].text) + `}`
			}
			out = append(out, `{"role":"user","content":[`+blocks+`]}`)
		case m.call != "":
			out = append(out, `{"role":"assistant","content":`+anthropicReply(m)+`}`)
		default:
			out = append(out, `{"role":"`+m.role+`","content":`+quote(m.text)+`}`)
		}
	}
	return out
}

// anthropicReply is an assistant message's content blocks.
func anthropicReply(m msg) string {
	blocks := `[{"type":"text","text":` + quote(m.text) + `}`
	if m.call != "" {
		blocks += `,{"type":"tool_use","id":"` + m.call + `","name":"` + tool + `","input":` + m.args + `}`
	}
	return blocks + "]"
}

// anthropicLog is the session as two Anthropic Messages calls.
func anthropicLog(msgs []msg, last int) []byte {
	call := func(in []msg, reply msg) string {
		return `{"request":{"model":"claude-sonnet-4-5","max_tokens":4096,"system":` + quote(msgs[0].text) + `,"messages":[` +
			strings.Join(anthropicMsgs(in[1:]), ",") + `]},"response":{"id":"msg_1","type":"message","role":"assistant","content":` +
			anthropicReply(reply) + `,"stop_reason":"end_turn"}}` + "\n"
	}
	n := len(msgs) - 1
	return []byte(call(msgs[:last], msgs[last]) + call(msgs[:n], msgs[n]))
}

// items are msgs (after the system prompt) as Responses items.
func items(msgs []msg) []string {
	var out []string
	for _, m := range msgs {
		switch {
		case m.role == "tool":
			out = append(out, `{"type":"function_call_output","call_id":"`+m.call+`","output":`+quote(m.text)+`}`)
		case m.role == "user":
			out = append(out, `{"type":"message","role":"user","content":[{"type":"input_text","text":`+quote(m.text)+`}]}`)
		default:
			out = append(out, `{"type":"message","role":"assistant","content":[{"type":"output_text","text":`+quote(m.text)+`}]}`)
			if m.call != "" {
				out = append(out, `{"type":"function_call","call_id":"`+m.call+`","name":"`+tool+`","arguments":`+quote(m.args)+`}`)
			}
		}
	}
	return out
}

// responsesLog is the session as two Responses calls, the second chained
// to the first by previous_response_id.
func responsesLog(msgs []msg, last int) []byte {
	call := func(request, response string) string {
		return `{"request":` + request + `,"response":` + response + "}\n"
	}
	n := len(msgs) - 1
	return []byte(call(`{"model":"gpt-5.1","instructions":`+quote(msgs[0].text)+`,"input":[`+strings.Join(items(msgs[1:last]), ",")+`]}`,
		`{"id":"resp_1","object":"response","status":"completed","output":[`+strings.Join(items(msgs[last:last+1]), ",")+`]}`) +
		call(`{"model":"gpt-5.1","instructions":`+quote(msgs[0].text)+`,"previous_response_id":"resp_1","input":[`+strings.Join(items(msgs[last+1:n]), ",")+`]}`,
			`{"id":"resp_2","object":"response","status":"completed","output":[`+strings.Join(items(msgs[n:]), ",")+`]}`))
}

// rollout is the session as a Codex rollout file.
func rollout(msgs []msg) []byte {
	var b strings.Builder
	line := func(typ, payload string) {
		b.WriteString(`{"timestamp":"2026-11-27T21:37:25.000Z","type":"` + typ + `","payload":` + payload + "}\n")
	}
	line("session_meta", `{"id":"s1","cli_version":"0.169.0","base_instructions":{"text":`+quote(msgs[0].text)+`}}`)
	for i, it := range items(msgs[1:]) {
		line("response_item", it)
		if i%50 == 0 {
			line("event_msg", `{"type":"token_count","info":{"total_token_usage":{"input_tokens":1200}}}`)
		}
	}
	return []byte(b.String())
}

// otlp wraps spans as one OTLP JSON export.
func otlp(spans ...string) []byte {
	return []byte(`{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"checkout-agent"}}]},"scopeSpans":[{"scope":{"name":"tracegen"},"spans":[` +
		strings.Join(spans, ",") + `]}]}]}` + "\n")
}

// span is a chat span of one trace with the attributes and events given.
func span(id string, start int, attrs, events []string) string {
	s := fmt.Sprintf(`{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"%s","name":"chat gpt-4.1","kind":3,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[%s]`,
		id, 1795513267212000000+start, 1795513267212000000+start+1000, strings.Join(attrs, ","))
	if events != nil {
		s += `,"events":[` + strings.Join(events, ",") + `]`
	}
	return s + "}"
}

// attr is an attribute whose value is the string v.
func attr(key, v string) string {
	return `{"key":` + quote(key) + `,"value":{"stringValue":` + quote(v) + `}}`
}

// genAI is m as a message of the conventions 1.37.
func genAI(m msg) string {
	switch {
	case m.role == "tool":
		return `{"role":"tool","parts":[{"type":"tool_call_response","id":"` + m.call + `","response":` + quote(m.text) + `}]}`
	case m.call != "":
		return `{"role":"assistant","parts":[{"type":"text","content":` + quote(m.text) + `},{"type":"tool_call","id":"` + m.call + `","name":"` + tool +
			`","arguments":` + m.args + `}],"finish_reason":"tool_call"}`
	}
	return `{"role":"` + m.role + `","parts":[{"type":"text","content":` + quote(m.text) + `}]}`
}

// otelGenAI is the session as two chat spans of the conventions 1.37.
func otelGenAI(msgs []msg, last int) []byte {
	sys := `[{"type":"text","content":` + quote(msgs[0].text) + `}]`
	chat := func(id string, start int, in []msg, out msg) string {
		return span(id, start, []string{attr("gen_ai.operation.name", "chat"), attr("gen_ai.system_instructions", sys),
			attr("gen_ai.input.messages", "["+strings.Join(mapMsgs(in[1:], genAI), ",")+"]"), attr("gen_ai.output.messages", "["+genAI(out)+"]")}, nil)
	}
	n := len(msgs) - 1
	return otlp(chat("3f9a2c7d1e5b8a40", 0, msgs[:last], msgs[last]), chat("3f9a2c7d1e5b8a41", 5000, msgs[:n], msgs[n]))
}

// otelEvents is the session as two chat spans of the conventions before
// 1.37, their messages span events.
func otelEvents(msgs []msg, last int) []byte {
	event := func(name string, attrs ...string) string {
		return `{"timeUnixNano":"1795513267212000000","name":"` + name + `","attributes":[` + strings.Join(attrs, ",") + `]}`
	}
	calls := func(m msg) string {
		return `[{"id":"` + m.call + `","type":"function","function":{"name":"` + tool + `","arguments":` + quote(m.args) + `}}]`
	}
	ev := func(m msg) string {
		switch {
		case m.role == "tool":
			return event("gen_ai.tool.message", attr("id", m.call), attr("content", m.text))
		case m.call != "":
			return event("gen_ai.assistant.message", attr("content", m.text), attr("tool_calls", calls(m)))
		}
		return event("gen_ai."+m.role+".message", attr("content", m.text))
	}
	choice := func(m msg) string {
		reply := `{"role":"assistant","content":` + quote(m.text)
		if m.call != "" {
			reply += `,"tool_calls":` + calls(m)
		}
		return event("gen_ai.choice", `{"key":"index","value":{"intValue":"0"}}`, attr("finish_reason", "stop"), attr("message", reply+"}"))
	}
	chat := func(id string, start int, in []msg, out msg) string {
		return span(id, start, []string{attr("gen_ai.operation.name", "chat")}, append(mapMsgs(in, ev), choice(out)))
	}
	n := len(msgs) - 1
	return otlp(chat("3f9a2c7d1e5b8a40", 0, msgs[:last], msgs[last]), chat("3f9a2c7d1e5b8a41", 5000, msgs[:n], msgs[n]))
}

// otelFlat is the session as two chat spans of OpenLLMetry's flattened
// attributes (ollm), else OpenInference's.
func otelFlat(msgs []msg, last int, ollm bool) []byte {
	write := func(in bool, i int, m msg) []string {
		p := map[[2]bool]string{{true, true}: "gen_ai.prompt.%d.", {true, false}: "gen_ai.completion.%d.",
			{false, true}: "llm.input_messages.%d.message.", {false, false}: "llm.output_messages.%d.message."}[[2]bool{ollm, in}]
		p = fmt.Sprintf(p, i)
		out := []string{attr(p+"role", m.role), attr(p+"content", m.text)}
		switch {
		case m.role == "tool":
			out = append(out, attr(p+"tool_call_id", m.call))
		case m.call != "" && ollm:
			out = append(out, attr(p+"tool_calls.0.id", m.call), attr(p+"tool_calls.0.name", tool), attr(p+"tool_calls.0.arguments", m.args))
		case m.call != "":
			q := p + "tool_calls.0.tool_call."
			out = append(out, attr(q+"id", m.call), attr(q+"function.name", tool), attr(q+"function.arguments", m.args))
		}
		return out
	}
	chat := func(id string, start int, in []msg, reply msg) string {
		attrs := []string{attr("llm.request.type", "chat")}
		if !ollm {
			attrs = []string{attr("openinference.span.kind", "LLM")}
		}
		for i, m := range in {
			attrs = append(attrs, write(true, i, m)...)
		}
		return span(id, start, append(attrs, write(false, 0, reply)...), nil)
	}
	n := len(msgs) - 1
	return otlp(chat("3f9a2c7d1e5b8a40", 0, msgs[:last], msgs[last]), chat("3f9a2c7d1e5b8a41", 5000, msgs[:n], msgs[n]))
}
