package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The OpenAI chat-completions stream: server-sent "data:" chunks of
// deltas, then "data: [DONE]".

// header is what identifies a completion and its chunks; it survives
// assembly and re-streaming, so an SDK sees the upstream's id, model and
// usage either way.
type header struct {
	ID                string          `json:"id,omitempty"`
	Object            string          `json:"object"`
	Created           json.RawMessage `json:"created,omitempty"`
	Model             string          `json:"model,omitempty"`
	SystemFingerprint json.RawMessage `json:"system_fingerprint,omitempty"`
	Usage             json.RawMessage `json:"usage,omitempty"`
}

type wireCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireMessage struct {
	Role      string     `json:"role,omitempty"`
	Content   *string    `json:"content"`
	ToolCalls []wireCall `json:"tool_calls,omitempty"`
}

type wireChoice struct {
	Index        int          `json:"index"`
	Message      *wireMessage `json:"message,omitempty"`
	Delta        *wireMessage `json:"delta,omitempty"`
	FinishReason *string      `json:"finish_reason"`
}

type wireBody struct {
	header
	Choices []wireChoice `json:"choices"`
	// Error is the error object of a chunk that reports a failure in
	// the middle of a stream; never set on an assembled completion.
	Error *wireError `json:"error,omitempty"`
}

// wireError is the API's error object, as a stream's error chunk carries
// it: {"error":{"message","type","code"}}.
type wireError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
}

// assembleStream rebuilds a chat completion from server-sent chunks:
// content deltas joined, tool-call deltas joined by index (a name sent in
// pieces is joined, one repeated whole is kept once), the last
// finish_reason, and the id, created, model, system_fingerprint and usage
// the chunks carry. A stream that ends before a finish_reason or [DONE]
// was cut, and is an error: a partial answer must not pass for a whole
// one. A chunk that carries an error object ends the stream with that
// error, as the SDKs raise it.
func assembleStream(raw []byte) ([]byte, error) {
	var out wireBody
	var text strings.Builder
	var calls []*callParts
	byIndex := map[int]*callParts{}
	var finish *string
	ended := false
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 64<<10), len(raw)+1)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			ended = true
		}
		if !ok || data == "" || data == "[DONE]" {
			continue
		}
		var chunk wireBody
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return nil, fmt.Errorf("openai: stream chunk: %w", err)
		}
		if chunk.Error != nil {
			// The SDKs raise the error a chunk reports (openai-python's
			// Stream, openai-node's Stream: APIError with its message).
			return nil, fmt.Errorf("openai: stream: error event: %s: %s", oneLine([]byte(chunk.Error.Type), 200), oneLine([]byte(chunk.Error.Message), 200))
		}
		out.header.merge(chunk.header)
		for _, ch := range chunk.Choices {
			if ch.Delta != nil {
				if ch.Delta.Content != nil {
					text.WriteString(*ch.Delta.Content)
				}
				for _, tc := range ch.Delta.ToolCalls {
					calls = joinCall(calls, byIndex, tc)
				}
			}
			if ch.FinishReason != nil {
				finish, ended = ch.FinishReason, true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openai: stream: %w", err)
	}
	if !ended {
		return nil, errors.New("openai: stream: ended before a finish_reason or [DONE] (cut)")
	}
	msg := &wireMessage{Role: "assistant"}
	if s := text.String(); s != "" || len(calls) == 0 {
		msg.Content = &s
	}
	for _, p := range calls {
		c := p.call
		c.Index, c.Type = nil, "function"
		c.Function.Name, c.Function.Arguments = p.name.String(), p.args.String()
		msg.ToolCalls = append(msg.ToolCalls, c)
	}
	out.Object = "chat.completion"
	out.Choices = []wireChoice{{Index: 0, Message: msg, FinishReason: finish}}
	return json.Marshal(out)
}

// merge keeps the first id, created, model and fingerprint seen, and the
// last usage (sent in the final chunk).
func (h *header) merge(c header) {
	if h.ID == "" {
		h.ID = c.ID
	}
	if h.Created == nil {
		h.Created = c.Created
	}
	if h.Model == "" {
		h.Model = c.Model
	}
	if h.SystemFingerprint == nil {
		h.SystemFingerprint = c.SystemFingerprint
	}
	if len(c.Usage) > 0 && string(c.Usage) != "null" {
		h.Usage = c.Usage
	}
}

// callParts is a tool call being assembled: its name and arguments are
// joined in builders, since a model streams a long argument in thousands of
// pieces of a few bytes, and joining strings would copy the whole so far
// for each (quadratic: 29 GB copied for a 10 MiB stream of 4-byte pieces).
type callParts struct {
	call       wireCall
	name, args strings.Builder
}

// joinCall adds one tool-call delta to the call of its index.
func joinCall(calls []*callParts, byIndex map[int]*callParts, tc wireCall) []*callParts {
	i := 0
	if tc.Index != nil {
		i = *tc.Index
	}
	c, ok := byIndex[i]
	if !ok {
		c = &callParts{}
		byIndex[i] = c
		calls = append(calls, c)
	}
	if tc.ID != "" {
		c.call.ID = tc.ID
	}
	// A name may come in pieces (joined) or whole in every chunk (kept
	// once): "expand_" then "context" must read as the phantom tool, or
	// its call would reach the client.
	if n := tc.Function.Name; n != "" && n != c.name.String() {
		c.name.WriteString(n)
	}
	c.args.WriteString(tc.Function.Arguments)
	return calls
}

// chunkOf renders a chat completion as a stream: one chunk with the whole
// message as its delta and the finish_reason, then, when the completion has
// usage, a chunk with empty choices and the usage (as OpenAI sends it with
// stream_options.include_usage), then [DONE]. Every chunk carries the
// completion's id, created, model and fingerprint.
func chunkOf(completion []byte) []byte {
	var c wireBody
	if err := json.Unmarshal(completion, &c); err != nil || len(c.Choices) == 0 || c.Choices[0].Message == nil {
		return []byte("data: [DONE]\n\n")
	}
	msg := c.Choices[0].Message
	for i := range msg.ToolCalls {
		i := i
		msg.ToolCalls[i].Index = &i
	}
	if msg.Role == "" {
		msg.Role = "assistant"
	}
	usage := c.Usage
	h := c.header
	h.Object, h.Usage = "chat.completion.chunk", nil
	var b bytes.Buffer
	write := func(v wireBody) {
		line, _ := json.Marshal(v)
		b.WriteString("data: ")
		b.Write(line)
		b.WriteString("\n\n")
	}
	write(wireBody{header: h, Choices: []wireChoice{{Index: 0, Delta: msg, FinishReason: c.Choices[0].FinishReason}}})
	if len(usage) > 0 && string(usage) != "null" {
		h.Usage = usage
		write(wireBody{header: h, Choices: []wireChoice{}})
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}
