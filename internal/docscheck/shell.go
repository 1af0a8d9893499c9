package docscheck

import (
	"fmt"
	"strings"
)

// Step is one command of a transcript and the output shown for it.
type Step struct {
	Line    int      // the command's line in the file, 1-based
	Command string   // the command without its "$ ", continuation lines joined by "\n"
	Want    []string // the lines shown after it
}

// Transcript splits a console block into its steps. Lines before the first
// command are an error (a transcript starts with "$ ").
func Transcript(b Block) ([]Step, error) {
	var steps []Step
	lines := strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(line, "$ ") && line != "$" {
			if len(steps) == 0 {
				return nil, fmt.Errorf("docscheck: %s:%d: a transcript starts with a command (\"$ ...\"), got %q", b.File, b.Line+1+i, line)
			}
			steps[len(steps)-1].Want = append(steps[len(steps)-1].Want, line)
			continue
		}
		st := Step{Line: b.Line + 1 + i, Command: strings.TrimPrefix(strings.TrimPrefix(line, "$"), " ")}
		for Incomplete(st.Command) && i+1 < len(lines) {
			i++
			st.Command += "\n" + lines[i]
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// Commands splits a sh block into its commands, one per line but for lines
// continued by a backslash or an open quote; blank and comment lines are
// left out. line is the block's first line in the file.
func Commands(b Block) []Step {
	var out []Step
	lines := strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		s := strings.TrimSpace(lines[i])
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		st := Step{Line: b.Line + 1 + i, Command: lines[i]}
		for Incomplete(st.Command) && i+1 < len(lines) {
			i++
			st.Command += "\n" + lines[i]
		}
		out = append(out, st)
	}
	return out
}

// Incomplete reports whether a shell command goes on at the next line: it
// ends with a backslash, or leaves a single or double quote open.
func Incomplete(cmd string) bool {
	if strings.HasSuffix(cmd, "\\") {
		return true
	}
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || cmd[i-1] == ' ' || cmd[i-1] == '\t' || cmd[i-1] == '\n'):
			for i < len(cmd) && cmd[i] != '\n' {
				i++
			}
		}
	}
	return quote != 0
}

// Invocations returns the argument lists of every toolout command in a
// shell command: each simple command (split at |, ||, &, &&, ; and new
// lines, redirections and leading VAR=value assignments dropped) whose
// program is `toolout` (or `go tool toolout`), its arguments after the
// program name, quotes removed. Words built by $(...) or `...` stay as
// written; they are not expanded.
func Invocations(cmd string) [][]string {
	var out [][]string
	for _, words := range simpleCommands(cmd) {
		for len(words) > 0 && isAssignment(words[0]) {
			words = words[1:]
		}
		switch {
		case len(words) > 0 && words[0] == "toolout":
			out = append(out, words[1:])
		case len(words) > 2 && words[0] == "go" && words[1] == "tool" && words[2] == "toolout":
			out = append(out, words[3:])
		}
	}
	return out
}

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// simpleCommands lexes cmd into its simple commands' words.
func simpleCommands(cmd string) [][]string {
	var (
		out   [][]string
		words []string
		word  strings.Builder
		inW   bool
		redir bool // the next word is a redirection's target
	)
	endWord := func() {
		if !inW {
			return
		}
		if redir {
			redir = false
		} else {
			words = append(words, word.String())
		}
		word.Reset()
		inW = false
	}
	endCmd := func() {
		endWord()
		if len(words) > 0 {
			out = append(out, words)
		}
		words = nil
	}
	for i := 0; i < len(cmd); i++ {
		if text, last, ok := quotedAt(cmd, i); ok {
			word.WriteString(text)
			i, inW = last, true
			continue
		}
		c := cmd[i]
		switch {
		case c == '\\' && i+1 < len(cmd):
			i++
			if cmd[i] != '\n' {
				word.WriteByte(cmd[i])
				inW = true
			}
		case c == '#' && !inW:
			for i < len(cmd) && cmd[i] != '\n' {
				i++
			}
			endCmd()
		case c == ' ' || c == '\t':
			endWord()
		case c == '\n' || c == ';' || c == '|' || c == '&':
			endCmd()
			if c == '&' && i+1 < len(cmd) && cmd[i+1] == '>' { // &> FILE
				i++
				redir = true
			}
		case c == '>' || c == '<':
			if inW && isDigits(word.String()) { // 2> FILE
				word.Reset()
				inW = false
			} else {
				endWord()
			}
			for i+1 < len(cmd) && (cmd[i+1] == '>' || cmd[i+1] == '&') {
				i++
			}
			if cmd[i] == '&' && i+1 < len(cmd) && cmd[i+1] >= '0' && cmd[i+1] <= '9' { // 2>&1
				i++
				continue
			}
			redir = true
		default:
			word.WriteByte(c)
			inW = true
		}
	}
	endCmd()
	return out
}

// quotedAt reads the quoted piece of a word that starts at cmd[i] ('…',
// "…", $(…) or `…`, unclosed ones running to the end): its text as the
// word holds it and the index of its last byte; ok is false at any other
// byte.
func quotedAt(cmd string, i int) (text string, last int, ok bool) {
	switch c := cmd[i]; {
	case c == '\'':
		j := strings.IndexByte(cmd[i+1:], '\'')
		if j < 0 {
			j = len(cmd) - i - 1
		}
		return cmd[i+1 : i+1+j], i + j + 1, true
	case c == '"':
		j := i + 1
		for j < len(cmd) && cmd[j] != '"' {
			if cmd[j] == '\\' && j+1 < len(cmd) {
				j++
			}
			j++
		}
		return strings.ReplaceAll(cmd[i+1:min(j, len(cmd))], `\"`, `"`), j, true
	case c == '$' && i+1 < len(cmd) && cmd[i+1] == '(':
		j := matchParen(cmd, i+1)
		return cmd[i:j], j - 1, true
	case c == '`':
		j := strings.IndexByte(cmd[i+1:], '`')
		if j < 0 {
			return cmd[i:], len(cmd) - 1, true
		}
		return cmd[i : i+2+j], i + j + 1, true
	}
	return "", i, false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// matchParen returns the index just past the parenthesis that closes the
// one at open (quotes inside are skipped), or len(s).
func matchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\'':
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		}
	}
	return len(s)
}
