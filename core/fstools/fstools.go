package fstools

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The spec's numbers (section 3.3).
const (
	MaxTokens     = 25000
	CharsPerToken = 4
)

// DefaultMaxResults is Grep's max_results when none is given.
const DefaultMaxResults = 100

// ErrRefused is wrapped by every error about a path that may not be used.
var ErrRefused = errors.New("refused")

// FileTooLarge is the spec's Read error for a file of ~tokens tokens.
func FileTooLarge(tokens int) string {
	return fmt.Sprintf("Error: File content (~%d tokens) exceeds maximum allowed tokens (%d). "+
		"Please use offset and limit parameters to read specific portions of the file, "+
		"or use grep_content to search for specific content.", tokens, MaxTokens)
}

// CommandTooLarge is the spec's error for shell output of ~tokens tokens.
func CommandTooLarge(tokens int) string {
	return fmt.Sprintf("Error: Command output (~%d tokens) exceeds maximum allowed. "+
		"Please pipe output through head/tail/grep, or redirect to a file and read specific portions.", tokens)
}

// SearchTooLarge is the spec's error for grep results of ~tokens tokens.
func SearchTooLarge(tokens int) string {
	return fmt.Sprintf("Error: Search returned ~%d tokens of matches. "+
		"Please use a more specific pattern or limit results with max_results parameter.", tokens)
}

// WindowTooLarge is Read's error for a requested window of ~tokens tokens
// (the spec is silent; see the package documentation).
func WindowTooLarge(tokens, offset, limit int) string {
	return fmt.Sprintf("Error: Lines %d to %d (~%d tokens) exceed maximum allowed tokens (%d). "+
		"Please use a smaller limit, or use grep_content to search for specific content.", offset, offset+limit-1, tokens, MaxTokens)
}

// Estimate is the spec's token estimate: bytes / 4, rounded down.
func Estimate(bytes int64) int { return int(bytes / CharsPerToken) }

// CheckCommandOutput returns the spec's error text and true when output is
// estimated over MaxTokens, else output and false.
func CheckCommandOutput(output string) (string, bool) {
	if t := Estimate(int64(len(output))); t > MaxTokens {
		return CommandTooLarge(t), true
	}
	return output, false
}

// CheckPath validates a path lexically and returns it cleaned ("." for the
// root). See the package documentation for the rules.
func CheckPath(p string) (string, error) {
	refuse := func(why string) (string, error) {
		return "", fmt.Errorf("path %s: %w: %s", quoted(p), ErrRefused, why)
	}
	switch {
	case p == "":
		return refuse("empty path")
	case strings.IndexByte(p, 0) >= 0:
		return refuse("it contains a NUL byte")
	case strings.HasPrefix(p, "/"):
		return refuse("absolute paths are not allowed; give a path relative to the root")
	case len(p) >= 2 && p[1] == ':' && (p[0]|0x20) >= 'a' && (p[0]|0x20) <= 'z':
		return refuse("absolute Windows paths are not allowed; give a path relative to the root")
	case strings.IndexByte(p, '\\') >= 0:
		return refuse(`backslashes are not path separators here; use "/"`)
	}
	for rest := p; rest != ""; {
		var elem string
		if elem, rest, _ = strings.Cut(rest, "/"); elem == ".." {
			return refuse(`".." is not allowed; paths stay under the root`)
		}
	}
	return path.Clean(p), nil
}

// quoted is p quoted for a message; a path over 256 bytes is cut there (not
// inside a UTF-8 character) and its length given, so that a huge path
// argument is not echoed back whole.
func quoted(p string) string {
	const most = 256
	if len(p) <= most {
		return strconv.Quote(p)
	}
	cut := most // back to the start of a character cut in two, if it is one
	for i := most; i > most-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			cut = i
			break
		}
	}
	return fmt.Sprintf("%q… (%d bytes)", p[:cut], len(p))
}

// FS is a directory tree that Read and Grep may see. It is safe for
// concurrent use.
type FS struct {
	root *os.Root
	dir  string
}

// Open opens dir as the root.
func Open(dir string) (*FS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("fstools: open root: %w", err)
	}
	return &FS{root: r, dir: dir}, nil
}

// Dir returns the root directory as given to Open.
func (f *FS) Dir() string { return f.dir }

// Close releases the root.
func (f *FS) Close() error { return f.root.Close() }

// explain rewrites file-system errors into messages that name the path as
// the caller gave it.
func explain(p string, err error) error {
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes"):
		return fmt.Errorf("path %s: %w: it resolves outside the root through a symbolic link", quoted(p), ErrRefused)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("path %s: no such file under the root", quoted(p))
	case errors.As(err, &pe):
		return fmt.Errorf("path %s: %v", quoted(p), pe.Err)
	}
	return fmt.Errorf("path %s: %w", quoted(p), err)
}

// ReadParams are Read's arguments.
type ReadParams struct {
	Path string `json:"path"`
	// Offset is the first line, 0-based.
	Offset int `json:"offset"`
	// Limit is the number of lines; nil means to the end.
	Limit *int `json:"limit"`
}

// Read returns the selected lines of a file, or the spec's error text when it
// is too large to read whole. Errors are for bad arguments and paths.
func (f *FS) Read(p ReadParams) (string, error) {
	clean, err := CheckPath(p.Path)
	if err != nil {
		return "", err
	}
	switch {
	case p.Offset < 0:
		return "", fmt.Errorf("offset %d: must be 0 or more (a 0-based line index)", p.Offset)
	case p.Limit != nil && *p.Limit < 1:
		return "", fmt.Errorf("limit %d: must be 1 or more (a number of lines)", *p.Limit)
	}
	info, err := f.root.Stat(clean)
	if err != nil {
		return "", explain(p.Path, err)
	}
	if info.IsDir() {
		return "", fmt.Errorf("path %s: is a directory; Read takes a file (Grep searches directories)", quoted(p.Path))
	}
	if t := Estimate(info.Size()); t > MaxTokens && p.Limit == nil {
		return FileTooLarge(t), nil
	}
	file, err := f.root.Open(clean)
	if err != nil {
		return "", explain(p.Path, err)
	}
	defer file.Close()
	if p.Offset == 0 && p.Limit == nil {
		// Bounded, in case the file grew since Stat.
		data, err := io.ReadAll(io.LimitReader(file, (MaxTokens+1)*CharsPerToken))
		if err != nil {
			return "", explain(p.Path, err)
		}
		if t := Estimate(int64(len(data))); t > MaxTokens {
			return FileTooLarge(t), nil
		}
		return string(data), nil
	}
	br := bufio.NewReader(file)
	var out bytes.Buffer
	window := int64(0) // bytes of the window, counted on after out stops growing
	line := 0
	for {
		if p.Limit != nil && line >= p.Offset+*p.Limit {
			break
		}
		b, err := br.ReadSlice('\n')
		if line >= p.Offset {
			window += int64(len(b))
			if Estimate(window) <= MaxTokens {
				out.Write(b)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the rest of a long line
		}
		if len(b) > 0 {
			line++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", explain(p.Path, err)
		}
	}
	if line <= p.Offset {
		return fmt.Sprintf("(no lines: offset %d is past the end of %s, which has %d lines)", p.Offset, clean, line), nil
	}
	if t := Estimate(window); t > MaxTokens {
		if p.Limit == nil {
			return FileTooLarge(t), nil // the file grew since Stat
		}
		return WindowTooLarge(t, p.Offset, *p.Limit), nil
	}
	return out.String(), nil
}

// GrepParams are Grep's arguments.
type GrepParams struct {
	// Pattern is a Go (RE2) regular expression.
	Pattern string `json:"pattern"`
	// Path is a file or directory; empty means the root.
	Path string `json:"path"`
	// Context is the number of lines shown before and after each match.
	Context int `json:"context"`
	// MaxResults bounds the matching lines listed; zero means
	// DefaultMaxResults.
	MaxResults int `json:"max_results"`
}

// Grep lists the lines matching a pattern, or the spec's error text when the
// listing is too large. Errors are for bad arguments and paths.
func (f *FS) Grep(p GrepParams) (string, error) {
	if p.Pattern == "" {
		return "", errors.New("pattern is required")
	}
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		return "", fmt.Errorf("pattern %q: %v", p.Pattern, err)
	}
	if p.Path == "" {
		p.Path = "."
	}
	clean, err := CheckPath(p.Path)
	if err != nil {
		return "", err
	}
	switch {
	case p.Context < 0:
		return "", fmt.Errorf("context %d: must be 0 or more", p.Context)
	case p.MaxResults < 0:
		return "", fmt.Errorf("max_results %d: must be 1 or more", p.MaxResults)
	case p.MaxResults == 0:
		p.MaxResults = DefaultMaxResults
	}
	info, err := f.root.Stat(clean)
	if err != nil {
		return "", explain(p.Path, err)
	}
	files := []string{clean}
	if info.IsDir() {
		if files, err = f.regularFiles(clean, nil); err != nil {
			return "", explain(p.Path, err)
		}
	}
	g := grepper{re: re, context: p.Context, max: p.MaxResults, prefix: info.IsDir()}
	for _, name := range files {
		if err := g.file(f.root, name); err != nil {
			return "", explain(name, err)
		}
	}
	if g.matches == 0 {
		return fmt.Sprintf("No matches for %q in %s.", p.Pattern, clean), nil
	}
	if g.matches > g.max {
		fmt.Fprintf(&g.out, "(%d of %d matching lines shown: raise max_results or use a more specific pattern)\n", g.max, g.matches)
	}
	if t := Estimate(int64(g.out.Len())); t > MaxTokens {
		return SearchTooLarge(t), nil
	}
	return g.out.String(), nil
}

// regularFiles appends the regular files under dir, in lexical order, to
// files. It walks through the root itself rather than fs.WalkDir over
// root.FS(): that FS refuses names that are not valid UTF-8, which a file
// system holds as any other bytes. Symbolic links are not followed.
func (f *FS) regularFiles(dir string, files []string) ([]string, error) {
	d, err := f.root.Open(dir)
	if err != nil {
		return nil, err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		name := path.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if files, err = f.regularFiles(name, files); err != nil {
				return nil, err
			}
		case e.Type().IsRegular():
			files = append(files, name)
		}
	}
	return files, nil
}

type grepper struct {
	re      *regexp.Regexp
	context int
	max     int
	prefix  bool

	out     bytes.Buffer
	matches int
	printed bool // something printed, so a new group needs "--"
}

func (g *grepper) file(root *os.Root, name string) error {
	file, err := root.Open(name)
	if err != nil {
		return err
	}
	defer file.Close()
	br := bufio.NewReader(file)
	type held struct {
		n    int
		text string
	}
	var before []held // the last context lines not yet printed
	lastPrinted := 0  // line number of the last printed line in this file
	after := 0        // context lines still to print after a match
	emit := func(n int, text string, sep byte) {
		if g.context > 0 && g.printed && (lastPrinted == 0 || n > lastPrinted+1) {
			g.out.WriteString("--\n") // a new group, as grep -C prints
		}
		if g.prefix {
			g.out.WriteString(name)
			g.out.WriteByte(sep)
		}
		fmt.Fprintf(&g.out, "%d%c%s\n", n, sep, text)
		g.printed, lastPrinted = true, n
	}
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if line == "" && err == io.EOF {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		text := strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		switch {
		case g.re.MatchString(text):
			g.matches++
			if g.matches <= g.max {
				for _, h := range before {
					emit(h.n, h.text, '-')
				}
				before = before[:0]
				emit(n, text, ':')
				after = g.context
			}
		case after > 0 && g.matches <= g.max:
			emit(n, text, '-')
			after--
		case g.context > 0:
			before = append(before, held{n, text})
			if len(before) > g.context {
				before = before[1:]
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}
