package importer

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// sessionScenario renders the session scenario.
func (im *importer) sessionScenario() ([]byte, error) {
	sc := importedScenario{Component: "session", Wire: im.tr.wire, Source: im.source()}
	// The session's cap is the importer's: what it stores, and so the IDs
	// it draws, are what the replay counted.
	config := map[string]any{"max_turns": len(im.steps) + 3, "max_tool_response_bytes": im.maxBytes}
	expect := map[string]any{"found": true}
	next := im.nextAnswer()
	switch im.cut.kind {
	case "leaked":
		im.leakedParts(&sc, expect)
	case "final":
		im.finalParts(&sc, expect)
	default:
		im.oversizedParts(&sc, expect, next)
	}
	final := next
	im.steps = append(im.steps, importedStep{ID: "answer", Match: importedMatch{Tag: "session.turn"}, Respond: importedRespond{Final: &final}})
	expect["report"] = final

	var tools []importedTool
	for _, name := range im.toolOrder {
		outs := im.results[name]
		if len(outs) == 0 {
			outs = []importedText{{Text: noResult(name)}}
		}
		tools = append(tools, importedTool{Name: name, Outputs: outs})
	}
	var systems []string // every system text the model had read at the cut, in order
	for _, m := range im.msgs[:im.cut.index] {
		if m.Role == "system" || m.Role == "developer" {
			systems = append(systems, m.text)
		}
	}
	input := struct {
		User   importedText   `yaml:"user"`
		System *importedText  `yaml:"system,omitempty"`
		Tools  []importedTool `yaml:"tools"`
	}{User: im.payload(fmt.Sprintf("msg%d", im.start), im.msgs[im.start].text), Tools: tools}
	if joined := strings.Join(systems, "\n\n"); joined != "" {
		sys := im.payload("system", joined)
		input.System = &sys
	}
	sc.Config, sc.Input, sc.LLM, sc.Expect = config, input, im.steps, expect
	data, size, err := renderScenario(sc, harness.MaxScenarioBytes)
	if err != nil {
		return nil, err
	}
	if size > harness.MaxScenarioBytes {
		// The texts of the session's messages are inline; name the biggest.
		big := slices.MaxFunc(im.used, func(a, b int) int { return cmp.Compare(len(im.msgs[a].text), len(im.msgs[b].text)) })
		return nil, im.tr.msgErrorf(big, nil, "its %d bytes of text make the scenario %d bytes, over the %d a scenario file may hold",
			len(im.msgs[big].text), size, harness.MaxScenarioBytes)
	}
	return data, nil
}

// finalParts describes a final cut: the conversation replayed from its
// last user message to its last answer, each tool result as the trace
// recorded it.
func (im *importer) finalParts(sc *importedScenario, expect map[string]any) {
	sc.Description = fmt.Sprintf("Imported from %s: the conversation from message %d to its answer, message %d; the session replays it, each tool giving the result the trace recorded.",
		im.opts.TraceName, im.start, im.cut.index)
	sc.Labels = []string{"regress", "imported", "final"}
	if im.stored > 0 {
		expect["stored"] = im.stored // results over the cap the replay stores
	}
}

// leakedParts describes a leaked-call cut: the recovered calls run (with a
// placeholder result when the trace recorded none), or, when none can be
// recovered, the turn fails as it did in production.
func (im *importer) leakedParts(sc *importedScenario, expect map[string]any) {
	lk := components.RecoverLeaked(im.msgs[im.cut.index].text)
	var names []string
	for _, c := range lk.Calls {
		im.addTool(c.Name)
		names = append(names, c.Name)
	}
	for _, c := range lk.Calls {
		if len(im.results[c.Name]) == 0 {
			im.results[c.Name] = []importedText{{Text: noResult(c.Name)}}
		}
	}
	sc.Description = fmt.Sprintf("Imported from %s: message %d leaked %d tool call(s) as text (%s); the session replays the conversation from message %d, recovers the calls, runs them, and ends without another TURN-FAILED.",
		im.opts.TraceName, im.cut.index, len(lk.Calls), strings.Join(lk.Patterns, ", "), im.start)
	sc.Labels = []string{"regress", "imported", "leaked"}
	turnFailed := im.turnFailed
	if len(lk.Calls) == 0 {
		// Every leaked block is invalid: the replay fails the turn, as
		// the trace's system did, and the next step answers.
		turnFailed++
		sc.Description = fmt.Sprintf("Imported from %s: message %d leaked tool calls as text (%s) that cannot be recovered (%s); the session replays the conversation from message %d and fails that turn with TURN-FAILED, as production did.",
			im.opts.TraceName, im.cut.index, strings.Join(lk.Patterns, ", "), lk.Dropped[0].Reason, im.start)
	}
	expect["turn_failed"] = turnFailed
	if im.stored > 0 {
		expect["stored"] = im.stored // results over the cap, before the cut or answering its calls
	}
	contains := []string{}
	for _, n := range names {
		if !slices.Contains(contains, n+": ") {
			contains = append(contains, n+": ")
		}
	}
	if len(contains) > 0 {
		expect["results_contain"] = contains
	}
}

// oversizedParts describes an oversized cut: the session stores the
// result, the model extracts from it, and the extraction's steps are
// scripted for the route the session will take.
func (im *importer) oversizedParts(sc *importedScenario, expect map[string]any, next string) {
	m := im.msgs[im.cut.index]
	tool := m.callName
	sc.Description = fmt.Sprintf("Imported from %s: message %d is a %d-byte result of %s, over the %d-byte cap; the session stores it, the model extracts from it with tool_output, and answers as the trace's next turn did.",
		im.opts.TraceName, im.cut.index, sessionLen(m.text), tool, im.maxBytes)
	sc.Labels = []string{"regress", "imported", "oversized"}
	handle := im.handle // drawn by the replay, as the session will
	extractText := "Extract what answers: " + question(im.msgs[im.start].text)
	im.steps = append(im.steps, importedStep{ID: "extract", Match: importedMatch{Tag: "session.turn"},
		Respond: importedRespond{ToolCalls: []importedCall{{ID: "import-extract", Name: "tool_output",
			Args: map[string]any{"handle": handle, "extract": extractText}}}}})
	// Route as the session will, with the arguments it will store: a
	// native call's as the fake LLM marshals the scripted ones, a leaked
	// call's as the agent recovers them from the (redacted) text.
	storedArgs := m.callArgs
	if !m.leaked && im.msgs[m.callMsg].ToolCalls[m.callIndex].Type == "custom" {
		b, _ := json.Marshal(m.callArgs) // a custom call's input, stored as one JSON string
		storedArgs = string(b)
	} else if m.leaked {
		storedArgs = string(components.RecoverLeaked(im.msgs[m.callMsg].text).Calls[m.callIndex].Arguments)
	} else if args := scriptedArgs(m.callArgs); args != nil {
		b, _ := json.Marshal(args)
		storedArgs = string(b)
	}
	route := components.SessionExtraction(tool, storedArgs, m.text, extractText)
	answer := next
	switch {
	case route.MapCalls > 0:
		n := route.MapCalls
		im.steps = append(im.steps, importedStep{ID: "map", Match: importedMatch{Tag: "extract.map"}, Times: n, Respond: importedRespond{Final: &answer}})
		if n > 1 {
			im.steps = append(im.steps, importedStep{ID: "reduce", Match: importedMatch{Tag: "extract.reduce"}, Respond: importedRespond{Final: &answer}})
		}
	case route.ReadGrep:
		im.steps = append(im.steps, importedStep{ID: "read-grep", Match: importedMatch{Tag: "extract.readgrep"}, Respond: importedRespond{Final: &answer}})
	}
	expect["stored"] = im.stored
	expect["results_contain"] = []string{fmt.Sprintf("ABSTRACT FROM TOOL OUTPUT %s WITH HANDLE %s, STRATEGY:%s:", tool, handle, route.Mode)}
}

// leakedScenario renders the leaked scenario of a leaked-call cut: that
// message alone, and the calls it must give.
func (im *importer) leakedScenario() ([]byte, error) {
	text := im.msgs[im.cut.index].text
	lk := components.RecoverLeaked(text)
	var calls []map[string]any
	for _, c := range lk.Calls {
		var args any
		_ = json.Unmarshal(c.Arguments, &args)
		calls = append(calls, map[string]any{"name": c.Name, "arguments": args})
	}
	src := im.source()
	return marshalScenario(importedScenario{
		Description: fmt.Sprintf("Imported from %s: message %d alone; its leaked calls are recovered.", im.opts.TraceName, im.cut.index),
		Labels:      []string{"regress", "imported", "leaked"}, Component: "leaked",
		Source: harness.Source{Trace: im.opts.TraceName, SHA256: src.SHA256, Messages: []int{im.cut.index}, Redacted: src.Redacted,
			Omitted: im.omitted([]int{im.cut.index})},
		Input:  map[string]any{"text": im.payload(fmt.Sprintf("msg%d", im.cut.index), text)},
		Expect: map[string]any{"patterns": lk.Patterns, "calls": calls},
	})
}

// noResult is what the fake tool of a call with no recorded result gives.
func noResult(tool string) string {
	return fmt.Sprintf("(no result for %s is recorded in the trace)", tool)
}
