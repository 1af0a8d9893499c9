package leaked

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
