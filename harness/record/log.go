package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolout/toolout/fakes/llmwire"
	"github.com/toolout/toolout/harness/importer"
)

// callLog is the recording of one scenario: the file its calls are
// appended to, and the wire they speak.
type callLog struct {
	path    string
	wire    llmwire.Wire
	timings []*Timing // of each call of the log, in order
}

// LogPath is the file the calls recorded for scenario go to: beside it,
// its name without ".yaml" and ".calls.jsonl" after.
func LogPath(scenario string) string {
	return strings.TrimSuffix(scenario, filepath.Ext(scenario)) + ".calls.jsonl"
}

// formats are the import formats of the wires' call logs.
var formats = map[llmwire.Wire]string{
	llmwire.OpenAI:    importer.FormatChatCompletionsLog,
	llmwire.Anthropic: importer.FormatAnthropicMessages,
	llmwire.Responses: importer.FormatResponsesLog,
}

// line is one recorded call, as toolout import reads a call log: the
// request, and the answer (a JSON object, or an event stream's text in a
// string); Timing is what --replay-speed plays back.
type line struct {
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
	Timing   *Timing         `json:"timing,omitempty"`
}

// Timing is when a recorded answer's bytes came: the time to its first
// byte, and between each read that brought more (an event stream's
// cadence), in milliseconds.
type Timing struct {
	FirstByteMS int64   `json:"first_byte_ms"`
	GapsMS      []int64 `json:"gaps_ms,omitempty"`
}

// maxGaps bounds the gaps a call's timing keeps.
const maxGaps = 4096

// keep appends the call to the scenario's log, redacted, and rewrites the
// scenario from the log. The log holds the calls of one wire: a call of
// another is left out, and said so.
func (r *Recorder) keep(scenario string, wire llmwire.Wire, body []byte, a answer) {
	l := line{Request: r.red.RedactJSON(body), Response: r.red.RedactJSON(a.body), Timing: timingOf(a)}
	if a.stream {
		l.Response, _ = json.Marshal(redactStream(r.red, string(a.body)))
	}
	data, err := marshalLine(l)
	if err != nil { // the request and the answer are JSON: not reached
		r.logf("%s: not recorded: %v", scenario, err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	cl := r.logs[scenario]
	if cl == nil {
		cl = &callLog{path: LogPath(scenario), wire: wire}
		if cl.timings, err = loadTimings(cl.path); err != nil {
			r.logf("%s: not recorded: %v", scenario, err)
			return
		}
		r.logs[scenario] = cl
	}
	if cl.wire != wire {
		r.logf("%s: not recorded: a %s call, and the recording holds %s calls", scenario, wire, cl.wire)
		return
	}
	if err := appendLine(cl.path, data); err != nil {
		r.logf("%s: not recorded: %v", scenario, err)
		return
	}
	cl.timings = append(cl.timings, l.Timing)
	r.logf("%s: recorded a call (%s) in %s", scenario, wire, cl.path)
	if err := r.rewrite(scenario, cl); err != nil {
		r.logf("%s: not written yet: %v", scenario, err)
	}
}

// appendLine appends data and a newline to the file at path.
func appendLine(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	return errors.Join(err, f.Close())
}

// maxLogBytes bounds the call log a recorder imports after each call, as
// toolout import's --max-input does by default.
const maxLogBytes = 128 << 20

// rewrite imports the scenario's log as toolout import --final does and
// writes the scenario and its payload files, each whole or not at all: a
// conversation that has no answer yet (its last call asked for tools)
// is not a scenario yet.
func (r *Recorder) rewrite(scenario string, cl *callLog) error {
	if info, err := os.Stat(cl.path); err == nil && info.Size() > maxLogBytes {
		return fmt.Errorf("%s: %d bytes, over the %d a scenario is written from after each call; import it with toolout import --final --max-input", cl.path, info.Size(), maxLogBytes)
	}
	data, err := os.ReadFile(cl.path)
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(filepath.Base(scenario), filepath.Ext(scenario))
	files, err := importer.Import(data, importer.ImportOptions{Dir: filepath.Dir(scenario), Name: name, TraceName: filepath.Base(cl.path),
		TracePath: cl.path, At: -1, Final: true, Format: formats[cl.wire], RedactEmails: r.o.RedactEmails, Redact: r.o.Redact})
	if err != nil {
		return err
	}
	for i, f := range files {
		if filepath.Base(f.Path) == name+".yaml" {
			if files[i].Data, err = withTiming(f.Data, cl.timings); err != nil {
				return err
			}
		}
	}
	for _, f := range files {
		if err := writeFile(filepath.FromSlash(f.Path), f.Data); err != nil {
			return err
		}
	}
	r.logf("%s: written (%d file(s))", scenario, len(files))
	return nil
}

// writeFile writes data to path through a file beside it, renamed over
// it: a reader sees the old file or the new one.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	err = errors.Join(err, tmp.Chmod(0o644), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// redactStream redacts an event stream's text: each data line's JSON
// string by string, any other line as text.
func redactStream(red *importer.Redactor, text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		end := l[len(body):]
		if data, ok := strings.CutPrefix(body, "data:"); ok {
			lines[i] = "data:" + string(red.RedactJSON([]byte(data))) + end
		} else {
			lines[i] = red.Redact(body) + end
		}
	}
	return strings.Join(lines, "")
}

func envOf(k string) string { return os.Getenv(k) }

// marshalLine is v as one line of JSON, without a newline, "<", ">" and
// "&" as they are (json.Marshal escapes them, and the JSON values of a
// line are compacted with them escaped too).
func marshalLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
