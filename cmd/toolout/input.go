package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Bounded input. Every subcommand that reads FILE or standard input
// (chunk, extract plan, final-report, gateway compress, gateway shadow-id,
// leaked, schema summarize, schema inspect, stats, truncate) opens it with
// openInput and reads it through the returned input, which stops after
// --max-input bytes (default defaultMaxInput, 128 MiB):
//
//   - A regular file larger than the limit is refused from its size, before
//     any byte is read; any other input (stdin, a pipe, a FIFO, a device,
//     a file that grows while read) is read until EOF or the limit plus one
//     byte, and never further. Either way the subcommand exits 2 with one
//     line naming the input (the FILE as given, or <stdin>) and the limit:
//     "toolout stats: <stdin>: input exceeds the limit of 128MiB (134217728 bytes); raise it with --max-input".
//     An input of exactly the limit is accepted.
//   - A FILE that is a directory is refused before reading ("d: is a
//     directory"); other errors name the input and say what went wrong
//     ("x.txt: no such file or directory").
//   - stats and gateway shadow-id read in one pass without keeping the
//     input (Read); the others need the whole text and read it once into one
//     string or byte slice (ReadText, ReadBytes): exactly its size from a
//     regular file; from a pipe in blocks of 1 MiB joined once at the end,
//     the joined blocks handed back to the system every 16 MiB, so the
//     input is held about once, not twice, and never grown by appending.
//
// --max-input takes a positive byte count with an optional unit, any case:
// B; K, KiB (1024); M, MiB; G, GiB; T, TiB; and KB, MB, GB, TB as powers of
// 1000, as SI has them. No fractions, signs or spaces; 0 is an error (there
// is no "unlimited": give a large limit). The largest limit is
// math.MaxInt64 − 1 bytes, so that the limit plus one byte is representable.
// An invalid value is a usage error, exit 2, in the flag package's one line
// ("invalid value "64XB" for flag -max-input: unknown unit ...").
//
// Peak memory per input byte, measured with /usr/bin/time on 50 MiB inputs
// (docs/benchmarks.md has the table): stats and shadow-id under 1 (constant: 40 MB and
// 14 MB whatever the input, for text that has a line or a word end now and
// then); final-report and truncate about 1.3; chunk and extract plan 2.6 on
// logs and 4.1 on text of one-byte pieces; schema, leaked and gateway
// compress 6 to 11, in the parsers and in encoding their JSON output.

// defaultMaxInput is the default of --max-input: 128 MiB, far more than any
// model's context takes (a million tokens is about 4 MB of text), and small
// enough that the hungriest subcommand (leaked, about 11 bytes per byte)
// stays under 1.5 GB, and that 1 GiB of zero bytes piped to stats (held
// whole up to the limit: such text has no place to cut) exits 2 at about
// 160 MB.
const defaultMaxInput = 128 << 20

// stdinName names standard input in messages.
const stdinName = "<stdin>"

// byteSize is the value of --max-input.
type byteSize int64

var units = []struct {
	name string // lower case
	size int64
}{
	{"", 1}, {"b", 1},
	{"k", 1 << 10}, {"kib", 1 << 10}, {"kb", 1e3},
	{"m", 1 << 20}, {"mib", 1 << 20}, {"mb", 1e6},
	{"g", 1 << 30}, {"gib", 1 << 30}, {"gb", 1e9},
	{"t", 1 << 40}, {"tib", 1 << 40}, {"tb", 1e12},
}

const (
	errSizeSyntax = "want a byte count such as 1048576, 64MiB or 1GiB"
	maxByteSize   = math.MaxInt64 - 1
)

// Set parses a size such as "64MiB".
func (b *byteSize) Set(s string) error {
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits == 0 {
		return errors.New(errSizeSyntax)
	}
	unit := s[digits:]
	if strings.ContainsAny(unit, "0123456789.,+- \t") {
		return errors.New(errSizeSyntax)
	}
	mult := int64(0)
	for _, u := range units {
		if strings.EqualFold(unit, u.name) {
			mult = u.size
		}
	}
	if mult == 0 {
		return fmt.Errorf("unknown unit %q (want B, K, KiB, KB, M, MiB, MB, G, GiB, GB, T, TiB or TB)", unit)
	}
	n, err := strconv.ParseInt(s[:digits], 10, 64)
	if err != nil || n > maxByteSize/mult {
		return fmt.Errorf("out of range (at most %d bytes)", int64(maxByteSize))
	}
	if n == 0 {
		return errors.New("must be at least 1 byte")
	}
	*b = byteSize(n * mult)
	return nil
}

// String gives the size with the largest binary unit that divides it
// (256MiB), or in bytes (1000); Set reads it back.
func (b byteSize) String() string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b > 0 && int64(b)%u.size == 0 {
			return strconv.FormatInt(int64(b)/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(int64(b), 10)
}

// describe is the limit as messages give it: "256MiB (268435456 bytes)",
// or "1000 bytes".
func (b byteSize) describe() string {
	if s := b.String(); strings.HasSuffix(s, "B") {
		return fmt.Sprintf("%s (%d bytes)", s, int64(b))
	}
	return fmt.Sprintf("%d bytes", int64(b))
}

// maxInputFlag adds --max-input to fs.
func maxInputFlag(fs *flagSet) *byteSize {
	limit := byteSize(defaultMaxInput)
	fs.Var(&limit, "max-input", "read at most `BYTES` of FILE or stdin; more is an error, exit 2 (units: K or KiB, M or MiB, G or GiB, T or TiB; KB, MB, GB, TB are powers of 1000)")
	return &limit
}

// tooLargeError reports an input over the limit.
type tooLargeError struct {
	name  string
	limit byteSize
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s: input exceeds the limit of %s; raise it with --max-input", e.name, e.limit.describe())
}

// input is the single optional FILE argument, or standard input when there
// is none or it is "-", read with a size limit. It is an io.Reader that
// fails with a *tooLargeError once the input proves longer than the limit.
type input struct {
	name  string // for messages: the FILE as given, or <stdin>
	r     io.Reader
	size  int64 // the size of a regular file, or -1
	limit byteSize
	n     int64 // bytes read so far
	file  *os.File
}

// openInput opens the input named by args (at most one FILE). Errors name
// the input and, from the file system, say only what went wrong
// ("x.txt: no such file or directory").
func openInput(args []string, stdin io.Reader, limit byteSize) (*input, error) {
	in := &input{name: stdinName, r: stdin, size: -1, limit: limit}
	switch {
	case len(args) > 1:
		return nil, fmt.Errorf("want at most one FILE, got %d (%s)", len(args), strings.Join(args, " "))
	case len(args) == 1 && args[0] != "-":
		f, err := os.Open(args[0])
		if err != nil {
			return nil, in.named(args[0], err)
		}
		in.name, in.r, in.file = args[0], f, f
	}
	if st, ok := in.r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		info, err := st.Stat()
		switch {
		case err != nil:
			in.Close()
			return nil, in.named(in.name, err)
		case info.IsDir():
			in.Close()
			return nil, fmt.Errorf("%s: is a directory", in.name)
		case info.Mode().IsRegular():
			in.size = info.Size()
		}
	}
	if in.size > int64(limit) {
		in.Close()
		return nil, &tooLargeError{in.name, limit}
	}
	return in, nil
}

// named gives err as "NAME: what went wrong".
func (in *input) named(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// Read reads from the input; past the limit it fails with *tooLargeError.
// It never asks the source for more than the limit plus one byte in all.
func (in *input) Read(p []byte) (int, error) {
	if in.n > int64(in.limit) {
		return 0, &tooLargeError{in.name, in.limit}
	}
	if room := int64(in.limit) + 1 - in.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := in.r.Read(p)
	in.n += int64(n)
	if in.n > int64(in.limit) {
		return n, &tooLargeError{in.name, in.limit}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		err = in.named(in.name, err)
	}
	return n, err
}

// Close closes a FILE; standard input stays open.
func (in *input) Close() error {
	if in.file == nil {
		return nil
	}
	return in.file.Close()
}

// blockSize is the size of the blocks a pipe is read in.
const blockSize = 1 << 20

// ReadText reads the whole input into one string.
func (in *input) ReadText() (string, error) {
	var b strings.Builder
	err := in.readAll(&b, b.Grow)
	return b.String(), err
}

// ReadBytes reads the whole input into one byte slice.
func (in *input) ReadBytes() ([]byte, error) {
	var b byteBuffer
	err := in.readAll(&b, b.Grow)
	return b, err
}

// byteBuffer is a []byte that grows exactly as asked.
type byteBuffer []byte

func (b *byteBuffer) Grow(n int) { *b = append(make([]byte, 0, len(*b)+n), *b...) }

func (b *byteBuffer) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

// readAll copies the input to w, growing it first by grow to the file's
// size, or else to the sum of the blocks read.
func (in *input) readAll(w io.Writer, grow func(int)) error {
	if in.size >= 0 {
		grow(int(in.size) + 1) // +1: the read that sees EOF, or that the file grew
		_, err := io.Copy(w, in)
		return err
	}
	var blocks [][]byte
	total := 0
	for {
		block := make([]byte, blockSize)
		n, err := io.ReadFull(in, block)
		if n > 0 {
			blocks = append(blocks, block[:n])
			total += n
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return err
		}
	}
	grow(total)
	for i, b := range blocks {
		_, _ = w.Write(b) // strings.Builder and byteBuffer never fail
		blocks[i] = nil
		if (i+1)%releaseEvery == 0 {
			debug.FreeOSMemory() // give the blocks copied so far back
		}
	}
	return nil
}

// releaseEvery is how many blocks of a pipe are joined between two returns
// of their memory to the system: so joining holds the input about once,
// not twice, for a few collections (one per 16 MiB, each short: the heap
// is then a few large blocks).
const releaseEvery = 16

// readText opens the input named by args and reads it whole into one
// string; name is the input's name for messages.
func readText(args []string, stdin io.Reader, limit byteSize) (name, text string, err error) {
	in, err := openInput(args, stdin, limit)
	if err != nil {
		return "", "", err
	}
	defer in.Close()
	text, err = in.ReadText()
	return in.name, text, err
}

// readBytes is readText for a byte slice.
func readBytes(args []string, stdin io.Reader, limit byteSize) (name string, data []byte, err error) {
	in, err := openInput(args, stdin, limit)
	if err != nil {
		return "", nil, err
	}
	defer in.Close()
	data, err = in.ReadBytes()
	return in.name, data, err
}
