package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/toolout/toolout/core/tokens"
)

// A leaf is a subcommand that answers with one value: its flags, which setup
// binds, and the function setup returns, from the parsed call to the value.
// leaf.run is the one runner they share: it parses the flags (interleaved
// with positional arguments), hands the function the bounded reader of FILE
// or stdin (--max-input, when the leaf reads input), prints the value (one
// line of JSON, or a tool's text), and turns an error into one line on
// stderr and the exit status: 2 for bad usage or bad input, 1 for a failure
// (failure).
type leaf struct {
	name     string // as typed: "schema summarize"
	summary  string // one line, for the group's and the program's help
	synopsis string // the arguments, for -h
	input    bool   // reads FILE or stdin: adds --max-input
	setup    func(fs *flag.FlagSet) leafFunc
}

// leafFunc is a leaf's body.
type leafFunc func(ctx context.Context, c *call) (any, error)

// call is what a leaf's body gets: its positional arguments, and its input.
type call struct {
	args     []string
	stdin    io.Reader
	maxInput byteSize
}

// text reads FILE (the first argument) or stdin whole, within --max-input,
// and names it for messages.
func (c *call) text() (name, text string, err error) { return readText(c.args, c.stdin, c.maxInput) }

// bytes is text as bytes.
func (c *call) bytes() (name string, data []byte, err error) {
	return readBytes(c.args, c.stdin, c.maxInput)
}

// open opens FILE or stdin for one pass, within --max-input.
func (c *call) open() (*input, error) { return openInput(c.args, c.stdin, c.maxInput) }

// encodingFlag binds --encoding and returns the function that loads the
// tokenizer it names, or says which flag was wrong.
func encodingFlag(fs *flag.FlagSet) func() (*tokens.Tiktoken, error) {
	enc := fs.String("encoding", tokens.Default, "tiktoken encoding: cl100k_base, o200k_base or o200k_harmony (gpt-oss: its special tokens one token each)")
	return func() (*tokens.Tiktoken, error) {
		tk, err := tokens.New(*enc)
		if err != nil {
			return nil, fmt.Errorf("--encoding: %w", err)
		}
		return tk, nil
	}
}

// tokenizedText checks the --encoding flag of enc, then reads the leaf's
// input whole: a bad flag is reported before any input is read.
func (c *call) tokenizedText(enc func() (*tokens.Tiktoken, error)) (tk *tokens.Tiktoken, name, text string, err error) {
	if tk, err = enc(); err != nil {
		return nil, "", "", err
	}
	name, text, err = c.text()
	return tk, name, text, err
}

// failure is an error that exits 1: the input was fine, the work failed.
type failure struct{ error }

func (f failure) Unwrap() error { return f.error }

// toolText is a result printed as the text a model would see (Read, Grep),
// not as JSON; one that is the spec's "Error: …" text exits 1.
type toolText string

// plainText is a result printed as it is, with a final newline.
type plainText string

func (l leaf) run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet(l.name, l.synopsis, stderr)
	var maxInput *byteSize
	if l.input {
		maxInput = maxInputFlag(fs)
	}
	body := l.setup(fs.FlagSet)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return usageError(fs, stderr, err)
	}
	c := &call{args: pos, stdin: stdin}
	if maxInput != nil {
		c.maxInput = *maxInput
	}
	v, err := body(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "toolout %s: %v\n", l.name, err)
		if errors.As(err, new(failure)) {
			return exitFailed
		}
		return exitUsage
	}
	switch v := v.(type) {
	case jsonLines:
		return l.lines(v, stdout, stderr)
	case toolText:
		return printToolResult(stdout, string(v))
	case plainText:
		fmt.Fprintln(stdout, string(v))
		return exitOK
	}
	return writeJSON(stdout, stderr, v)
}

// lines runs a result printed as it is made (jsonLines), and reports its
// error as run does.
func (l leaf) lines(v jsonLines, stdout, stderr io.Writer) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	err := v(func(x any) error {
		if err := enc.Encode(x); err != nil {
			return failure{err}
		}
		return nil
	})
	if err != nil {
		fmt.Fprintf(stderr, "toolout %s: %v\n", l.name, err)
		if errors.As(err, new(failure)) {
			return exitFailed
		}
		return exitUsage
	}
	return exitOK
}

// A group is a command made of subcommands (schema, gateway, extract).
type group struct {
	name string
	subs []command
}

// run dispatches to the subcommand args[0] names; -h or --help (alone)
// prints the group's usage on stdout.
func (g group) run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var names []string
	for _, s := range g.subs {
		if len(args) > 0 && args[0] == s.name {
			return s.run(ctx, args[1:], stdin, stdout, stderr)
		}
		names = append(names, s.name)
	}
	if len(args) > 0 && isHelpFlag(args[0]) {
		w := helpWriter(stderr)
		fmt.Fprintf(w, "Usage: toolout %s SUBCOMMAND [ARGS]\n", g.name)
		if s := summaryOf(g.name); s != "" {
			fmt.Fprintf(w, "\n%s%s.\n", strings.ToUpper(s[:1]), s[1:])
		}
		fmt.Fprintln(w, "\nSubcommands:")
		for _, s := range g.subs {
			fmt.Fprintf(w, "  %-10s %s\n", s.name, s.summary)
		}
		fmt.Fprintf(w, "\nRun 'toolout help %s SUBCOMMAND' or 'toolout %s SUBCOMMAND --help' for its flags.\n", g.name, g.name)
		return exitOK
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "toolout %s: unknown subcommand %q: want %s\n", g.name, args[0], oneOf(names))
		return exitUsage
	}
	fmt.Fprintf(stderr, "toolout %s: want a subcommand: %s\n", g.name, oneOf(names))
	return exitUsage
}

// cmd makes a group a top-level command.
func (g group) cmd(summary string) command {
	return command{name: g.name, summary: summary, run: g.run, subs: g.subs}
}

// oneOf lists names as "a", "a or b", "a, b or c".
func oneOf(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// sub makes a leaf a group's subcommand, named by the last word of its name.
func (l leaf) sub() command {
	return command{name: l.name[strings.LastIndexByte(l.name, ' ')+1:], summary: l.summary, run: l.run}
}

// cmd makes a leaf a top-level command.
func (l leaf) cmd() command { return command{name: l.name, summary: l.summary, run: l.run} }

// writeJSON prints v as one line of JSON without HTML escaping.
func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "toolout: %v\n", err)
		return exitFailed
	}
	return exitOK
}
