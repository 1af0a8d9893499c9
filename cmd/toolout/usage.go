package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// The help contract, kept here once for every command of the table:
//
//   - `toolout help`, `toolout -h` and `toolout --help` print the general
//     help on stdout and exit 0; `toolout` alone prints it on stderr and
//     exits 2 (a command was expected);
//   - `toolout CMD -h`, `toolout CMD --help` (and -help) print CMD's usage
//     on stdout and exit 0, for every command, group and group member
//     (`toolout bench strategies --help`), wherever the flag stands;
//   - `toolout help CMD [SUB]` prints exactly the same, and names an
//     unknown command with exit 2.
//
// run hands every command a stderr that carries stdout (console), and
// newFlagSet prints a requested help there, so that the commands need no
// help code of their own.

// isHelpFlag reports whether arg asks for help as the flag package reads
// it: -h, -help, --h or --help.
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "--h" || arg == "-help" || arg == "--help"
}

// run is the whole program run as "toolout" (on PATH); main runs runAs.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runAs(ctx, "toolout", args, stdin, stdout, stderr)
}

// runAs is the whole program; main only wires it to the process. self is
// the command that runs the program where the user stands (self.go), which
// every hint names.
func runAs(ctx context.Context, self string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr, self)
		return exitUsage
	}
	if isHelpFlag(args[0]) {
		usage(stdout, self)
		return exitOK
	}
	if isVersionFlag(args[0]) {
		args = append([]string{"version"}, args[1:]...)
	}
	con := console{Writer: stderr, stdout: stdout, self: self}
	if args[0] == "help" {
		return runHelp(ctx, args[1:], stdout, con)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdin, stdout, con)
		}
	}
	fmt.Fprintf(stderr, "toolout: unknown command %q (run '%s help')\n", args[0], self)
	return exitUsage
}

// runHelp is `toolout help [CMD [SUB]]`: the general help, or the command's
// own usage, printed by running it with --help.
func runHelp(ctx context.Context, path []string, stdout io.Writer, stderr console) int {
	if len(path) == 0 || len(path) == 1 && path[0] == "help" {
		usage(stdout, stderr.self)
		return exitOK
	}
	c, ok := lookupCommand(commands(), path)
	if !ok {
		fmt.Fprintf(stderr, "toolout help: unknown command %q (run '%s help')\n", strings.Join(path, " "), stderr.self)
		return exitUsage
	}
	return c.run(ctx, []string{"--help"}, strings.NewReader(""), stdout, stderr)
}

// lookupCommand finds the command a path of names ("bench", "strategies")
// names in cmds, through groups.
func lookupCommand(cmds []command, path []string) (command, bool) {
	for _, c := range cmds {
		if c.name != path[0] {
			continue
		}
		if len(path) == 1 {
			return c, true
		}
		return lookupCommand(c.subs, path[1:])
	}
	return command{}, false
}

// summaryOf returns the summary of the command named name ("schema
// summarize"), or "".
func summaryOf(name string) string {
	c, ok := lookupCommand(commands(), strings.Fields(name))
	if !ok {
		return ""
	}
	return c.summary
}

// usage prints the general help; its closing hint names the program as
// self.
func usage(w io.Writer, self string) {
	fmt.Fprintln(w, "toolout: handle tool output that is too big or malformed, and test it deterministically.")
	fmt.Fprintln(w, "\nUsage: toolout COMMAND [ARGS]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun '%s help COMMAND' or '%s COMMAND --help' for a command's usage and flags.\n", self, self)
}

// console is the stderr run hands each command: it writes to stderr, and
// carries stdout, where a flag set prints the help the user asked for.
type console struct {
	io.Writer
	stdout io.Writer
	self   string // the command that runs the program (runAs)
}

// selfOf is the command that runs the program as the hints written to
// stderr name it: run's console carries it; elsewhere it is "toolout".
func selfOf(stderr io.Writer) string {
	if c, ok := stderr.(console); ok && c.self != "" {
		return c.self
	}
	return "toolout"
}

// helpWriter is where a command prints requested help: stdout when stderr
// is run's console, else stderr itself.
func helpWriter(stderr io.Writer) io.Writer {
	if c, ok := stderr.(console); ok {
		return c.stdout
	}
	return stderr
}

// parseFlags parses fs from args, allowing flags and positional arguments to
// be interleaved ("toolout test scenarios --run x"). A lone "--" ends flags.
func parseFlags(fs *flagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagSet is a subcommand's flags and its full usage, printed for -h only.
type flagSet struct {
	*flag.FlagSet
	help func()
}

// newFlagSet returns a flag set whose errors usageError reports in one
// line, and whose usage (synopsis, summary, flags) -h and --help print on
// stdout (helpWriter).
func newFlagSet(name, synopsis string, stderr io.Writer) *flagSet {
	fs := flag.NewFlagSet("toolout "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{fs, func() {
		w := helpWriter(stderr)
		fmt.Fprintln(w, strings.TrimSpace("Usage: toolout "+name+" "+synopsis))
		if s := summaryOf(name); s != "" {
			fmt.Fprintf(w, "\n%s%s.\n", strings.ToUpper(s[:1]), s[1:])
		}
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n == 0 {
			return
		}
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}}
}

// usageError reports a flag problem in one line, exit 2; -h and --help
// print the usage on stdout and succeed. An unknown flag ends with where
// the command's flags are listed, "(run 'toolout CMD --help')", as an
// unknown command ends with "(run 'toolout help')"; both name the program
// as the user ran it (selfOf: "go tool toolout CMD --help", ...).
func usageError(fs *flagSet, stderr io.Writer, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		fs.help()
		return exitOK
	}
	hint := ""
	if strings.HasPrefix(err.Error(), "flag provided but not defined: ") {
		hint = fmt.Sprintf(" (run '%s %s --help')", selfOf(stderr), strings.TrimPrefix(fs.Name(), "toolout "))
	}
	fmt.Fprintf(stderr, "%s: %v%s\n", fs.Name(), err, hint)
	return exitUsage
}

// parseLabelFilter is Ginkgo's label filter parser with a plain one-line
// error: Ginkgo formats its syntax errors for a terminal (ANSI colours, the
// expression with the culprit underlined, a documentation link, several
// lines). The error reads `"EXPR" at byte N: what is wrong`.
func parseLabelFilter(expr string) (types.LabelFilter, error) {
	filter, err := types.ParseLabelFilter(expr)
	if err == nil {
		return filter, nil
	}
	var ge types.GinkgoError
	if !errors.As(err, &ge) {
		return nil, fmt.Errorf("%q: %s", expr, plainLine(err.Error()))
	}
	const mark = "{{red}}{{bold}}{{underline}}"
	msg := ge.Message
	at := ""
	if i := strings.Index(msg, mark); i >= 0 {
		at = fmt.Sprintf(" at byte %d", i+1)
	}
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	msg = strings.TrimSuffix(plainLine(msg), ".")
	if msg == "" {
		msg = strings.ToLower(ge.Heading)
	}
	return nil, fmt.Errorf("%q%s: %s", expr, at, strings.ToLower(msg[:1])+msg[1:])
}

// plainLine removes ANSI escape sequences and Ginkgo's {{…}} style markup
// from s and joins its lines and runs of white space into one line.
func plainLine(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x1b: // ESC [ parameters final-byte
			j := i + 1
			if j < len(s) && s[j] == '[' {
				for j++; j < len(s) && (s[j] < 0x40 || s[j] > 0x7e); j++ {
				}
			}
			i = j
		case strings.HasPrefix(s[i:], "{{"):
			if j := strings.Index(s[i:], "}}"); j >= 0 {
				i += j + 1
				continue
			}
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i])
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
