package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"text/template"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core/mcpresult"
	"github.com/toolout/toolout/internal/yamlstrict"
)

// Text is a text input of a scenario. In YAML it is either a plain string (the
// text itself) or a mapping with exactly one of:
//
//	text: "inline text"
//	file: payload.json          # relative to the scenario file, inside its folder tree
//	generate: {lines: 1400, template: "ts={{.I}} host=web-{{mod .I 3}}"}
//	generate: {repeat: "ab", bytes: 65536}
//	mcp: {content: [{type: text, text: "…"}], structuredContent: {…}}   # an MCP tool result
//	mcp: {file: result.json}                                             # the same, as JSON in a file
//
// Generated lines are joined by "\n" with no trailing newline (set
// trailing_newline: true to add one), so `lines: N` gives a document of N
// lines as the store counts them. In a template, .I is the 0-based line number
// and .N the 1-based one; the functions are add, sub, mul, div, mod, pad
// (zero-padded decimal: pad 6 .I) and hex. A repeat is cut to exactly `bytes`
// bytes, backing off to a UTF-8 boundary. An mcp text is the tool result as
// core/mcpresult normalizes it, its _meta size hint in MaxChars (a session
// tool that answers with it takes the hint as its byte cap).
type Text struct {
	Value string
	// MaxChars is an mcp text's _meta size hint (0: none), and IsError its
	// isError: the tool that answers with it fails with the text.
	MaxChars int
	IsError  bool
	// Origin says where the text came from, for transcripts: "inline",
	// "file NAME" or "generated".
	Origin string
}

type textSpec struct {
	Text     *string        `yaml:"text"`
	File     string         `yaml:"file"`
	Generate *generate      `yaml:"generate"`
	MCP      map[string]any `yaml:"mcp"`
}

type generate struct {
	Lines           int    `yaml:"lines"`
	Template        string `yaml:"template"`
	Repeat          string `yaml:"repeat"`
	Bytes           int    `yaml:"bytes"`
	TrailingNewline bool   `yaml:"trailing_newline"`
}

// maxGenerated bounds generated inputs so that a typo cannot exhaust memory.
const maxGenerated = 256 << 20

// generateLimit is the bound in force: maxGenerated, lowered by the fuzz
// target so that one input cannot take seconds.
var generateLimit = maxGenerated

func (t *Text) decodeNode(d *decoder, n *yaml.Node) {
	if n.Kind == yaml.ScalarNode {
		t.Value, t.Origin = n.Value, "inline"
		if yamlstrict.IsNull(n) {
			t.Value = ""
		}
		return
	}
	var spec textSpec
	before := len(d.errs)
	d.decodeStruct(n, reflectValue(&spec), "text")
	if len(d.errs) > before {
		return
	}
	set := 0
	for _, b := range []bool{spec.Text != nil, spec.File != "", spec.Generate != nil, spec.MCP != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		d.errorf(n, "text: want exactly one of text, file, generate, mcp")
		return
	}
	switch {
	case spec.Text != nil:
		t.Value, t.Origin = *spec.Text, "inline"
	case spec.MCP != nil:
		_, mn := lookup(n, "mcp")
		n, origin, err := d.mcpText(spec.MCP)
		if err != nil {
			d.errorf(mn, "mcp: %v", err)
			return
		}
		t.Value, t.MaxChars, t.IsError, t.Origin = n.Text, n.MaxChars, n.IsError, origin
	case spec.File != "":
		v, err := d.readFile(spec.File)
		if err != nil {
			_, fn := lookup(n, "file")
			d.errorf(fn, "file: %v", err)
			return
		}
		t.Value, t.Origin = v, "file "+spec.File
	default:
		_, gn := lookup(n, "generate")
		v, err := spec.Generate.run()
		if err != nil {
			d.errorf(gn, "generate: %v", err)
			return
		}
		t.Value, t.Origin = v, "generated"
	}
}

// mcpText is the text a session sees of an MCP tool result (core/mcpresult),
// given inline as YAML or as {file: NAME}, a JSON file beside the scenario
// (what toolout import writes: the result byte for byte).
func (d *decoder) mcpText(m map[string]any) (n mcpresult.Normalized, origin string, err error) {
	var raw []byte
	origin = "mcp"
	if name, ok := m["file"].(string); ok && len(m) == 1 {
		v, err := d.readFile(name)
		if err != nil {
			return n, "", err
		}
		raw, origin = []byte(v), "mcp file "+name
	} else if raw, err = json.Marshal(m); err != nil {
		return n, "", fmt.Errorf("not a JSON value: %v", err)
	}
	r, err := mcpresult.Parse(raw)
	if err != nil {
		return n, "", err
	}
	return mcpresult.Normalize(r), origin, nil
}

// MaxPayloadBytes bounds a payload file (text: {file: NAME}).
const MaxPayloadBytes = 64 << 20

// readFile reads name relative to the scenario's folder; it refuses absolute
// paths and paths that climb out of it, anything but a regular file (a FIFO
// would block the load), checked before it is opened and again after an
// open that cannot block, and a file over MaxPayloadBytes.
func (d *decoder) readFile(name string) (string, error) {
	if filepath.IsAbs(name) || !filepath.IsLocal(name) {
		return "", fmt.Errorf("%q: want a path relative to the scenario's folder, inside it", Clip(name))
	}
	path := filepath.Join(d.dir, name)
	fail := func(err error) (string, error) { return "", fmt.Errorf("%q: %w", Clip(name), unwrapPath(err)) }
	info, err := os.Stat(path)
	if err != nil {
		return fail(err)
	}
	if err := regular(info.Mode()); err != nil {
		return fail(err)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if info, err = f.Stat(); err == nil {
		err = regular(info.Mode())
	}
	if err != nil {
		return fail(err)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxPayloadBytes+1))
	switch {
	case err != nil:
		return fail(err)
	case len(b) > MaxPayloadBytes:
		return fail(fmt.Errorf("over %d bytes; generate a payload this large (generate:)", MaxPayloadBytes))
	}
	return string(b), nil
}

// regular is nil for a regular file's mode, else what the file is.
func regular(mode fs.FileMode) error {
	switch {
	case mode.IsRegular():
		return nil
	case mode&fs.ModeNamedPipe != 0:
		return errors.New("a named pipe (FIFO), not a regular file")
	case mode.IsDir():
		return errors.New("a directory, not a regular file")
	}
	return errors.New("not a regular file")
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

var genFuncs = template.FuncMap{
	"add": func(a, b int) int { return a + b },
	"sub": func(a, b int) int { return a - b },
	"mul": func(a, b int) int { return a * b },
	"div": func(a, b int) (int, error) {
		if b == 0 {
			return 0, fmt.Errorf("div by zero")
		}
		return a / b, nil
	},
	"mod": func(a, b int) (int, error) {
		if b == 0 {
			return 0, fmt.Errorf("mod by zero")
		}
		return a % b, nil
	},
	"pad": func(width, v int) string { return fmt.Sprintf("%0*d", width, v) },
	"hex": func(v int) string { return fmt.Sprintf("%x", v) },
}

func (g *generate) run() (string, error) {
	switch {
	case g.Repeat != "" && g.Template != "":
		return "", fmt.Errorf("want either template (with lines) or repeat (with bytes)")
	case g.Repeat != "":
		if g.Bytes <= 0 || g.Bytes > generateLimit {
			return "", fmt.Errorf("bytes %d: want 1 to %d", g.Bytes, generateLimit)
		}
		s := strings.Repeat(g.Repeat, g.Bytes/len(g.Repeat)+1)[:g.Bytes]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		if g.TrailingNewline {
			s += "\n"
		}
		return s, nil
	case g.Template != "":
		if g.Lines <= 0 || g.Lines > generateLimit {
			// More lines than bytes allowed could never fit: each adds a "\n".
			return "", fmt.Errorf("lines %d: want 1 to %d", g.Lines, generateLimit)
		}
		tmpl, err := template.New("line").Funcs(genFuncs).Option("missingkey=error").Parse(g.Template)
		if err != nil {
			return "", fmt.Errorf("template: %w", err)
		}
		var b strings.Builder
		for i := range g.Lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			if err := tmpl.Execute(&b, struct{ I, N int }{i, i + 1}); err != nil {
				return "", fmt.Errorf("template, line %d: %w", i+1, err)
			}
			if b.Len() > generateLimit {
				return "", fmt.Errorf("more than %d bytes generated", generateLimit)
			}
		}
		if g.TrailingNewline {
			b.WriteByte('\n')
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("want template (with lines) or repeat (with bytes)")
}
