package harness

import "github.com/toolout/toolout/internal/yamlstrict"

// InputText decodes input.<key> of a loaded scenario as a Text, for tests.
func InputText(sc *Scenario, key string) (string, error) {
	_, n := lookup(&sc.Input, key)
	var t Text
	d := &decoder{file: sc.Path, dir: sc.dir()}
	t.decodeNode(d, yamlstrict.Resolve(n))
	return t.Value, d.errs.Err()
}

// OrderCalls exposes the transcript order of LLM calls to tests.
var OrderCalls = orderCalls

// SetGenerateLimit bounds generated text for a fuzz run and returns the
// function that restores the bound.
func SetGenerateLimit(n int) (restore func()) {
	generateLimit = n
	return func() { generateLimit = maxGenerated }
}

// Runnable exposes how failure commands name files, for tests.
var Runnable = func(path string) string { return runnableIn("", path) }

// AcceptCommand is the command a failure of sc names to accept its
// transcript, the program being command.
var AcceptCommand = acceptCommand
