package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/anthropic"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/fakes/llmwire"
)

// errorBody renders an error in the wire's shape, as the core wires do.
// The Messages API documents its error types for 400, 413, 429, 500,
// 529...; serve's other 4xx (404, 405, 415, 422) are invalid requests too,
// and say so.
func errorBody(w llmwire.Wire, status int, msg string) []byte {
	if w == llmwire.Anthropic {
		typeOf := status
		if status >= 400 && status < 500 && status != http.StatusRequestEntityTooLarge && status != http.StatusTooManyRequests {
			typeOf = http.StatusBadRequest
		}
		return anthropic.Wire{}.ErrorBody(typeOf, msg)
	}
	return openai.Wire{}.ErrorBody(status, msg)
}

// nextID numbers the scenario's answers as the wire names them (cmpl-1,
// msg_1, ...: llmwire.Wire.ID), one sequence per scenario.
func (sc *script) nextID(w llmwire.Wire) string { return w.ID(int(sc.ids.Add(1))) }

// incoming is a decoded completion request.
type incoming struct {
	body   []byte
	req    core.Request
	stream bool
	// includeUsage is OpenAI's stream_options.include_usage.
	includeUsage bool
	// previous is a Responses request's previous_response_id.
	previous string
	// keep says a Responses answer is kept for previous_response_id
	// (store is not false).
	keep bool
}

// Bounds on a request body's JSON, as the gateway's: tokens ({ [ , :) and
// nesting.
const (
	maxJSONValues  = gateway.DefaultMaxJSONValues
	maxJSONNesting = gateway.DefaultMaxJSONNesting
)

// read checks and decodes a completion request ([Server.decode]) and
// derives its tag. A refusal comes with its status: 415, 413, 408, 400.
func (s *Server) read(w http.ResponseWriter, r *http.Request, sc *script, wire llmwire.Wire) (incoming, int, error) {
	in, status, err := s.decode(w, r, wire)
	if err != nil {
		return in, status, err
	}
	if in.previous != "" {
		req, err := sc.chain.continued(in.previous, in.req)
		switch {
		case err == nil:
			in.req = req
		case s.opts.Record == nil:
			return in, http.StatusBadRequest, err
		} // recording: the id may be the upstream's, which the forward carries as is
	}
	if in.req.Tag, err = requestTag(r.Header, sc.site, wire, in.req); err != nil {
		return in, http.StatusBadRequest, err
	}
	return in, 0, nil
}

// decode checks and decodes a request body of the wire: its content type,
// its bytes (proxy.ReadBody, as the gateway reads them: no
// Content-Encoding, a Content-Length over the bound refused before the
// body is read, a body slower than the read timeout 408), its JSON shape
// and the API's own decoding. A refusal comes with its status: 415, 413,
// 408, 400.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, wire llmwire.Wire) (incoming, int, error) {
	var in incoming
	ct := strings.Join(r.Header.Values("Content-Type"), ", ")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return in, http.StatusUnsupportedMediaType, fmt.Errorf("content type %s: want application/json", clip(ct))
	}
	body, berr := proxy.ReadBody(w, r, s.opts.MaxBodyBytes)
	if berr != nil {
		return in, berr.Status, berr
	}
	if err := gateway.CheckJSONShape(body, maxJSONValues, maxJSONNesting); err != nil {
		var le *gateway.LimitError
		if errors.As(err, &le) && le.Limit == gateway.LimitJSONValues {
			return in, http.StatusRequestEntityTooLarge, fmt.Errorf("body: %w", err)
		}
		return in, http.StatusBadRequest, fmt.Errorf("body: %w", err)
	}
	var err error
	in.body = body
	in.req, in.stream, err = wire.Decode(body, core.Tag{})
	if err != nil {
		return in, http.StatusBadRequest, err
	}
	if wire == llmwire.OpenAI {
		var opts struct {
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		if err := json.Unmarshal(body, &opts); err != nil {
			return in, http.StatusBadRequest, fmt.Errorf("openai: chat request: stream_options: %w", jsonspan.TypeError(body, err))
		}
		in.includeUsage = opts.StreamOptions.IncludeUsage
	}
	if wire == llmwire.Responses {
		st, err := readResponsesState(body)
		if err != nil {
			return in, http.StatusBadRequest, err
		}
		in.keep = st.Store == nil || *st.Store
		if st.Previous != nil {
			in.previous = *st.Previous
		}
	}
	if wire == llmwire.OpenAI && len(in.req.Messages) == 0 {
		return in, http.StatusBadRequest, errors.New("request: messages: want at least one message")
	}
	return in, 0, nil
}

// requestTag is the tag a request is matched with: X-Toolout-Tag when it
// carries one; else the scenario's site and a turn (agentTurn), with the
// round of the gateway's header when the toolout gateway forwarded it.
func requestTag(h http.Header, site string, wire llmwire.Wire, req core.Request) (core.Tag, error) {
	if v := h.Values(TagHeader); len(v) > 0 {
		if len(v) > 1 {
			return core.Tag{}, fmt.Errorf("%s: given %d times, want once", TagHeader, len(v))
		}
		t, err := core.ParseTag(v[0])
		if err != nil {
			return core.Tag{}, fmt.Errorf("%s %s: %w", TagHeader, clip(v[0]), err)
		}
		return t, nil
	}
	t := core.Tag{Site: site}
	if v := h.Get(proxy.RoundHeader); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxRound {
			return core.Tag{}, fmt.Errorf("%s %s: want a positive round", proxy.RoundHeader, clip(v))
		}
		t.Round = n
	}
	var err error
	t.Turn, err = agentTurn(site, wire, req, t.Round)
	return t, err
}

// maxRound bounds the round header serve reads: far above any gateway's
// cap on its expand_context rounds (gateway.MaxExpandRounds).
const maxRound = 1000

// agentTurn is the turn of a request: 1 + the assistant messages the
// agent sent; on the Responses wire, 1 + the runs of assistant messages
// (assistantTurns: a turn's message and function calls come as separate
// items, each its own assistant message once decoded). Behind the toolout gateway (round > 0) each expansion round
// before this one appended one assistant message of its own (the
// expand_context call, then its result), so the agent sent round - 1
// fewer; a request that holds fewer than that was not built by the
// gateway, and is refused. A gateway scenario (site gateway.upstream)
// scripts one client request whose turns are the gateway's rounds, as its
// component numbers them in process, so there the turn is the round.
func agentTurn(site string, wire llmwire.Wire, req core.Request, round int) (int, error) {
	if site == core.SiteGatewayUpstream && round > 0 {
		return round, nil
	}
	assistants := assistantTurns(wire, req.Messages)
	if round > 0 && assistants < round-1 {
		return 0, fmt.Errorf("%s %s: the request holds %d assistant message(s), fewer than the %d the gateway's expansion rounds before round %d add",
			proxy.RoundHeader, clip(strconv.Itoa(round)), assistants, round-1, round)
	}
	return 1 + assistants - max(round-1, 0), nil
}

// assistantTurns counts the model's turns a request's messages hold:
// every assistant message on the chat and Messages wires; on the
// Responses wire, every run of assistant messages that no user or tool
// message interrupts. A Responses turn is a list of output items (Codex
// replays reasoning, then a message, then its function_call items, each
// function_call_output after them), which decode to one assistant message
// per message item and per call; the items of one turn are contiguous,
// and the next turn comes after the calls' outputs or the user's
// message, so a run is a turn. Items without a message of their own
// (reasoning) are not counted.
func assistantTurns(wire llmwire.Wire, msgs []core.Message) int {
	n := 0
	for i, m := range msgs {
		if m.Role != core.RoleAssistant {
			continue
		}
		if wire == llmwire.Responses && i > 0 && msgs[i-1].Role == core.RoleAssistant {
			continue
		}
		n++
	}
	return n
}
