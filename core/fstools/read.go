package fstools

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ReadParams are Read's arguments.
type ReadParams struct {
	Path string `json:"path"`
	// Offset is the first line, 0-based.
	Offset int `json:"offset"`
	// Limit is the number of lines; nil means to the end.
	Limit *int `json:"limit"`
}

// Read returns the selected lines of a file, or the spec's error text when it
// is too large to read whole. Errors are for bad arguments and paths, and
// for paths that are not regular files.
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
	if !info.Mode().IsRegular() {
		return "", notRegular(p.Path, info.Mode(), ReadName)
	}
	if t := Estimate(info.Size()); t > MaxTokens && p.Limit == nil {
		return FileTooLarge(t), nil
	}
	file, err := f.openRegular(clean, p.Path, ReadName)
	if err != nil {
		return "", err
	}
	defer file.Close()
	if p.Offset == 0 && p.Limit == nil {
		// Bounded, in case the file grew since Stat.
		data, err := io.ReadAll(io.LimitReader(file, outBudget))
		if err != nil {
			return "", explain(p.Path, err)
		}
		if t := Estimate(int64(len(data))); t > MaxTokens {
			return FileTooLarge(t), nil
		}
		return string(data), nil
	}
	out, window, lines, err := readWindow(file, p.Offset, p.Limit)
	if err != nil {
		return "", explain(p.Path, err)
	}
	if lines <= p.Offset {
		return fmt.Sprintf("(no lines: offset %d is past the end of %s, which has %d lines)", p.Offset, clean, lines), nil
	}
	if t := Estimate(window); t > MaxTokens {
		if p.Limit == nil {
			return FileTooLarge(t), nil // the file grew since Stat
		}
		return WindowTooLarge(t, p.Offset, *p.Limit), nil
	}
	return out, nil
}

// readWindow reads lines [offset, offset+limit) of r (to the end for a nil
// limit). It returns them while they are within outBudget, the window's size
// in bytes, and the number of lines read: every line up to the window's end,
// or all of them when the file ends first. A line is what ends with "\n",
// and the bytes after the last "\n" when there are any; a line longer than
// the read buffer is counted once, whatever its length.
func readWindow(r io.Reader, offset int, limit *int) (out string, window int64, lines int, err error) {
	br := bufio.NewReader(r)
	var buf bytes.Buffer
	partial := false // bytes of the current line were read, but not its end
	for limit == nil || lines < offset+*limit {
		b, err := br.ReadSlice('\n')
		if lines >= offset {
			window += int64(len(b))
			if window < outBudget {
				buf.Write(b)
			}
		}
		switch {
		case len(b) > 0 && b[len(b)-1] == '\n':
			lines, partial = lines+1, false
		case len(b) > 0:
			partial = true
		}
		if err == io.EOF {
			if partial {
				lines++
			}
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return "", 0, 0, err
		}
	}
	return buf.String(), window, lines, nil
}
