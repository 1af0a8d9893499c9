package proxy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/jsonspan"
)

// streamRoute answers every streaming request of a route, with or
// without a marker: one set of rules. The first round's events
// are relayed as they arrive, from the first that carries text (with the
// events before it), until one starts a tool call, real or phantom; the
// rest of that round is held (when expansion is on: a call cannot be run
// before it is whole, and a real call sent live would reach the client
// twice when the model repeats it after an expansion). The round is then
// assembled by its wire: a stream that is not whole (cut, no terminal
// event, a malformed or error event, not an event stream at all) fails as
// endLive says, 502 (504 on the upstream timeout) before anything was
// relayed, an aborted connection after. A whole round without phantom
// calls gets what was held, as it came. Otherwise the loop runs its next
// rounds buffered, and the final answer continues the client's stream (see
// continuation): the client gets the text the model wrote before calling,
// then the answer, and no phantom call. When nothing was relayed before
// the first tool call, this is the buffered path, error statuses included.
// The rounds header, unknown when the stream starts, comes as a trailer
// then. c, when the proxy captures, gets the loop's outcome.
func (p *Proxy) streamRoute(w http.ResponseWriter, r *http.Request, route Route, prep gateway.Prepared, c *capture) string {
	l := p.Limits.WithDefaults()
	g := route.Gateway
	results := prep.Results
	first, err := p.firstRound(w, r, route, prep.Body)
	if err != nil {
		p.observe(gateway.Outcome{Results: results, Rounds: 1})
		return p.fail(w, r, g.Wire, err)
	}
	defer first.close()
	first.hold = g.Expand
	if err := first.relay(l.MaxResponseBytes); err != nil {
		p.observe(gateway.Outcome{Results: results, Rounds: 1})
		return p.endLive(w, r, first, 1, err)
	}
	calls, assembled, err := first.phantomCalls(g)
	if err != nil || len(calls) == 0 {
		p.observe(gateway.Outcome{Results: results, Rounds: 1})
		if err != nil {
			return p.endLive(w, r, first, 1, err)
		}
		first.flushHeld()
		p.logf("gateway: %s: streamed through, %d bytes", r.URL.Path, first.bytes)
		return first.outcome()
	}
	var lastHeader http.Header
	up := func(ctx context.Context, round int, fwd []byte) ([]byte, error) {
		if round == 1 {
			return assembled, nil
		}
		resp, header, _, err := p.forward(ctx, route, r, fwd, true, round)
		lastHeader = header
		return resp, err
	}
	out, err := g.Forward(r.Context(), prep, up)
	c.handled(out)
	p.observe(out)
	p.logf("gateway: %s: %d output(s), %d round(s), %d expansion(s)", r.URL.Path, len(out.Results), out.Rounds, len(out.Expansions))
	if !first.sent {
		return p.finishHeld(w, r, g.Wire, out, err, lastHeader)
	}
	if err != nil && !errors.Is(err, gateway.ErrCapped) { // the capped answer is what the client has: end it
		return p.endLive(w, r, first, out.Rounds, err)
	}
	restream, rerr := g.Wire.Restream(out.Response)
	if rerr != nil {
		return p.endLive(w, r, first, out.Rounds, fmt.Errorf("%w: %w", gateway.ErrUpstream, rerr))
	}
	w.Header().Set(RoundsHeader, strconv.Itoa(out.Rounds)) // the trailer
	return p.answer(w, r, continuation(restream, first.shown))
}

// phantomCalls assembles the whole first round and returns its phantom
// calls (none when expansion is off) and the assembled response. A round
// that held nothing (no tool call: every event was relayed, or is quiet)
// has no call to answer, and one that streamEnd, reading its events as
// they came, found whole is not assembled (the assembly would delay the
// end of the client's response); any other is, for the verdict and its
// reason. A stream
// the assembly cannot map (ErrUnassembled: citations, server tools) that
// came whole by streamEnd's reading and names no phantom call has none; any
// other failure is an upstream error (a cut, an error event, a malformed
// event or a body that is not an event stream).
func (s *liveRound) phantomCalls(g *gateway.Gateway) ([]gateway.PhantomCall, []byte, error) {
	if s.held.Len() == 0 && s.end.whole(&s.errs, s.quiet.Bytes()) {
		return nil, nil, nil
	}
	assembled, err := g.Wire.Assemble(s.raw.Bytes())
	switch {
	case errors.Is(err, gateway.ErrUnassembled) && (!s.end.ended || s.end.bad != nil):
		return nil, nil, fmt.Errorf("%w: %w: %w", gateway.ErrUpstream, errNotWhole, err)
	case errors.Is(err, gateway.ErrUnassembled) && (!g.Expand || !bytes.Contains(s.raw.Bytes(), []byte(`"`+gateway.ExpandToolName+`"`))):
		return nil, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("%w: %w", gateway.ErrUpstream, err)
	case !g.Expand:
		return nil, assembled, nil
	}
	calls, err := g.Wire.PhantomCalls(assembled)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", gateway.ErrUpstream, err)
	}
	return calls, assembled, nil
}

// finishHeld answers a request whose stream sent nothing before the loop
// ran: as the buffered path does, headers and error statuses included.
func (p *Proxy) finishHeld(w http.ResponseWriter, r *http.Request, wire gateway.Wire, out gateway.Outcome, err error, header http.Header) string {
	w.Header().Del("Trailer")
	w.Header().Set(RoundsHeader, strconv.Itoa(out.Rounds))
	if err != nil {
		return p.fail(w, r, wire, err)
	}
	copyHeaders(w.Header(), header)
	w.Header().Set("Content-Type", "text/event-stream")
	final, err := wire.StripPhantom(out.Response)
	if err != nil {
		final = out.Response
	}
	restream, err := wire.Restream(final)
	if err != nil {
		return p.fail(w, r, wire, fmt.Errorf("%w: %w", gateway.ErrUpstream, err))
	}
	return p.answer(w, r, restream)
}

// endLive ends a request that failed after rounds forwards: before its
// stream started, as any failure; after, what was relayed stays, the
// failure is logged and the connection aborted (markCut: an SDK would take
// a stream that simply ended for the whole answer), unless what was sent
// holds the upstream's error event, which the SDK reports.
func (p *Proxy) endLive(w http.ResponseWriter, r *http.Request, s *liveRound, rounds int, err error) string {
	w.Header().Set(RoundsHeader, strconv.Itoa(rounds)) // a header, or the trailer
	if !s.sent {
		return p.fail(w, r, s.wire, err)
	}
	switch {
	case clientGone(w, r):
		p.logf("gateway: %s: client went away or stopped reading after %d bytes of the stream: %v", r.URL.Path, s.bytes, err)
		return OutcomeCanceled
	case s.errs.found: // a stream that ends with the upstream's error event is whole
		p.logf("gateway: %s: streamed through, %d bytes, holding the upstream's error event: %v", r.URL.Path, s.bytes, err)
		return OutcomeUpstreamError
	}
	p.logf("gateway: %s: stream cut after %d bytes: %v", r.URL.Path, s.bytes, err)
	markCut(w)
	return OutcomeUpstreamError
}

// liveRound is the first round of a streamed request: its upstream
// answer, read event by event.
type liveRound struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	wire   gateway.Wire
	resp   *http.Response
	header http.Header
	cancel context.CancelFunc
	hold   bool         // hold the round from its first tool call on (expansion is on)
	raw    bytes.Buffer // the whole round, for the assembly
	quiet  bytes.Buffer // events before the first text, not sent yet
	held   bytes.Buffer // from the first tool call on
	sent   bool         // headers and some events went to the client
	out    bytes.Buffer // events sent, not yet written to the client
	bytes  int64        // bytes written to the client
	werr   error        // the first write to the client that failed
	end    streamEnd    // whether the round's events ended it, read as they came
	shown  shown        // what was sent: content blocks, Responses events and items
	errs   sseErrors    // watches what was sent for an error event
}

// firstRound posts the first round; an error status is an upstreamStatus.
func (p *Proxy) firstRound(w http.ResponseWriter, r *http.Request, route Route, body []byte) (*liveRound, error) {
	l := p.Limits.WithDefaults()
	ctx, cancel := p.Sources.WithTimeout(r.Context(), l.UpstreamTimeout)
	req, err := p.upstreamRequest(ctx, route, r, body, 1)
	if err != nil {
		cancel()
		return nil, err
	}
	name := route.Gateway.Wire.Name()
	start := p.Sources.Time()
	resp, err := p.do(req)
	if err != nil {
		cancel()
		p.observer().Upstream(name, 0, p.Sources.Time().Sub(start))
		return nil, fmt.Errorf("%w: %w", gateway.ErrUpstream, err)
	}
	p.observer().Upstream(name, resp.StatusCode, p.Sources.Time().Sub(start))
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, l.MaxResponseBytes))
		resp.Body.Close()
		cancel()
		return nil, &upstreamStatus{code: resp.StatusCode, header: resp.Header, body: raw, url: req.URL.Redacted()}
	}
	return &liveRound{w: w, rc: http.NewResponseController(w), wire: route.Gateway.Wire, resp: resp, header: resp.Header, cancel: cancel}, nil
}

func (s *liveRound) close() {
	s.resp.Body.Close()
	s.cancel()
}

// writeBatch is the most bytes of events relay queues before writing.
const writeBatch = 32 << 10

// relay reads the round's events, relaying each until one starts a tool
// call, holding the rest, within limit bytes in all. What was relayed is
// flushed whenever the upstream has sent nothing more yet, or writeBatch
// bytes are queued (an upstream that writes faster than the client reads
// never piles up), so events that came together go out in one write and
// none waits for the next. A write
// to the client that fails ends the round (the client went away or
// stopped reading).
func (s *liveRound) relay(limit int64) error {
	rd := bufio.NewReaderSize(io.LimitReader(s.resp.Body, limit+1), 32<<10)
	for {
		ev, err := appendEvent(&s.raw, rd)
		if int64(s.raw.Len()) > limit {
			err = fmt.Errorf("%w: response larger than %d bytes", gateway.ErrUpstream, limit)
		} else if len(ev) > 0 {
			s.end.watch(ev)
			s.take(ev)
		}
		if rd.Buffered() == 0 || err != nil || s.out.Len() >= writeBatch {
			s.write()
		}
		switch {
		case s.werr != nil:
			return fmt.Errorf("the client did not take the stream: %w", s.werr)
		case err == io.EOF:
			return nil
		case errors.Is(err, gateway.ErrUpstream):
			return err
		case err != nil:
			return fmt.Errorf("%w: reading the stream: %w", gateway.ErrUpstream, err)
		}
	}
}

// take relays one event, or keeps it: from the first tool call on (held,
// when the round holds calls), and before the first text (quiet: a
// response that starts with a call then sends nothing before the loop,
// and gets the buffered path's answer, its usage summed from the first
// event on; a stream that fails before its first text is a 502, never a
// partial answer).
func (s *liveRound) take(ev []byte) {
	switch {
	case s.held.Len() > 0 || s.hold && startsCall(ev):
		s.held.Write(s.quiet.Bytes())
		s.quiet.Reset()
		s.held.Write(ev)
		return
	case !s.sent && !carriesText(ev) && (s.hold || !startsCall(ev)):
		s.quiet.Write(ev)
		return
	}
	if !s.sent {
		s.begin("Trailer", RoundsHeader) // the rounds are not known yet
	}
	s.send(s.quiet.Bytes())
	s.quiet.Reset()
	s.send(ev)
}

// begin sends the upstream's headers, with key: value added, and the 200
// of a stream.
func (s *liveRound) begin(key, value string) {
	copyHeaders(s.w.Header(), s.header)
	s.w.Header().Set("Content-Type", "text/event-stream")
	s.w.Header().Set(key, value)
	s.w.WriteHeader(http.StatusOK)
	s.sent = true
}

// send queues events for the client (write sends them), noting what they
// started, without a trace of the phantom tool in a Responses API
// response object (scrub).
func (s *liveRound) send(evs []byte) {
	if len(evs) == 0 {
		return
	}
	evs = scrub(evs, s.wire)
	s.shown.note(evs)
	_, _ = s.errs.Write(evs)
	s.out.Write(evs)
}

// write sends the queued events to the client in one write, and flushes.
func (s *liveRound) write() {
	if s.out.Len() == 0 || s.werr != nil {
		return
	}
	n, err := s.w.Write(s.out.Bytes())
	s.bytes += int64(n)
	s.out.Reset()
	if s.werr = err; err == nil {
		_ = s.rc.Flush()
	}
}

// flushHeld relays what was kept, for a whole round without phantom calls.
func (s *liveRound) flushHeld() {
	if !s.sent {
		s.begin(RoundsHeader, "1")
	} else {
		s.w.Header().Set(RoundsHeader, "1") // the trailer
	}
	s.send(s.quiet.Bytes())
	s.send(s.held.Bytes())
	s.write()
}

// outcome is how a round relayed whole counts: upstream_error when it
// holds the upstream's error event (a Responses API response.failed is a
// whole stream), canceled when the client did not take it, ok otherwise.
func (s *liveRound) outcome() string {
	switch {
	case s.werr != nil:
		return OutcomeCanceled
	case s.errs.found:
		return OutcomeUpstreamError
	}
	return OutcomeOK
}

// carriesText says whether an event holds text for the client: an OpenAI
// delta's content, an Anthropic text or thinking delta, a block that
// starts with text, or a Responses API text, refusal or reasoning delta.
func carriesText(ev []byte) bool {
	data, _ := eventData(ev)
	root, err := jsonspan.Parse(data)
	if err != nil {
		return false
	}
	if responsesText[root.Get("type").Text()] && root.Get("delta").Text() != "" {
		return true
	}
	for _, c := range root.Get("choices").Items() {
		if c.Get("delta").Get("content").Text() != "" {
			return true
		}
	}
	d := root.Get("delta")
	return d.Get("text").Text() != "" || d.Get("thinking").Text() != "" || root.Get("content_block").Get("text").Text() != ""
}

// startsCall says whether an event starts or continues a tool call, or
// names the phantom tool (an OpenAI tool_calls delta, an Anthropic tool_use
// block, a Responses API output item of a "*_call" type; the quoted names
// only occur as JSON keys and values, a text that holds them has its
// quotes escaped). A Responses API response.created, in_progress or
// queued event starts none, though its response echoes the tools
// offered, expand_context among them.
func startsCall(ev []byte) bool {
	if bytes.Contains(ev, []byte(`"response.`)) {
		data, _ := eventData(ev)
		root, err := jsonspan.Parse(data)
		switch typ := root.Get("type").Text(); {
		case err != nil:
		case responsesStart[typ]: // the response's echo of the request's tools names expand_context
			return false
		case typ == "response.output_item.added":
			return strings.HasSuffix(root.Get("item").Get("type").Text(), "_call")
		}
	}
	for _, s := range []string{`"tool_calls"`, `"tool_use"`, `"server_tool_use"`, gateway.ExpandToolName} {
		if bytes.Contains(ev, []byte(s)) {
			return true
		}
	}
	return false
}

// responsesText are the Responses API events whose delta is text the
// client shows.
var responsesText = map[string]bool{"response.output_text.delta": true, "response.refusal.delta": true,
	"response.reasoning_summary_text.delta": true, "response.reasoning_text.delta": true}

// readEvent reads one server-sent event: lines up to and including the
// blank line that ends it (or what is left at the end of the stream).
func readEvent(rd *bufio.Reader) ([]byte, error) {
	var b bytes.Buffer
	return appendEvent(&b, rd)
}

// appendEvent reads one server-sent event, as readEvent, onto the end of b
// and returns it (valid until b's next write): the first round's relay
// keeps the whole round in b and reads each event there, without a copy.
// A line longer than rd's buffer comes in pieces; it ends the event only
// when the whole line is blank.
func appendEvent(b *bytes.Buffer, rd *bufio.Reader) ([]byte, error) {
	start, line := b.Len(), b.Len()
	for {
		piece, err := rd.ReadSlice('\n')
		b.Write(piece)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil:
			return b.Bytes()[start:], err
		case len(bytes.TrimRight(b.Bytes()[line:], "\r\n")) == 0 && line > start:
			return b.Bytes()[start:], nil
		}
		line = b.Len()
	}
}

// continuation turns the re-stream of the final answer into the rest of a
// stream the client has begun: Anthropic's message_start and pings are
// dropped (the client has its message), and content block indexes follow
// the blocks already sent; OpenAI's chunks continue as they are (the same
// choice, and no tool call was sent before); the Responses API's opening
// events are dropped, and sequence numbers, output indexes and the final
// response's items follow what was sent (shown.continueResponses).
func continuation(restream []byte, sent shown) []byte {
	var out []byte
	rd := bufio.NewReader(bytes.NewReader(restream))
	for {
		ev, err := readEvent(rd)
		if len(ev) > 0 {
			switch kind := eventType(ev); {
			case kind == "message_start" || kind == "ping" || responsesStart[kind]:
			case strings.HasPrefix(kind, "response."):
				out = append(out, sent.continueResponses(ev, kind)...)
			default:
				out = append(out, shiftIndex(ev, sent.blocks)...)
			}
		}
		if err != nil {
			return out
		}
	}
}

// eventData returns the data line's JSON of an event, and where it starts.
func eventData(ev []byte) ([]byte, int) {
	i := bytes.Index(ev, []byte("data: "))
	if i < 0 {
		return nil, -1
	}
	start := i + len("data: ")
	end := bytes.IndexByte(ev[start:], '\n')
	if end < 0 {
		end = len(ev) - start
	}
	return ev[start : start+end], start
}

// eventType is the "type" of an event's data ("" for OpenAI chunks).
func eventType(ev []byte) string {
	data, _ := eventData(ev)
	root, err := jsonspan.Parse(data)
	if err != nil {
		return ""
	}
	return root.Get("type").Text()
}

// shiftIndex adds n to the top-level "index" of an Anthropic event's data.
func shiftIndex(ev []byte, n int) []byte {
	data, at := eventData(ev)
	if n == 0 || at < 0 {
		return ev
	}
	root, err := jsonspan.Parse(data)
	if err != nil || root.Get("type").Text() == "" {
		return ev
	}
	idx := root.Get("index")
	if idx == nil || idx.Kind != 'n' {
		return ev
	}
	v, err := strconv.Atoi(string(data[idx.Start:idx.End]))
	if err != nil {
		return ev
	}
	edited := jsonspan.Splice(data, []jsonspan.Edit{{Start: idx.Start, End: idx.End, Text: strconv.AppendInt(nil, int64(v+n), 10)}})
	return append(append(append([]byte(nil), ev[:at]...), edited...), ev[at+len(data):]...)
}
