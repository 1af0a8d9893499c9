package anthropic

// fields records where the values of an object's known keys are, so that
// they can be read once the object's type is known (its "type" may come
// last). The values are validated when recorded and read again from their
// offsets by the same reader: twice the scanning, no copies.
type fields struct {
	r     *reader
	keys  []string // at most 12
	at    [12]int  // offset of each key's value, -1 when absent
	start int      // offset of the object
	depth int      // the reader's depth outside the object
}

// readFields reads an object, recording its known keys.
func readFields(r *reader, keys []string) (fields, error) {
	r.peek()
	f := fields{r: r, keys: keys, start: r.i, depth: r.depth}
	for i := range f.at {
		f.at[i] = -1
	}
	err := r.object(keys, func(k int) error {
		r.peek()
		f.at[k] = r.i
		return r.skip()
	})
	return f, err
}

// has reports whether key k is present.
func (f fields) has(k int) bool { return f.at[k] >= 0 }

// seek places the reader at the value of key k and returns where it was.
func (f fields) seek(k int) (i, depth int) {
	i, depth = f.r.i, f.r.depth
	f.r.i, f.r.depth = f.at[k], f.depth+1
	return i, depth
}

// read calls read with the reader placed at the value of key k, when
// present; errors get the key in their path.
func (f fields) read(k int, read func(r *reader) error) error {
	if f.at[k] < 0 {
		return nil
	}
	i, depth := f.seek(k)
	err := read(f.r)
	f.r.i, f.r.depth = i, depth
	if err != nil {
		return within(err, f.keys[k])
	}
	return nil
}

// str reads key k as a string ("" when absent).
func (f fields) str(k int) (string, error) {
	if f.at[k] < 0 {
		return "", nil
	}
	i, depth := f.seek(k)
	s, err := f.r.str()
	f.r.i, f.r.depth = i, depth
	if err != nil {
		return "", within(err, f.keys[k])
	}
	return s, nil
}
