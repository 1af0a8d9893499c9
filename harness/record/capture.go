package record

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/harness/importer"
)

// CaptureOptions configure a Capture (the gateway config's capture:).
type CaptureOptions struct {
	// Dir holds the trace files, one per conversation.
	Dir string
	// Sample is the share of conversations captured, from 0 (none) to 1
	// (all): a conversation is in or out as a whole, by its key.
	Sample float64
	// MaxBytes bounds the bytes of the trace files together, MaxFiles
	// their number: past either, the oldest files are removed first.
	MaxBytes int64
	MaxFiles int
	// RedactEmails and Redact are what is redacted besides the built-in
	// secrets (toolout import's --redact-emails and --redact).
	RedactEmails bool
	Redact       []string
	// Queue is how many requests wait to be written (DefaultCaptureQueue
	// when 0); a request past it is dropped, and counted.
	Queue int
	// Count, when set, is called with "written", "dropped" or "failed"
	// for each request (the gateway's /metrics count them).
	Count func(outcome string)
	// Logf gets a line for each request not written, and why.
	Logf func(format string, args ...any)
	// Settings are the gateway's, written with each request (what a
	// gateway scenario imported from the capture runs with); nil writes
	// none, and import then makes no gateway scenario.
	Settings *gateway.Settings
	// Now stamps each request as it is handed over (time.Now when nil).
	Now func() time.Time
}

// DefaultCaptureQueue is how many requests wait for the capture's writer.
const DefaultCaptureQueue = 256

// capturePrefix names the trace files a Capture owns in its folder: it
// counts and removes those alone.
const capturePrefix = "capture-"

// Capture writes the conversations that pass through the gateway as call
// logs toolout import reads: a proxy.Capturer. Capture never blocks: the
// writing is done by one goroutine of its own, off the request path; a
// full queue, a full or read-only disk lose the request and count it,
// never delay or fail it. Close stops it.
type Capture struct {
	o       CaptureOptions
	red     *importer.Redactor
	config  *importer.CaptureConfig
	queue   chan stamped
	done    chan struct{}
	close   sync.Once
	closed  atomic.Bool
	written atomic.Int64
	dropped atomic.Int64
	failed  atomic.Int64
}

// NewCapture returns a started Capture; its folder is made when missing.
func NewCapture(o CaptureOptions) (*Capture, error) {
	switch {
	case o.Dir == "":
		return nil, errors.New("capture: dir: want a folder")
	case !(o.Sample >= 0 && o.Sample <= 1):
		return nil, fmt.Errorf("capture: sample %v: want a share from 0 to 1", o.Sample)
	case o.MaxBytes <= 0 || o.MaxFiles <= 0:
		return nil, errors.New("capture: max_bytes and max_files: want positive numbers")
	}
	red, err := importer.NewRedactor(o.RedactEmails, o.Redact)
	if err != nil {
		return nil, fmt.Errorf("capture: %v", err)
	}
	if o.Queue <= 0 {
		o.Queue = DefaultCaptureQueue
	}
	_ = os.MkdirAll(o.Dir, 0o755) // a folder that cannot be made fails each write, counted
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &Capture{o: o, red: red, queue: make(chan stamped, o.Queue), done: make(chan struct{})}
	if o.Settings != nil {
		c.config = importer.CaptureConfigOf(*o.Settings)
	}
	go c.run()
	return c, nil
}

// stamped is a request handed over, and when.
type stamped struct {
	x  proxy.Exchange
	at time.Time
}

// Capture queues x for writing, or drops it (counted) when the queue is
// full or the Capture closed.
func (c *Capture) Capture(x proxy.Exchange) {
	if c.closed.Load() {
		c.count("dropped", "closed")
		return
	}
	select {
	case c.queue <- stamped{x, c.o.Now()}:
	default:
		c.count("dropped", "the queue is full")
	}
}

// Close writes what is queued and stops the writer.
func (c *Capture) Close() {
	c.close.Do(func() {
		c.closed.Store(true)
		close(c.queue)
	})
	<-c.done
}

// Stats are the requests written, dropped and failed so far.
func (c *Capture) Stats() (written, dropped, failed int64) {
	return c.written.Load(), c.dropped.Load(), c.failed.Load()
}

func (c *Capture) run() {
	defer close(c.done)
	for q := range c.queue {
		if err := c.write(q.x, q.at); err != nil {
			c.count("failed", err.Error())
		}
	}
}

// count counts one request by outcome, logging why it was not written.
func (c *Capture) count(outcome, why string) {
	switch outcome {
	case "written":
		c.written.Add(1)
	case "dropped":
		c.dropped.Add(1)
	default:
		c.failed.Add(1)
	}
	if outcome != "written" && c.o.Logf != nil {
		c.o.Logf("gateway: capture: %s: %s", outcome, why)
	}
	if c.o.Count != nil {
		c.o.Count(outcome)
	}
}

// write appends x, redacted, to its conversation's file, within the
// bounds.
func (c *Capture) write(x proxy.Exchange, at time.Time) error {
	key, ok := conversationKey(x)
	if !ok || !sampled(key, c.o.Sample) {
		return nil // not a conversation toolout can read, or not in the sample
	}
	data, err := marshalLine(c.line(x, at))
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if int64(len(data)) > c.o.MaxBytes {
		c.count("dropped", fmt.Sprintf("a request of %d bytes, over max_bytes %d", len(data), c.o.MaxBytes))
		return nil
	}
	name := filepath.Join(c.o.Dir, capturePrefix+x.Wire+"-"+hex.EncodeToString(key[:8])+".jsonl")
	if err := c.makeRoom(name, int64(len(data))); err != nil {
		return err
	}
	if err := appendLine(name, data[:len(data)-1]); err != nil {
		return err
	}
	c.count("written", "")
	return nil
}

// captured is one line of a capture: a call as toolout import reads it,
// and what the gateway did with it.
type captured struct {
	Request  json.RawMessage         `json:"request"`
	Response json.RawMessage         `json:"response"`
	Gateway  importer.CaptureGateway `json:"gateway"`
}

func (c *Capture) line(x proxy.Exchange, at time.Time) captured {
	var l captured
	l.Request, l.Gateway.Forwarded = c.red.RedactJSON(x.Request), c.red.RedactJSON(x.Forwarded)
	l.Gateway.At, l.Gateway.Config = at.UTC(), c.config
	l.Gateway.Results, l.Gateway.Rounds, l.Gateway.Expansions, l.Gateway.Capped = x.Results, x.Rounds, x.Expansions, x.Capped
	for i := range l.Gateway.Results { // a reason may quote an error's text
		l.Gateway.Results[i].Reason = c.red.Redact(l.Gateway.Results[i].Reason)
	}
	if x.Stream {
		l.Response, _ = json.Marshal(redactStream(c.red, string(x.Answer)))
	} else {
		l.Response = c.red.RedactJSON(x.Answer)
	}
	for _, v := range []*json.RawMessage{&l.Request, &l.Gateway.Forwarded, &l.Response} {
		if !json.Valid(*v) {
			*v, _ = json.Marshal(string(*v)) // kept as text
		}
	}
	return l
}

// makeRoom removes the oldest capture files, other than name, until one
// more file (when name is new) and n more bytes fit the bounds.
func (c *Capture) makeRoom(name string, n int64) error {
	entries, err := os.ReadDir(c.o.Dir)
	if err != nil {
		return err
	}
	type file struct {
		path string
		size int64
		mod  int64
	}
	var files []file
	var total int64
	isNew := true
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), capturePrefix) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		p := filepath.Join(c.o.Dir, e.Name())
		isNew = isNew && p != name
		files = append(files, file{p, info.Size(), info.ModTime().UnixNano()})
		total += info.Size()
	}
	slices.SortFunc(files, func(a, b file) int { return cmp.Compare(a.mod, b.mod) })
	count := len(files)
	if isNew {
		count++
	}
	for _, f := range files {
		if count <= c.o.MaxFiles && total+n <= c.o.MaxBytes {
			break
		}
		if f.path == name {
			continue
		}
		if err := os.Remove(f.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		count--
		total -= f.size
	}
	if total+n > c.o.MaxBytes {
		return fmt.Errorf("%s: %d bytes do not fit max_bytes %d beside its own %d", name, n, c.o.MaxBytes, total)
	}
	return nil
}

// conversationKey is the key of x's conversation: the caller, the wire,
// and the conversation's opening (its system text, and its first
// message's role and text), which every request of a conversation
// repeats, read as text: an agent that spaces its JSON otherwise from one
// request to the next stays in one conversation. ok is false for a
// request with no message.
func conversationKey(x proxy.Exchange) ([32]byte, bool) {
	root, err := jsonspan.Parse(x.Request)
	if err != nil || root.Kind != '{' {
		return [32]byte{}, false
	}
	var first, system *jsonspan.Node
	switch x.Wire {
	case "responses":
		first, system = root.Get("input"), root.Get("instructions")
		if first != nil && first.Kind == '[' && len(first.Vals) > 0 {
			first = first.Vals[0]
		}
	default:
		system = root.Get("system")
		if msgs := root.Get("messages"); msgs != nil && msgs.Kind == '[' && len(msgs.Vals) > 0 {
			first = msgs.Vals[0]
		}
	}
	if first == nil {
		return [32]byte{}, false
	}
	h := sha256.New()
	opening := []string{x.Caller, x.Wire, jsonspan.ContentText(system), first.Get("role").Text(), jsonspan.ContentText(first.Get("content")), first.Text()}
	for _, part := range opening {
		_ = binary.Write(h, binary.BigEndian, int64(len(part)))
		h.Write([]byte(part))
	}
	var key [32]byte
	h.Sum(key[:0])
	return key, true
}

// sampled says whether the conversation of key is in a sample of share.
func sampled(key [32]byte, share float64) bool {
	if share >= 1 {
		return true
	}
	return float64(binary.BigEndian.Uint64(key[:8])>>11)/(1<<53) < share
}
