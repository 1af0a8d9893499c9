package docscheck

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Run runs a shell block with bash (see shell) in dir, env its whole environment, and
// returns what each of its steps printed (stdout and stderr together): one
// output per Transcript step for a console block, the whole output as one
// for a sh block, which runs under `set -e` and is an error when it exits
// non-zero. The shell runs in a process group of its own, killed when ctx
// ends and when the block is done, so that no server a block started in
// the background outlives it.
func Run(ctx context.Context, b Block, dir string, env []string) ([]string, error) {
	script, marks, err := scriptOf(b)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, shell(), "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err = cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("docscheck: %s: %w; output so far:\n%s", b.Where(), ctx.Err(), out.String())
	}
	if marks == nil {
		if err != nil {
			return nil, fmt.Errorf("docscheck: %s: %w; output:\n%s", b.Where(), err, out.String())
		}
		return []string{out.String()}, nil
	}
	parts := marks.Split(out.String(), -1)
	return parts[:len(parts)-1], nil
}

// shell is the shell blocks run in: bash when it is on PATH, as the
// terminal a reader types them into most likely runs, and whose job
// specifications (kill %1, wait %2) work without job control, which sh
// (dash) refuses; else sh.
func shell() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
}

// scriptOf is the shell script of a block, and for a transcript the pattern
// of the marker printed after each step (nil for a sh block).
func scriptOf(b Block) (string, *regexp.Regexp, error) {
	if !b.Console() {
		return "set -e\n" + b.Text, nil, nil
	}
	steps, err := Transcript(b)
	if err != nil {
		return "", nil, err
	}
	mark := fmt.Sprintf("@@docscheck-%d@@", time.Now().UnixNano())
	var s strings.Builder
	s.WriteString("exec 2>&1\n")
	for _, st := range steps {
		s.WriteString(st.Command + "\n")
		fmt.Fprintf(&s, "printf '\\n%%s\\n' '%s'\n", mark)
	}
	return s.String(), regexp.MustCompile(`\n?` + regexp.QuoteMeta(mark) + `\n`), nil
}
