package importer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolout/toolout/harness/components"
)

// replay scripts the conversation from the start to the cut: a step per
// assistant message, the tool results per tool (a result is named by its
// call, native or leaked: parseTrace matched them), the TURN-FAILED retries
// counted. A leaked cut's calls are answered by the results the trace
// recorded for them, after the cut. Then it runs the calls as the session
// will (see draws).
func (im *importer) replay() error {
	for i := im.start; i <= im.cut.index; i++ {
		if i == im.cut.index && im.cut.kind == "final" {
			im.used = append(im.used, i) // the answer step scripts it
			break
		}
		m := im.msgs[i]
		im.used = append(im.used, i)
		switch {
		case m.Role == "user" && i > im.start && strings.HasPrefix(m.text, "TURN-FAILED"):
			im.turnFailed++ // the agent sends it again on its own
		case m.Role == "assistant":
			im.steps = append(im.steps, im.step(i))
		case m.Role == "tool":
			im.result(i)
		}
	}
	if im.cut.kind == "leaked" {
		for i := im.cut.index + 1; i < len(im.msgs); i++ {
			if m := im.msgs[i]; m.Role == "tool" && m.leaked && m.callMsg == im.cut.index {
				im.used = append(im.used, i)
				im.result(i)
			}
		}
	}
	slices.Sort(im.used)
	im.used = slices.Compact(im.used)
	return im.draws()
}

// step scripts assistant message i.
func (im *importer) step(i int) importedStep {
	m := im.msgs[i]
	st := importedStep{ID: fmt.Sprintf("msg-%d", i), Match: importedMatch{Tag: "session.turn"}}
	if text := m.text; len(m.ToolCalls) == 0 || text != "" {
		st.Respond.Text = &text
	}
	if len(m.ToolCalls) == 0 { // the tools of the calls the agent recovers
		for _, c := range components.RecoverLeaked(m.text).Calls {
			im.addTool(c.Name)
		}
	}
	for _, tc := range m.ToolCalls {
		im.addTool(tc.Function.Name)
		cs := importedCall{ID: tc.ID, Name: tc.Function.Name}
		if tc.Type == "custom" { // a custom tool call: its free text
			input := tc.Function.Arguments
			cs.Custom, cs.Input = true, &input
		} else if scriptedArgs(tc.Function.Arguments) != nil {
			cs.args = tc.Function.Arguments // decoded when rendered: a map a step held 4x its JSON
		} else {
			raw := tc.Function.Arguments
			cs.Raw = &raw
		}
		st.Respond.ToolCalls = append(st.Respond.ToolCalls, cs)
	}
	return st
}

// maxArgsDepth bounds the nesting of the arguments a scenario writes as
// YAML, whose indentation grows with the depth: deeper ones are written as
// they are, raw, on one line.
const maxArgsDepth = 64

// scriptedArgs returns a call's arguments as the object a step scripts, or
// nil when they are not a JSON object or nest deeper than maxArgsDepth.
func scriptedArgs(arguments string) map[string]any {
	depth, deepest, quoted := 0, 0, false
	for i := 0; i < len(arguments); i++ {
		switch c := arguments[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && (c == '{' || c == '['):
			depth++
			deepest = max(deepest, depth)
		case !quoted && (c == '}' || c == ']'):
			depth--
		}
	}
	var args map[string]any
	if deepest > maxArgsDepth || json.Unmarshal([]byte(arguments), &args) != nil {
		return nil
	}
	return args
}

// result adds tool result i to its tool's outputs, in the order the fake
// tool will give them.
func (im *importer) result(i int) {
	m := im.msgs[i]
	im.addTool(m.callName)
	if text, ok := mcpShaped(m.text); ok {
		// kept as the trace had it, in a file of its own: the session
		// reads it normalized, and sizes it so
		name := fmt.Sprintf("%s.msg%d.mcp.json", im.opts.Name, i)
		im.files = append(im.files, ImportedFile{Path: name, Data: []byte(m.text)})
		im.results[m.callName] = append(im.results[m.callName], importedText{MCP: name})
		im.sizes[m.callName] = append(im.sizes[m.callName], len(text))
		return
	}
	im.results[m.callName] = append(im.results[m.callName], im.payload(fmt.Sprintf("msg%d", i), m.text))
	im.sizes[m.callName] = append(im.sizes[m.callName], len(m.text))
}

// draws runs the scripted calls as the session will, to make its draws of
// IDs (components.SessionIDs) in the same order: for each assistant
// message up to the cut, an ID per call the agent recovers from its text,
// then, call by call, a handle for each output over the cap, a fake tool
// giving its outputs in call order with the last repeating. It counts the
// outputs stored and keeps the handle of the oversized cut's.
func (im *importer) draws() error {
	ids := components.NewSessionIDs()
	calls := map[string]int{} // calls made of each tool
	cut := im.msgs[im.cut.index]
	for i := im.start; i <= im.cut.index; i++ {
		m := im.msgs[i]
		if m.Role != "assistant" || i == im.cut.index && im.cut.kind == "final" {
			continue
		}
		var names []string
		for _, tc := range m.ToolCalls {
			names = append(names, tc.Function.Name)
		}
		if len(m.ToolCalls) == 0 {
			ids.Answer(m.text)
			for _, c := range components.RecoverLeaked(m.text).Calls {
				names = append(names, c.Name)
			}
		}
		for k, name := range names {
			sizes := im.sizes[name]
			if len(sizes) == 0 { // the tool gives noResult, which may be over a small cap too
				sizes = []int{len(noResult(name))}
			}
			n := calls[name]
			calls[name]++
			if sizes[min(n, len(sizes)-1)] <= im.maxBytes {
				continue
			}
			im.stored++
			if h := ids.Stored(); im.cut.kind == "oversized" && cut.callMsg == i && cut.callIndex == k {
				im.handle = h
			}
		}
	}
	if im.cut.kind == "oversized" && im.handle == "" {
		return im.tr.msgErrorf(im.cut.index, nil, "the replay would not give this result to its call (results of %s answer its calls in another order); cut at another message", im.msgs[im.cut.index].callName)
	}
	return nil
}
