package docscheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Block is one fenced code block of a Markdown file.
type Block struct {
	File string // the file's name, as given to Blocks
	Line int    // the line of the opening fence, 1-based
	Info string // the info string's first word ("sh", "console", "yaml"); "" when none
	Text string // the lines between the fences, each ending in "\n"
}

// Shell reports whether the block is run as shell: its info string is sh,
// bash, shell or console.
func (b Block) Shell() bool {
	switch b.Info {
	case "sh", "bash", "shell", "console":
		return true
	}
	return false
}

// Console reports whether the block is a transcript ("$ " commands and
// their output) rather than commands only.
func (b Block) Console() bool { return b.Info == "console" }

// Where is the block's position, FILE:LINE.
func (b Block) Where() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

// notRun is the marker of a shell block that is shown but not run.
var notRun = regexp.MustCompile(`^(?:\$ )?#\s*docs: not run\b\s*(.*)$`)

// NotRun returns the reason a shell block is not run (the rest of its first
// line after "docs: not run") and true, or "" and false when it is run.
func (b Block) NotRun() (string, bool) {
	first, _, _ := strings.Cut(b.Text, "\n")
	m := notRun.FindStringSubmatch(strings.TrimSpace(first))
	if m == nil {
		return "", false
	}
	return strings.Trim(strings.TrimSpace(m[1]), "()"), true
}

// Blocks returns the fenced code blocks of a Markdown text, in order; file
// names them in each Block. A fence is three or more backticks or tildes at
// the start of a line (indented up to three spaces); the block ends at a
// fence of the same character at least as long. An unclosed block is an
// error naming its line.
func Blocks(file, text string) ([]Block, error) {
	var out []Block
	lines := strings.SplitAfter(text, "\n")
	for i := 0; i < len(lines); i++ {
		fence, info, ok := openFence(lines[i])
		if !ok {
			continue
		}
		b := Block{File: file, Line: i + 1, Info: info}
		var body strings.Builder
		closed := false
		for i++; i < len(lines); i++ {
			if closesFence(lines[i], fence) {
				closed = true
				break
			}
			body.WriteString(lines[i])
		}
		if !closed {
			return nil, fmt.Errorf("docscheck: %s: code block not closed", b.Where())
		}
		b.Text = body.String()
		if b.Text != "" && !strings.HasSuffix(b.Text, "\n") {
			b.Text += "\n"
		}
		out = append(out, b)
	}
	return out, nil
}

// openFence reads an opening fence: its fence string and the first word of
// its info string.
func openFence(line string) (fence, info string, ok bool) {
	s := strings.TrimRight(line, "\r\n")
	trimmed := strings.TrimLeft(s, " ")
	if len(s)-len(trimmed) > 3 || len(trimmed) < 3 {
		return "", "", false
	}
	c := trimmed[0]
	if c != '`' && c != '~' {
		return "", "", false
	}
	n := 0
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	rest := strings.TrimSpace(trimmed[n:])
	if c == '`' && strings.Contains(rest, "`") {
		return "", "", false
	}
	if f := strings.Fields(rest); len(f) > 0 {
		info = f[0]
	}
	return trimmed[:n], info, true
}

func closesFence(line, fence string) bool {
	s := strings.TrimSpace(line)
	if len(s) < len(fence) || s[0] != fence[0] {
		return false
	}
	return strings.Trim(s, string(fence[0])) == ""
}

// Link is one inline link or image of a Markdown file, outside code.
type Link struct {
	File   string
	Line   int
	Target string // as written: a path, a path#fragment, or #fragment
}

var (
	linkRE       = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	inlineCodeRE = regexp.MustCompile("`+[^`]*`+")
)

// Links returns the inline links and images of a Markdown text outside code
// blocks and code spans; a link's text may run over several lines, and its
// Line is the line of its target.
func Links(file, text string) []Link {
	lines := strings.Split(text, "\n")
	inCode, fence := false, ""
	for i, line := range lines {
		if !inCode {
			if f, _, ok := openFence(line); ok {
				inCode, fence = true, f
				lines[i] = ""
				continue
			}
			lines[i] = inlineCodeRE.ReplaceAllString(line, "")
			continue
		}
		if closesFence(line, fence) {
			inCode = false
		}
		lines[i] = ""
	}
	prose := strings.Join(lines, "\n")
	var out []Link
	for _, m := range linkRE.FindAllStringSubmatchIndex(prose, -1) {
		line := 1 + strings.Count(prose[:m[2]], "\n")
		out = append(out, Link{File: file, Line: line, Target: prose[m[2]:m[3]]})
	}
	return out
}

// Relative reports whether a link points inside the repository (not a URL).
func (l Link) Relative() bool {
	t := strings.ToLower(l.Target)
	return !strings.HasPrefix(t, "http://") && !strings.HasPrefix(t, "https://") && !strings.HasPrefix(t, "mailto:")
}

var headingRE = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)

// Anchors returns the anchors GitHub gives the headings of a Markdown text
// (outside code blocks): Anchor of each heading's text, a repeated one
// suffixed -1, -2, ...
func Anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	inCode, fence := false, ""
	for _, line := range strings.Split(text, "\n") {
		if !inCode {
			if f, _, ok := openFence(line); ok {
				inCode, fence = true, f
				continue
			}
		} else {
			if closesFence(line, fence) {
				inCode = false
			}
			continue
		}
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a := Anchor(m[1])
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// Anchor is the anchor GitHub derives from a heading's text: lower case,
// every character but letters, digits, spaces, hyphens and underscores
// dropped (the backticks of code spans too), spaces turned into hyphens.
func Anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
