package leaked

// The reading this file implements (core/leaked/doc.go summarizes it
// under Model families):
//
// Seed-OSS writes Qwen3-Coder's <function=NAME><parameter=K>V</parameter>
// </function> calls inside <seed:tool_call>…</seed:tool_call>, one or
// several per wrapper; it is a wrapper like the others (a JSON body is read
// too), so the block is removed whole, tags and all, and never leaves an
// empty <seed:tool_call></seed:tool_call> in the content. An empty wrapper
// on its own is prose and stays, as for every wrapper. With the opening tag
// stripped, the bare call is recovered and a </seed:tool_call> that follows
// it (after white space; also cut off by the end of input) is removed with
// it, as </tool_call> is for Qwen3-Coder. Seed thinks inside
// <seed:think>…</seed:think>, which is not scanned, like <think> (below):
// its serving parser reads calls only after </seed:think>, and a call the
// model weighed while thinking is not one it made.

// Seed-OSS writes Qwen3-Coder's calls inside <seed:tool_call> (a wrapper of
// the scan) and thinks inside <seed:think>…</seed:think>, which the scan
// skips as it skips <think> (its serving parser reads calls only after
// </seed:think>).
const (
	seedThink    = "<seed:think>"
	seedThinkEnd = "</seed:think>"
	seedClose    = "</seed:tool_call>"
)

// seedThinking returns the index after the <seed:think> block that opens at
// s[i]: after its closing tag, or the end of input when it is unclosed (the
// rest is thinking).
func (sc *scanner) seedThinking(i int) int {
	sc.flush()
	end := sc.find(seedThinkEnd, i+len(seedThink))
	return min(end+len(seedThinkEnd), len(sc.s))
}

// strayAt returns the closing tag of a wrapper that may follow a bare call f
// whose opening tag was stripped, at p after white space: Seed-OSS's
// </seed:tool_call> when it is there (also cut off by the end of input),
// else the form's own (</tool_call>, </minimax:tool_call>).
func (sc *scanner) strayAt(f form, p int) string {
	if !f.qwen {
		return f.stray()
	}
	rest := sc.s[sc.skip(p):]
	if hasPrefixFold(rest, seedClose) || isClosePrefix(rest, seedClose) && !isClosePrefix(rest, f.stray()) {
		return seedClose
	}
	return f.stray()
}
