package importer

import (
	"strings"

	"github.com/toolout/toolout/core/jsonspan"
)

// openInferenceMessage maps one message, named what (its members under
// "message."), of a chat span as OpenInference (Arize Phoenix's
// instrumentations of OpenAI, LangChain, LlamaIndex, ...) records it, to a
// chat message; def is its role when it has none ("": it must have one).
// An LLM span (openinference.span.kind) holds its request's messages as
// llm.input_messages.N.message.role, .content (or .contents.K.
// message_content.type|text|image.image.url), .name, .tool_call_id and
// .tool_calls.J.tool_call.id|function.name|function.arguments, and its
// choices as llm.output_messages.N.message.* likewise (flatCall). Its
// tools (llm.tools.K.tool.json_schema) are not read: a scenario's fake
// tools are those its calls name, as for every format.
func (t *parsedTrace) openInferenceMessage(item *jsonspan.Node, what, def string) (traceMessage, error) {
	m := item.Get("message")
	if m == nil || m.Kind != '{' {
		return traceMessage{}, t.errorf(item.Start, "%s: want %s.message.role, .content, ...: no message attributes", what, what)
	}
	what += ".message"
	msg, err := t.flatMessage(m, what, def)
	if err != nil {
		return msg, err
	}
	if flatAt(m, "contents") != nil {
		if err := t.openInferenceContents(&msg, m, what); err != nil {
			return msg, err
		}
	} else if content, err := t.flatField(m, "content", what); err != nil {
		return msg, err
	} else if err := t.flatContent(&msg, content, what); err != nil {
		return msg, err
	}
	calls, names, err := t.flatItems(m, "tool_calls", what)
	if err != nil {
		return msg, err
	}
	for j, call := range calls {
		tc := call.Get("tool_call")
		if tc == nil || tc.Kind != '{' {
			return msg, t.errorf(call.Start, "%s: want %s.tool_call.id, .function.name, ...: no tool_call attributes", names[j], names[j])
		}
		if err := t.flatToolCall(&msg, tc, "id", "function.name", "function.arguments", names[j]+".tool_call"); err != nil {
			return msg, err
		}
	}
	return msg, t.checkToolMessage(msg, m, what)
}

// openInferenceContents reads a message's contents.K.message_content
// parts: text parts are its text, one a line; an image part is a
// placeholder, "[image not imported]", and any other type is not
// replayed, both counted in its omitted, as gen_ai parts are.
func (t *parsedTrace) openInferenceContents(msg *traceMessage, m *jsonspan.Node, what string) error {
	parts, names, err := t.flatItems(m, "contents", what)
	if err != nil {
		return err
	}
	var texts []string
	for k, p := range parts {
		w := names[k] + ".message_content"
		typ, _, err := t.flatText(p, "message_content.type", names[k])
		if err != nil {
			return err
		}
		text, at, err := t.flatText(p, "message_content.text", names[k])
		if err != nil {
			return err
		}
		switch {
		case typ == "text" || typ == "" && flatAt(p, "message_content.text") != nil:
			texts = append(texts, text)
			if _, ok := msg.fields["content"]; !ok {
				msg.fields["content"] = at
			}
		case typ == "image" || typ == "audio":
			texts, msg.omitted = append(texts, "["+typ+" not imported]"), append(msg.omitted, typ)
		case typ == "":
			return t.errorf(p.Start, "%s: field type: missing; want a string (%s.type)", w, w)
		default:
			msg.omitted = append(msg.omitted, typ)
		}
	}
	msg.text = strings.Join(texts, "\n")
	return nil
}
