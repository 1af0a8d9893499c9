package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
)

// Request headers the script reads.
const (
	// RoundHeader is set by the gateway on each forward of a client request: 1, 2, ….
	RoundHeader = "X-Toolout-Gateway-Round"
	// ExpandHeader "no" keeps the model from calling expand_context.
	ExpandHeader = "X-Demo-Expand"
)

// failed is what the line the model looks for holds.
const failed = "status=FAILED"

// marker finds a shadow id the way the gateway shows it to a model.
var marker = regexp.MustCompile(`<<<SHADOW:(shadow_[0-9a-f]+)>>>`)

// model is the scripted model; Handler serves it.
type model struct {
	// MaxBodyBytes bounds a request body; a larger one is 413.
	MaxBodyBytes int64
	// Logf, when set, gets one line per request.
	Logf func(format string, a ...any)
}

// api is one of the three wire formats.
type api struct {
	answer func(turn) []byte // a JSON body
	stream func(turn) []byte // a server-sent event stream
	error  func(typ, msg string) []byte
	// input reads the conversation of a request: "messages", or the Responses API's "input".
	input func(request) []byte
}

var (
	openai       = api{answer: openaiBody, stream: openaiStream, error: openaiError, input: messages}
	anthropic    = api{answer: anthropicBody, stream: anthropicStream, error: anthropicError, input: messages}
	responsesAPI = api{answer: responsesBody, stream: responsesStream, error: openaiError,
		input: func(r request) []byte { return r.Input }}
)

func messages(r request) []byte { return r.Messages }

// turn is what the model answers: a call of expand_context when Shadow is set, else Text.
type turn struct {
	Model  string
	Shadow string
	Text   string
	// Usage asks for OpenAI's usage chunk at the end of a stream.
	Usage bool
}

// request is what the script reads from a body.
type request struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Messages json.RawMessage `json:"messages"`
	Input    json.RawMessage `json:"input"`
}

// Handler serves the three APIs; another path is 404, another method 405.
func (m *model) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST /v1/chat/completions", m.handle(openai))
	mux.Handle("POST /v1/messages", m.handle(anthropic))
	mux.Handle("POST /v1/responses", m.handle(responsesAPI))
	return mux
}

func (m *model) handle(a api) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, m.MaxBodyBytes))
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			m.fail(w, a, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", tooLarge.Limit))
			return
		case err != nil:
			m.fail(w, a, http.StatusBadRequest, "reading the request: "+err.Error())
			return
		}
		var req request
		if err := json.Unmarshal(raw, &req); err != nil {
			m.fail(w, a, http.StatusBadRequest, "the request is not a JSON object: "+err.Error())
			return
		}
		shadow, line, err := scan(a.input(req))
		if err != nil {
			m.fail(w, a, http.StatusBadRequest, "reading messages: "+err.Error())
			return
		}
		t := turn{Model: req.Model, Usage: req.StreamOptions.IncludeUsage}
		if t.Model == "" {
			t.Model = "demo-model"
		}
		round := r.Header.Get(RoundHeader)
		switch {
		case shadow != "" && round == "1" && !strings.EqualFold(r.Header.Get(ExpandHeader), "no"):
			t.Shadow = shadow
		case line != "":
			t.Text = "saw the original: yes, " + line
		default:
			t.Text = "saw the original: no"
		}
		if m.Logf != nil {
			what := "expand_context " + t.Shadow
			if t.Shadow == "" {
				what = fmt.Sprintf("%q", t.Text)
			}
			if round == "" {
				round = "-"
			}
			m.Logf("%s round %s, %d bytes, stream %v: %s", r.URL.Path, round, len(raw), req.Stream, what)
		}
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(a.stream(t))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(a.answer(t))
	})
}

// fail answers with the API's error JSON.
func (m *model) fail(w http.ResponseWriter, a api, status int, msg string) {
	if m.Logf != nil {
		m.Logf("%d: %s", status, msg)
	}
	typ := "invalid_request_error"
	if status == http.StatusRequestEntityTooLarge {
		typ = "request_too_large"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(a.error(typ, "demo-model: "+msg))
}

// scan reads messages (a JSON value, or nothing) and returns the shadow id of the first marker
// in its strings and the first line holding "status=FAILED", each "" when there is none.
func scan(messages json.RawMessage) (shadow, line string, err error) {
	if len(messages) == 0 {
		return "", "", nil
	}
	dec := json.NewDecoder(bytes.NewReader(messages))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return shadow, line, nil
		}
		if err != nil {
			return "", "", err
		}
		s, ok := tok.(string)
		if !ok {
			continue
		}
		if shadow == "" {
			if m := marker.FindStringSubmatch(s); m != nil {
				shadow = m[1]
			}
		}
		if i := strings.Index(s, failed); line == "" && i >= 0 {
			start := strings.LastIndexByte(s[:i], '\n') + 1
			end := len(s)
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				end = i + j
			}
			line = strings.TrimSuffix(s[start:end], "\r")
		}
	}
}
