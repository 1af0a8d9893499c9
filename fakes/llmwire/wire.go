package llmwire

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/responses"
	"github.com/toolout/toolout/fakes"
)

// Wire is an API the scripted model speaks: [OpenAI] (Chat Completions),
// [Anthropic] (Messages) or [Responses] (OpenAI's Responses API).
type Wire string

// The wires.
const (
	OpenAI    Wire = "openai"
	Anthropic Wire = "anthropic"
	Responses Wire = "responses"
)

// Model is the model name every scripted answer carries.
const Model = "scripted"

// ParseWire returns the wire named name.
func ParseWire(name string) (Wire, error) {
	switch w := Wire(name); w {
	case OpenAI, Anthropic, Responses:
		return w, nil
	}
	return "", fmt.Errorf("llmwire: wire %q: want openai, anthropic or responses", name)
}

// Path is the endpoint a client of the wire posts to.
func (w Wire) Path() string {
	switch w {
	case Anthropic:
		return anthropic.Path
	case Responses:
		return responses.Path
	}
	return openai.Path
}

// ID names the n-th answer as the provider names its answers: "cmpl-N"
// (OpenAI), "msg_N" (Anthropic), "resp_N" (Responses).
func (w Wire) ID(n int) string {
	switch w {
	case Anthropic:
		return fmt.Sprintf("msg_%d", n)
	case Responses:
		return fmt.Sprintf("resp_%d", n)
	}
	return fmt.Sprintf("cmpl-%d", n)
}

// Decode reads a request body as the wire's provider would: the request,
// tagged with tag, and whether it asks for a stream.
func (w Wire) Decode(body []byte, tag core.Tag) (core.Request, bool, error) {
	switch w {
	case Anthropic:
		return anthropic.DecodeRequest(body, tag)
	case Responses:
		return responses.DecodeRequest(body, tag)
	}
	return openai.DecodeRequest(body, tag)
}

// DecodeResponse reads a whole (non-streamed) answer body as a client of
// the wire's API does.
func (w Wire) DecodeResponse(body []byte) (core.Response, error) {
	switch w {
	case Anthropic:
		return anthropic.DecodeResponse(body)
	case Responses:
		return responses.DecodeResponse(body)
	}
	return openai.DecodeResponse(body)
}

// errorBody is the wire's JSON error object (the Responses API's is
// OpenAI's).
func (w Wire) errorBody(status int, msg string) []byte {
	if w == Anthropic {
		return anthropic.Wire{}.ErrorBody(status, msg)
	}
	return openai.Wire{}.ErrorBody(status, msg)
}

// BadRequest answers a body that does not decode: 400 with the wire's
// error object carrying err.
func (w Wire) BadRequest(err error) Answer {
	return jsonAnswer(http.StatusBadRequest, w.errorBody(http.StatusBadRequest, err.Error()))
}

// Error answers the scripted model's error: 429 for core.ErrRateLimited,
// 504 for a deadline, 500 for anything else, with the wire's error object
// carrying err's text.
func (w Wire) Error(err error) Answer {
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, core.ErrRateLimited):
		code = http.StatusTooManyRequests
	case errors.Is(err, context.DeadlineExceeded):
		code = http.StatusGatewayTimeout
	}
	return jsonAnswer(code, w.errorBody(code, err.Error()))
}

// JSON is the whole response body of a non-streamed answer.
func (w Wire) JSON(resp core.Response, id string) []byte {
	switch w {
	case Anthropic:
		return anthropic.EncodeResponse(resp, id, Model)
	case Responses:
		return responses.EncodeResponse(resp, id, Model)
	}
	return openai.EncodeResponse(resp, id, Model)
}

// Reply answers with s, named id: the whole JSON body when stream is
// false, else the wire's server-sent events, one delta event per chunk of
// s, ended as s's fault says (see the package doc). A custom tool call
// has no form on the Chat Completions and Messages wires: there it is an
// error ([ErrCustomCall]).
func (w Wire) Reply(s fakes.Stream, id string, stream bool) (Answer, error) {
	if w != Responses {
		for _, c := range s.Response.ToolCalls {
			if c.Custom {
				return Answer{}, fmt.Errorf("%w: %s (post to %s)", ErrCustomCall, c.Name, responses.Path)
			}
		}
	}
	if !stream {
		return jsonAnswer(http.StatusOK, w.JSON(s.Response, id)), nil
	}
	var evs events
	switch w {
	case Anthropic:
		evs = anthropicEvents(s, id)
	case Responses:
		var err error
		if evs, err = responsesEvents(s, id); err != nil {
			return Answer{}, err
		}
	default:
		evs = openaiEvents(s, id)
	}
	return evs.answer(s, w), nil
}

// ErrCustomCall is Reply's error for a custom tool call on a wire that
// cannot carry one.
var ErrCustomCall = errors.New("llmwire: a custom tool call has no form on this wire, only on the Responses API")

func jsonAnswer(code int, body []byte) Answer {
	return Answer{Status: code, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
}
