package responses

import (
	"strings"

	"github.com/toolout/toolout/core/gateway/internal/wireparse"
	"github.com/toolout/toolout/core/jsonspan"
)

// Item types of the input and output lists this package reads by name.
const (
	TypeMessage              = "message"
	TypeFunctionCall         = "function_call"
	TypeFunctionCallOutput   = "function_call_output"
	TypeCustomToolCall       = "custom_tool_call"
	TypeCustomToolCallOutput = "custom_tool_call_output"
	TypeReasoning            = "reasoning"
	TypeCompaction           = "compaction"
	TypeItemReference        = "item_reference"
)

// itemType returns an item's type: its "type" when it is a string, else
// "message" for an item with a "role" (the API's easy input message has
// no type), else "item_reference" for one with an "id" (an item reference
// may leave its type out), else "".
func itemType(n *jsonspan.Node) string {
	if t := n.Get("type"); t != nil && t.Kind == '"' {
		return t.Str
	}
	switch {
	case n.Get("type") != nil && n.Get("type").Kind != '0':
		return ""
	case n.Get("role") != nil:
		return TypeMessage
	case n.Get("id") != nil:
		return TypeItemReference
	}
	return ""
}

// isOutput reports whether an item type is a tool's output
// (function_call_output, custom_tool_call_output, local_shell_call_output,
// apply_patch_call_output, ...).
func isOutput(typ string) bool { return strings.HasSuffix(typ, "_call_output") }

// isCall reports whether an item type is a tool call of the model
// (function_call, custom_tool_call, local_shell_call, ...).
func isCall(typ string) bool { return strings.HasSuffix(typ, "_call") }

// callID returns the id of the call an output item answers: its
// "call_id", else its "id" (local_shell_call_output names its call so).
func callID(n *jsonspan.Node) string {
	if c := n.Get("call_id"); c != nil {
		return c.Text()
	}
	return n.Get("id").Text()
}

// callName returns the tool name of a call item: its "name", else its
// type less "_call" ("local_shell", "apply_patch").
func callName(n *jsonspan.Node, typ string) string {
	if name := n.Get("name"); name != nil && name.Kind == '"' {
		return name.Str
	}
	return strings.TrimSuffix(typ, "_call")
}

// textTypes are the part types whose text an output list holds.
var textTypes = []string{"input_text", "output_text"}

// outputText returns the text of an output item's "output": a string, or
// the texts of a list of input_text parts concatenated with nothing
// between them (as [wireparse.ResultText] reads them). ok is false when the
// output is absent, null, another kind of value (shell_call_output's
// list of stdout/stderr objects, computer_call_output's screenshot) or a
// list with another part (an image, a file).
func outputText(out *jsonspan.Node) (text string, ok bool) {
	if out == nil || out.Kind != '"' && out.Kind != '[' {
		return "", false
	}
	return wireparse.ResultText(out, textTypes...)
}
