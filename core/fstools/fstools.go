package fstools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// The spec's numbers (section 3.3).
const (
	MaxTokens     = 25000
	CharsPerToken = 4
)

// DefaultMaxResults is Grep's max_results when none is given.
const DefaultMaxResults = 100

// MaxLineBytes is the most of one line Grep prints: a longer matching line
// is cut to this many bytes around its first match, a longer context line to
// its first bytes, and the listing says so.
const MaxLineBytes = 4096

// outBudget is the size in bytes of the smallest text estimated over
// MaxTokens: Read and Grep never hold more of an answer than this.
const outBudget = (MaxTokens + 1) * CharsPerToken

// grepBuffer is the size of Grep's read buffer: a line that fits is matched
// in place, a longer one is streamed through the regular expression.
const grepBuffer = 64 << 10

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
	root    *os.Root
	dir     string
	grepBuf int // Grep's read buffer; zero means grepBuffer
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

// notRegular is the error for a path that names something other than a
// regular file or, for Grep, a directory.
func notRegular(p string, mode fs.FileMode, tool string) error {
	what := "not a regular file"
	switch {
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	case mode&fs.ModeCharDevice != 0:
		what = "a character device"
	case mode&fs.ModeDevice != 0:
		what = "a block device"
	case mode.IsDir():
		what = "a directory"
	}
	does := "Read reads regular files only"
	if tool == GrepName {
		does = "Grep searches regular files and directories"
	}
	return fmt.Errorf("path %s: is %s, not a regular file; %s", quoted(p), what, does)
}

// openRegular opens name, which Stat found to be a regular file, for
// reading. The open cannot block (O_NONBLOCK: a FIFO put in the file's place
// since Stat opens at once) and the opened file is checked again, so nothing
// but a regular file is ever read. given is the path as the caller gave it.
func (f *FS) openRegular(name, given, tool string) (*os.File, error) {
	file, err := f.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, explain(given, err)
	}
	info, err := file.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = notRegular(given, info.Mode(), tool)
	} else if err != nil {
		err = explain(given, err)
	}
	if err != nil {
		file.Close()
		return nil, err
	}
	return file, nil
}
