package jsonspan

import "github.com/toolout/toolout/core/jsonlex"

// internMax is the longest string value Options.Intern shares: an item's
// "type", a message's "role", an id repeated in a call and its result.
const internMax = 32

// internCap is how many strings one parse shares at most: a trace with a
// key of its own for each of a million attributes keeps a table this big,
// and gives the others a string each.
const internCap = 1 << 12

// lazyList is a list Options.Lazy left unbuilt: its body, where its '['
// is and at which depth, and the options its items are parsed with.
type lazyList struct {
	b     []byte
	from  int
	depth int
	o     Options
}

// lazyList checks the list at p.i, at depth, and returns it unbuilt; a
// list that is not valid is parsed, which says what is wrong with it.
func (p *parser) lazyList(depth int) (*Node, error) {
	v := validator{b: p.b, i: p.i}
	if !v.value(depth) {
		return p.value(depth)
	}
	o := p.o
	o.Lazy, o.Known = nil, nil
	n := &Node{Kind: '[', Start: p.at(p.i), End: p.at(v.i), lazy: &lazyList{b: p.b, from: p.i, depth: depth, o: o}}
	p.i = v.i
	return n, nil
}

// Lazy reports whether n is a list Options.Lazy left unbuilt: its items
// are read with Each, not Vals or Items.
func (n *Node) Lazy() bool { return n != nil && n.lazy != nil }

// Each calls f with each item of the list n and its index, in order, and
// stops at f's first error, which it returns. A built list's items are its
// Vals; a lazy one's are built one at a time, each parsed when f is to
// get it and dropped after (f may keep it). Each of a value that is not a
// list does nothing.
func (n *Node) Each(f func(k int, item *Node) error) error {
	if n == nil || n.Kind != '[' {
		return nil
	}
	if n.lazy == nil {
		for k, it := range n.Vals {
			if err := f(k, it); err != nil {
				return err
			}
		}
		return nil
	}
	l := n.lazy
	p := newParser(l.b, l.o)
	p.single = true // what f keeps of an item keeps no other node
	defer p.release()
	p.i = jsonlex.Space(l.b, l.from+1)
	for k := 0; p.b[p.i] != ']'; k++ {
		clear(p.strs) // an item's strings are its own, as a parse's are
		it, err := p.value(l.depth + 1)
		if err != nil {
			return err // the list was checked: not reached
		}
		if err := f(k, it); err != nil {
			return err
		}
		if p.ws(); p.b[p.i] == ',' {
			p.i++
			p.ws()
		}
	}
	return nil
}

// interned is the string whose bytes are text, one per parse (see
// Options.Intern); the lookup copies nothing.
func (p *parser) interned(text []byte) string {
	if s, ok := p.strs[string(text)]; ok {
		return s
	}
	s := string(text)
	if len(p.strs) < internCap {
		p.strs[s] = s
	}
	return s
}

// numberText is a number's text, shared with Options.Intern.
func (p *parser) numberText(lit []byte) string {
	if p.o.Intern && len(lit) <= internMax {
		return p.interned(lit)
	}
	return string(lit)
}

// Check returns nil when [Parse] accepts body, else the error Parse gives
// (a *jsonlex.SyntaxError), without building a tree for a valid body: a
// reader checks a whole file before it builds the parts it reads.
func Check(body []byte) error {
	if Valid(body) {
		return nil
	}
	_, err := Parse(body)
	return err
}
