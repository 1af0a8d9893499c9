package fstools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"
)

// nextLine reads line n of the file and lets handle list or hold it; it
// returns false at the end of the file. A line that fits in the buffer is
// matched where it lies; a longer one is streamed (streamLine), so that no
// line is ever held whole. The text of a line is without its "\n" and
// without one "\r" before it (or at the end of the file).
func (g *grepper) nextLine(n int) (bool, error) {
	buf, _ := g.br.Peek(g.br.Buffered())
	i := bytes.IndexByte(buf, '\n')
	if i < 0 {
		var err error
		// Move the start of the line to the front and fill the buffer: at
		// most once per buffer's worth of input.
		buf, err = g.br.Peek(g.br.Size())
		switch {
		case len(buf) == 0 && err == io.EOF:
			return false, nil
		case err != nil && err != io.EOF:
			return false, err
		}
		if i = bytes.IndexByte(buf, '\n'); i < 0 && err == nil {
			return true, g.streamLine(n)
		}
	}
	end := len(buf)
	if i >= 0 {
		end = i + 1
	}
	text := bytes.TrimSuffix(bytes.TrimSuffix(buf[:end], []byte("\n")), []byte("\r"))
	matched := g.re.Match(text)
	l := shown{n: n, text: text, length: int64(len(text))}
	if len(text) > MaxLineBytes {
		from := 0
		if matched && g.printing() {
			from = max(0, g.re.FindIndex(text)[0]-MaxLineBytes/4)
		}
		l.text, l.from = edges(text[from:min(len(text), from+MaxLineBytes)], int64(from), l.length)
	}
	g.handle(l, matched)
	_, err := g.br.Discard(end)
	return true, err
}

// streamLine matches a line longer than the buffer through a RuneReader,
// keeping only its first MaxLineBytes, a ring of its last bytes read (where
// the first match is found) and the cut to show around that match.
func (g *grepper) streamLine(n int) error {
	if g.lr == nil {
		g.lr = &lineReader{head: make([]byte, 0, MaxLineBytes), ex: make([]byte, 0, MaxLineBytes),
			ring: make([]byte, max(g.br.Size(), 2*MaxLineBytes))}
	}
	lr := g.lr
	lr.reset(g.br)
	matched, excerpt := false, false
	if g.printing() {
		if loc := g.re.FindReaderIndex(lr); loc != nil {
			matched, excerpt = true, true
			lr.excerptFrom(max(0, int64(loc[0])-MaxLineBytes/4))
		}
	} else {
		matched = g.re.MatchReader(lr)
	}
	lr.drain()
	if lr.err != nil {
		return lr.err
	}
	l := shown{n: n, text: lr.head, length: lr.pos}
	if excerpt && lr.pos > MaxLineBytes { // else the head is the whole line
		l.text, l.from = lr.ex, lr.exFrom
	}
	l.text, l.from = edges(l.text, l.from, l.length)
	g.handle(l, matched)
	return nil
}

// edges trims a cut b, which starts at byte offset from of a line of length
// bytes, to whole characters: its start moves past up to three continuation
// bytes, and a character cut in two at its end is left out (when the line
// goes on after it).
func edges(b []byte, from, length int64) ([]byte, int64) {
	if int64(len(b)) == length {
		return b, from
	}
	for k := 0; k < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); k++ {
		b, from = b[1:], from+1
	}
	if from+int64(len(b)) < length {
		i := len(b) - 1
		for i > 0 && i > len(b)-utf8.UTFMax && !utf8.RuneStart(b[i]) {
			i--
		}
		if i >= 0 && !utf8.FullRune(b[i:]) {
			b = b[:i]
		}
	}
	return b, from
}

// lineReader is an io.RuneReader over the rest of one line of br: it ends
// at "\n", and at a "\r" that comes right before "\n" or the end of the
// input. It passes a byte that is not UTF-8 as utf8.RuneError of size 1 (as
// the regexp package reads bytes), and keeps what streamLine shows.
type lineReader struct {
	br  *bufio.Reader
	pos int64 // bytes of the line passed on
	end bool  // the end of the line (or of the input) was read
	err error // a read error other than io.EOF

	head   []byte // the first MaxLineBytes bytes
	ring   []byte // the last len(ring) bytes: offset k at ring[k%len(ring)]
	ex     []byte // the cut around the first match, from exFrom
	exOn   bool
	exFrom int64
}

func (l *lineReader) reset(br *bufio.Reader) {
	l.br, l.pos, l.end, l.err = br, 0, false, nil
	l.head, l.ex, l.exOn, l.exFrom = l.head[:0], l.ex[:0], false, 0
}

// ReadRune implements io.RuneReader.
func (l *lineReader) ReadRune() (rune, int, error) {
	if l.end {
		return 0, 0, io.EOF
	}
	r, size, err := l.br.ReadRune()
	switch {
	case err != nil:
		l.stop(err)
		return 0, 0, io.EOF
	case r == '\n':
		l.end = true
		return 0, 0, io.EOF
	case r == '\r':
		next, err := l.br.Peek(1)
		if err == io.EOF || err == nil && next[0] == '\n' {
			l.br.Discard(len(next))
			l.end = true
			return 0, 0, io.EOF
		}
		if err != nil {
			l.stop(err)
			return 0, 0, io.EOF
		}
		l.keep('\r')
	case r == utf8.RuneError && size == 1:
		l.br.UnreadRune() // the byte itself, for head and ring
		b, _ := l.br.ReadByte()
		l.keep(b)
	case r < utf8.RuneSelf:
		l.keep(byte(r))
	default:
		var enc [utf8.UTFMax]byte
		for _, b := range enc[:utf8.EncodeRune(enc[:], r)] {
			l.keep(b)
		}
	}
	return r, size, nil
}

func (l *lineReader) stop(err error) {
	l.end = true
	if err != io.EOF {
		l.err = err
	}
}

// keep records byte c at offset l.pos and moves past it.
func (l *lineReader) keep(c byte) {
	if l.pos < MaxLineBytes {
		l.head = append(l.head, c)
	}
	l.ring[l.pos%int64(len(l.ring))] = c
	if l.exOn && len(l.ex) < MaxLineBytes {
		l.ex = append(l.ex, c)
	}
	l.pos++
}

// excerptFrom starts the cut at offset from, or at the oldest byte the ring
// still holds when from is older, with the bytes read since.
func (l *lineReader) excerptFrom(from int64) {
	from = max(from, l.pos-int64(len(l.ring)))
	l.exFrom, l.exOn = from, true
	for k := from; k < l.pos && len(l.ex) < MaxLineBytes; k++ {
		l.ex = append(l.ex, l.ring[k%int64(len(l.ring))])
	}
}

// drain reads the rest of the line: rune by rune while the head or the cut
// still takes bytes, then a buffer at a time, only counting.
func (l *lineReader) drain() {
	for !l.end && (l.pos < MaxLineBytes || l.exOn && len(l.ex) < MaxLineBytes) {
		l.ReadRune()
	}
	cr := false // a "\r" that ended a piece: the line's end if nothing follows
	for !l.end {
		b, err := l.br.ReadSlice('\n')
		switch {
		case err == nil:
			b, l.end = b[:len(b)-1], true
		case errors.Is(err, bufio.ErrBufferFull):
		default:
			l.stop(err)
		}
		if len(b) > 0 && cr {
			l.pos, cr = l.pos+1, false
		}
		if len(b) > 0 && b[len(b)-1] == '\r' {
			b, cr = b[:len(b)-1], true
		}
		l.pos += int64(len(b))
	}
}
