package fstools

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"path"
)

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

// maxContext is the most context lines Grep keeps: each printed line takes
// at least 3 bytes ("N-\n"), so more than this many on one side of a match
// is over outBudget either way.
const maxContext = (outBudget + 2) / 3

// Grep lists the lines matching a pattern, or the spec's error text when the
// listing is too large. Errors are for bad arguments and paths, and for a
// path that is neither a regular file nor a directory.
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
	switch {
	case info.IsDir():
		if files, err = f.regularFiles(clean, nil); err != nil {
			return "", explain(p.Path, err)
		}
	case !info.Mode().IsRegular():
		return "", notRegular(p.Path, info.Mode(), GrepName)
	}
	g := grepper{re: re, context: min(p.Context, maxContext), max: p.MaxResults, prefix: info.IsDir()}
	g.br = bufio.NewReaderSize(nil, cmp0(f.grepBuf, grepBuffer))
	for _, name := range files {
		given := p.Path
		if info.IsDir() {
			given = name
		}
		file, err := f.openRegular(name, given, GrepName)
		if err != nil {
			return "", err
		}
		err = g.file(file, name)
		file.Close()
		if err != nil {
			return "", explain(given, err)
		}
	}
	if g.matches == 0 {
		return fmt.Sprintf("No matches for %q in %s.", p.Pattern, clean), nil
	}
	g.put(&g.out, g.notes.Bytes())
	if g.matches > g.max {
		g.put(&g.out, fmt.Appendf(nil, "(%d of %d matching lines shown: raise max_results or use a more specific pattern)\n", g.max, g.matches))
	}
	if t := Estimate(g.size); g.over || t > MaxTokens {
		return SearchTooLarge(t), nil
	}
	return g.out.String(), nil
}

func cmp0(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// regularFiles appends the regular files under dir, in lexical order, to
// files. It walks through the root itself rather than fs.WalkDir over
// root.FS(): that FS refuses names that are not valid UTF-8, which a file
// system holds as any other bytes. Symbolic links are not followed, and
// anything but regular files and directories (FIFOs, sockets, devices) is
// left out.
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

// A shown line: its number, the text printed (all of it, or a cut of at
// most MaxLineBytes), the whole line's length and where the text starts.
type shown struct {
	n      int
	text   []byte
	length int64
	from   int64
}

func (s shown) cut() bool { return int64(len(s.text)) < s.length }

// held is a context line kept until a match shows it. Its text is dropped
// (and only its printed size kept) once the held texts reach outBudget:
// printing it would then put the listing over the budget anyway.
type held struct {
	shown
	size    int64
	dropped bool
}

// grepper lists the matching lines of one or more files. It holds at most
// about outBudget bytes of text however long the lines or the context: the
// listing stops growing at outBudget (its size is still counted, for the
// estimate), a long line is read in pieces (see nextLine), and held context
// lines give up their text at outBudget.
type grepper struct {
	re      *regexp.Regexp
	context int
	max     int
	prefix  bool
	br      *bufio.Reader
	lr      *lineReader // made on the first line longer than br's buffer

	out, notes bytes.Buffer
	size       int64 // bytes of the listing and notes, also past outBudget
	over       bool  // the listing is known to be over outBudget
	matches    int
	printed    bool // something printed, so a new group needs "--"

	// The file being searched.
	name        string
	before      []held // the last context lines not yet printed: a window of buf
	buf         []held // before's array, whole; entries outside the window are zero
	dropped     int    // the first this many of before have no text
	heldText    int64  // bytes of text in before
	lastPrinted int    // line number of the last printed line in this file
	after       int    // context lines still to print after a match
}

// put appends b to dst while the listing is within outBudget, and counts it.
func (g *grepper) put(dst *bytes.Buffer, b []byte) {
	if g.size += int64(len(b)); g.size >= outBudget {
		g.over = true
		g.out, g.notes = bytes.Buffer{}, bytes.Buffer{}
		return
	}
	dst.Write(b)
}

func (g *grepper) file(r io.Reader, name string) error {
	g.br.Reset(r)
	clear(g.before)
	g.name, g.before, g.dropped, g.heldText, g.lastPrinted, g.after = name, g.buf[:0], 0, 0, 0, 0
	for n := 1; ; n++ {
		more, err := g.nextLine(n)
		if err != nil || !more {
			return err
		}
	}
}

// printing reports whether a match now would be listed.
func (g *grepper) printing() bool { return g.matches < g.max }

// handle lists or holds line l as grep -n -C does.
func (g *grepper) handle(l shown, matched bool) {
	switch {
	case matched:
		g.matches++
		if g.matches <= g.max {
			for _, h := range g.before {
				g.emit(h.shown, '-', h.dropped, h.size)
			}
			clear(g.before)
			g.before, g.dropped, g.heldText = g.buf[:0], 0, 0
			g.emit(l, ':', false, 0)
			g.after = g.context
		}
	case g.after > 0 && g.matches <= g.max:
		g.emit(l, '-', false, 0)
		g.after--
	case g.context > 0 && g.printing():
		g.hold(l)
	}
}

func (g *grepper) hold(l shown) {
	l.text = bytes.Clone(l.text)
	h := held{shown: l, size: g.lineSize(l)}
	g.push(h)
	g.heldText += int64(len(h.text))
	if len(g.before) > g.context {
		if g.before[0].dropped {
			g.dropped--
		}
		g.heldText -= int64(len(g.before[0].text))
		g.before[0] = held{}
		g.before = g.before[1:]
	}
	for g.heldText >= outBudget {
		d := &g.before[g.dropped]
		g.heldText -= int64(len(d.text))
		d.text, d.dropped = nil, true
		g.dropped++
	}
}

// push appends h to the window of held lines. The window slides along buf
// (hold drops its first line as it takes one past the context); when it
// reaches buf's end it moves back to the start, into a new array of twice
// its size when buf has no room to spare, so that a line costs O(1)
// amortized and no allocation once buf has grown (before, each slide
// past the end reallocated: 1.3 allocations a line on empty lines).
func (g *grepper) push(h held) {
	if n := len(g.before); n == cap(g.before) {
		if cap(g.buf) < 2*n+2 {
			nb := make([]held, 2*n+2)
			copy(nb, g.before)
			clear(g.before)
			g.buf = nb
		} else {
			copy(g.buf, g.before)
			clear(g.buf[n:])
		}
		g.before = g.buf[:n]
	}
	g.before = append(g.before, h)
}

// digits is the length of n (≥ 0) in decimal, without formatting it (held
// lines are sized one by one: strconv.Itoa allocated a string for each).
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// lineSize is the bytes l takes in the listing, without a "--" before it.
func (g *grepper) lineSize(l shown) int64 {
	n := digits(l.n) + 1 + len(l.text) + 1
	if g.prefix {
		n += len(g.name) + 1
	}
	return int64(n)
}

// emit lists l; a dropped held line is only counted (size bytes), since
// the listing is then over outBudget.
func (g *grepper) emit(l shown, sep byte, dropped bool, size int64) {
	if g.context > 0 && g.printed && (g.lastPrinted == 0 || l.n > g.lastPrinted+1) {
		g.put(&g.out, []byte("--\n")) // a new group, as grep -C prints
	}
	g.printed, g.lastPrinted = true, l.n
	if dropped {
		g.over, g.size = true, g.size+size
		return
	}
	var b []byte
	if g.prefix {
		b = append(append(b, g.name...), sep)
	}
	b = append(strconv.AppendInt(b, int64(l.n), 10), sep)
	g.put(&g.out, b)
	g.put(&g.out, l.text)
	g.put(&g.out, []byte("\n"))
	if l.cut() {
		where := ""
		if g.prefix {
			where = g.name + " "
		}
		g.put(&g.notes, fmt.Appendf(nil, "(%sline %d is cut: %d bytes long, %d shown from byte offset %d)\n",
			where, l.n, l.length, len(l.text), l.from))
	}
}
