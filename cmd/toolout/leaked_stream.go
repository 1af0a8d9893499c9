package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/toolout/toolout/core/leaked"
)

// jsonLines is a leaf's result printed as it is made: the leaf's runner
// calls it with an emit that prints one value as a line of JSON. What it
// emitted before an error stays printed; the error is reported as any
// leaf's is.
type jsonLines func(emit func(v any) error) error

// The lines of `toolout leaked --stream`: {"text": …}, {"call": {…}}, and
// last {"result": …}, the JSON form of `toolout leaked`.
type (
	textLine struct {
		Text string `json:"text"`
	}
	callLine struct {
		Call leaked.Call `json:"call"`
	}
	resultLine struct {
		Result leaked.Result `json:"result"`
	}
)

// streamLeaked reads the deltas of c's input, one JSON string per line, and
// feeds them to a leaked.Stream, emitting its events as they come and the
// result at the end. A line that is not a JSON string stops it with an
// error naming the input and the line, after the events of the lines
// before it.
func streamLeaked(c *call, opts leaked.Options) jsonLines {
	return func(emit func(v any) error) error {
		in, err := c.open()
		if err != nil {
			return err
		}
		defer in.Close()
		st := leaked.NewStream(opts)
		r := bufio.NewReaderSize(in, 64<<10)
		for n := 1; ; n++ {
			line, err := r.ReadString('\n')
			if err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			if line == "" && err != nil {
				break // the end, after a last newline or none
			}
			delta, perr := deltaOf(line)
			if perr != nil {
				return fmt.Errorf("%s:%d: %w", in.name, n, perr)
			}
			if err := emitEvents(emit, st.Write(delta)); err != nil {
				return err
			}
			if err != nil {
				break
			}
		}
		ev, res := st.Close()
		if err := emitEvents(emit, ev); err != nil {
			return err
		}
		return emit(resultLine{res})
	}
}

// deltaOf decodes one line of input: a JSON string.
func deltaOf(line string) (string, error) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, `"`) {
		return "", fmt.Errorf("want a JSON string, got %s", showLine(t))
	}
	var s string
	if err := json.Unmarshal([]byte(t), &s); err != nil {
		return "", fmt.Errorf("want a JSON string: %w", err)
	}
	return s, nil
}

// showLine quotes a line for a message, cut to 40 bytes.
func showLine(t string) string {
	if t == "" {
		return "an empty line"
	}
	if len(t) > 40 {
		t = t[:40] + "…"
	}
	return fmt.Sprintf("%q", t)
}

func emitEvents(emit func(v any) error, ev []leaked.Event) error {
	for _, e := range ev {
		var v any = textLine{e.Text}
		if e.Call != nil {
			v = callLine{*e.Call}
		}
		if err := emit(v); err != nil {
			return err
		}
	}
	return nil
}
