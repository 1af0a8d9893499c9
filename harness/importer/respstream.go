package importer

// respStream reads a response given as the text of its event stream.
func (t *parsedTrace) respStream(resp *jnode) (traceMessage, string, error) {
	return traceMessage{}, "", t.errorf(resp.at, "response: an event stream's text is not read yet")
}
