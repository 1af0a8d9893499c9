package mcpresult

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// Result is an MCP CallToolResult.
type Result struct {
	Content           []Block                    `json:"content"`
	StructuredContent json.RawMessage            `json:"structuredContent,omitempty"`
	IsError           bool                       `json:"isError,omitempty"`
	Meta              map[string]json.RawMessage `json:"_meta,omitempty"`
}

// Block is one content block: text, image, audio, resource or
// resource_link (the fields of each type; others stay empty).
type Block struct {
	Type        string    `json:"type"`
	Text        string    `json:"text,omitempty"`
	Data        string    `json:"data,omitempty"` // base64: image, audio
	MimeType    string    `json:"mimeType,omitempty"`
	Resource    *Resource `json:"resource,omitempty"` // resource
	URI         string    `json:"uri,omitempty"`      // resource_link
	Name        string    `json:"name,omitempty"`
	Title       string    `json:"title,omitempty"`
	Description string    `json:"description,omitempty"`
	Size        *int64    `json:"size,omitempty"`
}

// Resource is an embedded resource: a text or a base64 blob.
type Resource struct {
	URI      string  `json:"uri"`
	MimeType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"`
}

// Normalized is a result as the session stores it.
type Normalized struct {
	Text string
	// MaxChars is the tool's own limit from _meta (0: none).
	MaxChars int
	// Deduplicated says a text block stood for structuredContent, which was
	// left out.
	Deduplicated bool
	// Binary is how many image, audio and blob blocks were replaced by a line.
	Binary  int
	IsError bool
}

// SizeHintKey is the _meta member that carries a tool's own size limit.
const SizeHintKey = "anthropic/maxResultSizeChars"

// maxCompare is the longest text block parsed to compare it with
// structuredContent.
const maxCompare = 16 << 20

// Parse reads a CallToolResult.
func Parse(data []byte) (Result, error) {
	var r Result
	err := json.Unmarshal(data, &r)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return Result{}, fmt.Errorf("mcp result: invalid JSON at byte %d: %s", se.Offset, se.Error())
	case errors.As(err, &te):
		return Result{}, fmt.Errorf("mcp result: byte %d: %s: want a %s, got a %s", te.Offset, member(te.Field), te.Type, te.Value)
	case err != nil:
		return Result{}, fmt.Errorf("mcp result: %w", err)
	}
	return r, nil
}

// member names a field path of encoding/json's ("content.text") as the
// result's member, or "the result".
func member(field string) string {
	if field == "" {
		return "the result"
	}
	return field
}

// Normalize renders r (see the package doc).
func Normalize(r Result) Normalized {
	n := Normalized{IsError: r.IsError, MaxChars: sizeHint(r.Meta)}
	var parts []string
	var sc any
	hasSC := len(bytes.TrimSpace(r.StructuredContent)) > 0 && !bytes.Equal(bytes.TrimSpace(r.StructuredContent), []byte("null"))
	if hasSC {
		sc, hasSC = decode(r.StructuredContent)
	}
	for _, b := range r.Content {
		line, binary := render(b)
		if binary {
			n.Binary++
		}
		if hasSC && !n.Deduplicated && b.Type == "text" && sameJSON(b.Text, sc) {
			n.Deduplicated = true
		}
		parts = append(parts, line)
	}
	if hasSC && !n.Deduplicated {
		var buf bytes.Buffer
		if json.Compact(&buf, r.StructuredContent) == nil {
			parts = append(parts, buf.String())
		}
	}
	n.Text = strings.Join(parts, "\n")
	return n
}

// render is one block's text, and whether it stands for binary data.
func render(b Block) (string, bool) {
	switch b.Type {
	case "text":
		return b.Text, false
	case "image", "audio":
		return fmt.Sprintf("[%s: %s, %d bytes]", b.Type, orUnknown(b.MimeType), decodedLen(b.Data)), true
	case "resource":
		if b.Resource == nil {
			return "[resource]", false
		}
		if b.Resource.Text != nil {
			return fmt.Sprintf("[resource: %s, %s]\n%s", b.Resource.URI, orUnknown(b.Resource.MimeType), *b.Resource.Text), false
		}
		blob := ""
		if b.Resource.Blob != nil {
			blob = *b.Resource.Blob
		}
		return fmt.Sprintf("[resource: %s, %s, %d bytes]", b.Resource.URI, orUnknown(b.Resource.MimeType), decodedLen(blob)), true
	case "resource_link":
		return link(b), false
	}
	return fmt.Sprintf("[%s block]", strconv.Quote(b.Type)), false
}

// link is a resource_link's pointer line, with the fields it has.
func link(b Block) string {
	s := "[resource_link uri=" + strconv.Quote(b.URI)
	for _, f := range []struct{ k, v string }{{"name", b.Name}, {"title", b.Title}, {"mimeType", b.MimeType}, {"description", b.Description}} {
		if f.v != "" {
			s += " " + f.k + "=" + strconv.Quote(f.v)
		}
	}
	if b.Size != nil {
		s += " size=" + strconv.FormatInt(*b.Size, 10)
	}
	return s + "]"
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// decodedLen is the size of the bytes base64 data stands for.
func decodedLen(data string) int {
	data = strings.TrimRight(data, "=")
	return base64.RawStdEncoding.DecodedLen(len(data))
}

// sizeHint reads the tool's size limit from _meta.
func sizeHint(meta map[string]json.RawMessage) int {
	raw, ok := meta[SizeHintKey]
	if !ok {
		return 0
	}
	v, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 0)
	if err != nil || v <= 0 {
		return 0
	}
	return int(v)
}

// decode is the one JSON value raw holds, for comparison (numbers as
// normalizeNumbers makes them).
func decode(raw []byte) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false // more after the value
	}
	return normalizeNumbers(v), true
}

// sameJSON reports whether text parses to the JSON value v.
func sameJSON(text string, v any) bool {
	t := strings.TrimSpace(text)
	if len(t) > maxCompare || t == "" {
		return false
	}
	w, ok := decode([]byte(t))
	return ok && reflect.DeepEqual(w, v)
}

// normalizeNumbers makes numbers comparable: an integer by its digits
// (exactly, however long), any other number by its float64 value (1.5 and
// 15e-1 are one number). An integer and a fraction never compare equal
// (1 and 1.0 keep both texts): the rule errs on keeping.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			return string(x)
		}
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			return f
		}
		return string(x)
	case []any:
		for i := range x {
			x[i] = normalizeNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeNumbers(x[k])
		}
	}
	return v
}
