package fstools

// SetGrepBuffer sets the size of Grep's read buffer (16 or more), so that
// tests reach the long-line path with short lines.
func SetGrepBuffer(f *FS, n int) { f.grepBuf = n }
