package jsonaware

import (
	"strconv"

	"github.com/toolout/toolout/core/jsonlex"
)

// The markers, as the output writes them (… is U+2026, written as its three
// UTF-8 bytes, never escaped).
const (
	stringMarkerPrefix = "… [+"
	stringMarkerSuffix = " bytes]"
	rowsMarkerPrefix   = "[… "
	rowsMarkerSuffix   = " cut …]"
)

// maxMarkerDigits bounds the count a marker is read with, so that adding
// to it cannot overflow.
const maxMarkerDigits = 15

// StringMarker returns the text appended to a shortened string whose n
// bytes were cut: "… [+n bytes]".
func StringMarker(n int) string { return string(appendStringMarker(nil, n)) }

// RowsMarker returns the text of the string element that stands for n rows
// cut from an array: "[… 1 row cut …]", "[… n rows cut …]".
func RowsMarker(n int) string { return string(appendRowsMarker(nil, n)) }

// ParseStringMarker reports whether s (a string's content, as decoded or as
// written: the marker holds no character JSON escapes) ends with a string
// marker, and returns what precedes it and the count it holds.
func ParseStringMarker(s string) (head string, n int, ok bool) {
	h, n, ok := parseStringMarker(s)
	return s[:h], n, ok
}

// ParseRowsMarker reports whether s (a string element's content) is a rows
// marker, and returns the count it holds.
func ParseRowsMarker(s string) (n int, ok bool) { return parseRowsMarker(s) }

func appendStringMarker(dst []byte, n int) []byte {
	dst = append(dst, stringMarkerPrefix...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, stringMarkerSuffix...)
}

func appendRowsMarker(dst []byte, n int) []byte {
	dst = append(dst, rowsMarkerPrefix...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	if n == 1 {
		return append(dst, " row"+rowsMarkerSuffix...)
	}
	return append(dst, " rows"+rowsMarkerSuffix...)
}

// parseStringMarker returns the length of what precedes the marker that
// ends s, and its count.
func parseStringMarker[T jsonlex.Text](s T) (head, n int, ok bool) {
	end := len(s) - len(stringMarkerSuffix)
	if end < 0 || string(s[end:]) != stringMarkerSuffix {
		return 0, 0, false
	}
	start := end
	for start > 0 && end-start < maxMarkerDigits && isDigit(s[start-1]) {
		start--
	}
	n, ok = count(s[start:end])
	head = start - len(stringMarkerPrefix)
	if !ok || head < 0 || string(s[head:start]) != stringMarkerPrefix {
		return 0, 0, false
	}
	return head, n, true
}

// parseRowsMarker returns the count of the rows marker s.
func parseRowsMarker[T jsonlex.Text](s T) (n int, ok bool) {
	if len(s) < len(rowsMarkerPrefix) || string(s[:len(rowsMarkerPrefix)]) != rowsMarkerPrefix {
		return 0, false
	}
	rest := s[len(rowsMarkerPrefix):]
	i := 0
	for i < len(rest) && i <= maxMarkerDigits && isDigit(rest[i]) {
		i++
	}
	if n, ok = count(rest[:i]); !ok {
		return 0, false
	}
	switch string(rest[i:]) {
	case " rows" + rowsMarkerSuffix:
		return n, n != 1
	case " row" + rowsMarkerSuffix:
		return n, n == 1
	}
	return 0, false
}

// count reads digits written as a marker writes a count: no sign, no
// leading zero, at most maxMarkerDigits digits.
func count[T jsonlex.Text](d T) (int, bool) {
	if len(d) == 0 || len(d) > maxMarkerDigits || len(d) > 1 && d[0] == '0' {
		return 0, false
	}
	n := 0
	for i := 0; i < len(d); i++ {
		if !isDigit(d[i]) {
			return 0, false
		}
		n = n*10 + int(d[i]-'0')
	}
	return n, true
}
