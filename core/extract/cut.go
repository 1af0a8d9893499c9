package extract

// headTail is the head-tail strategy: output cut to TruncateBytes, the head
// getting HeadPercent of it, the error-like lines of the middle kept. It
// cannot fail and calls no model.
func (e *Extractor) headTail(output string) string {
	return headTailCut(output, e.opts.TruncateBytes, e.opts.Config.HeadPercent)
}

// jsonAware is the json-aware strategy: output shortened into valid JSON of
// at most TruncateBytes. Output that is not JSON is a failure (the strategy
// could not execute: spec decision 4), and the caller falls back to
// truncate; it calls no model.
func (e *Extractor) jsonAware(output string) (string, error) {
	return shortenJSON(output, e.opts.TruncateBytes)
}

// cut is truncate's body, explicit or as the fallback: output cut as
// Config.TruncateWith says, and how it was cut. json-aware on output that
// is not JSON cuts bytes, and the log says why.
func (e *Extractor) cut(handle, output string) (body, how string) {
	switch e.opts.Config.TruncateWith {
	case CutHeadTail:
		return e.headTail(output), CutHeadTail
	case CutJSONAware:
		body, err := e.jsonAware(output)
		if err == nil {
			return body, CutJSONAware
		}
		e.logf("tool_output: handle %s: truncate_with json-aware: %v; cutting bytes", handle, err)
	}
	body, _ = Truncate(output, e.opts.TruncateBytes)
	return body, CutBytes
}
