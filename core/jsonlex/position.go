package jsonlex

// LineCol returns the 1-based line and column of byte offset off of b, the
// column counted in characters (a byte that is not UTF-8 counts as one), as
// error messages name a place in a JSON text: "file:line:col". An offset
// out of range is taken as the nearest end.
func LineCol[T Text](b T, off int) (line, col int) {
	off = min(max(off, 0), len(b))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if b[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	col = 1
	for i := start; i < off; {
		_, w := decodeRune(b[i:])
		i += w
		col++
	}
	return line, col
}
