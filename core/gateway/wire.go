package gateway

import (
	"errors"
	"fmt"

	"github.com/toolout/toolout/core/jsonspan"
)

// ExpandToolName is the phantom tool the gateway offers and answers itself.
const ExpandToolName = "expand_context"

// ExpandToolDescription tells the model what the phantom tool does.
const ExpandToolDescription = "Some tool results were compressed and start with <<<SHADOW:shadow_...>>>. " +
	"Call expand_context with that shadow_id to get the full original output when the compressed text lacks what you need."

// ExpandParams is the JSON Schema of the phantom tool's arguments.
const ExpandParams = `{"type":"object","properties":{"shadow_id":{"type":"string","description":"The id after <<<SHADOW: in a compressed tool result, e.g. shadow_0123abcd..."}},"required":["shadow_id"],"additionalProperties":false}`

// ExpandMissing is the fixed answer for a shadow id that is unknown or whose
// original expired: an explanation the model can act on, not an error.
func ExpandMissing(id string) string {
	return fmt.Sprintf("The original content for %s is no longer available (unknown id, or it expired). "+
		"Answer from the compressed text you have, or call the original tool again.", id)
}

// ExpandNotAvailable is the fixed answer for a shadow id the gateway did
// not issue into this conversation. It does not depend on the store, so it
// tells nothing about other conversations.
func ExpandNotAvailable(id string) string {
	return fmt.Sprintf("The content for %s is not available in this conversation. "+
		"Only the shadow ids of compressed tool results in this conversation can be expanded.", id)
}

// Answers of an expand_context call (Expansion.Answer, Observer.Expansion).
const (
	AnswerOriginal     = "original"
	AnswerMissing      = "missing"
	AnswerRepeated     = "repeated"
	AnswerNotAvailable = "not_available"
)

// AllAnswers returns every Answer* constant, as proxy.AllOutcomes does the outcomes.
func AllAnswers() []string {
	return []string{AnswerOriginal, AnswerMissing, AnswerRepeated, AnswerNotAvailable}
}

// ExpandRepeated answers a shadow id already expanded in this request.
func ExpandRepeated(id string) string {
	return fmt.Sprintf("The original content for %s was already expanded above in this conversation.", id)
}

// PhantomCall is one expand_context call in a model response.
type PhantomCall struct {
	ID       string
	ShadowID string
	// Raw is the call as the response wrote it, replayed into the request.
	Raw []byte
}

// Wire is one provider's wire format (core/gateway/openai,
// core/gateway/anthropic, core/gateway/responses): it reads a request body into a [Conversation]
// once, and reads and edits model responses. Edits are splices: bytes
// outside the edited values stay as they were. Implementations are
// stateless and safe for concurrent use.
type Wire interface {
	// Name is the route: "openai", "anthropic" or "responses".
	Name() string
	// Path is the endpoint the proxy serves for this format.
	Path() string
	// Read parses a request body: its tool results, the user's last
	// question, whether it streams. A body that is not a JSON object is an
	// error naming the byte offset.
	Read(body []byte) (*Conversation, error)
	// ReadBounded is Read within JSON bounds, in the same one parse: a
	// body past one is the *LimitError of [ParseObjectBounded].
	ReadBounded(body []byte, b Bounds) (*Conversation, error)
	// PhantomCalls lists the expand_context calls of a response.
	PhantomCalls(resp []byte) ([]PhantomCall, error)
	// AppendExpansions appends to the request's messages the assistant
	// turn of resp as the model wrote it minus its real tool calls (text,
	// and thinking blocks with their signatures, which the API requires
	// back), with the phantom calls, then their answers.
	AppendExpansions(body, resp []byte, calls []PhantomCall, answers []string) ([]byte, error)
	// StripPhantom removes phantom calls from a response.
	StripPhantom(resp []byte) ([]byte, error)
	// Assemble turns a server-sent stream into the one response body the
	// non-streaming API returns; a cut stream is an error, and a stream
	// the format cannot map wraps ErrUnassembled.
	Assemble(raw []byte) ([]byte, error)
	// Restream is the inverse of Assemble: a response body as a complete
	// stream, for when the model's own stream cannot be relayed.
	Restream(resp []byte) ([]byte, error)
	// ErrorBody renders an error the gateway itself answers with (a
	// refused body, a timeout) in the API's error shape, so that SDKs
	// raise their usual error with the message.
	ErrorBody(status int, msg string) []byte
}

// ErrUnassembled wraps a stream that a Wire cannot assemble although the
// upstream sent it whole (content the format does not map): the proxy
// relays such a stream as it came when it names no phantom call.
var ErrUnassembled = errors.New("stream not assembled")

// Conversation is a request body read once by a Wire: the pipe and the
// expand loop work on it, and Rewrite makes every edit of the first forward
// in one splice over the same parse.
type Conversation struct {
	Body []byte
	Root *jsonspan.Node
	// Outputs are the tool results; Contents[i] is the JSON value holding
	// Outputs[i].Content.
	Outputs  []ToolOutput
	Contents []*jsonspan.Node
	// Query is the text of the last user message that has text.
	Query string
	// Stream is true when the request asks for a server-sent stream.
	Stream bool
	// ExpandTool is the wire's definition of the expand_context tool, one
	// element of the request's "tools" array.
	ExpandTool []byte
	// HiddenHistory names the member of the request by which it continues
	// a conversation the provider holds ("previous_response_id" or
	// "conversation" on the Responses API), or is "": the gateway sees,
	// and compresses, only the items the request carries.
	HiddenHistory string
}

// HoldOutputs sets each output's Held from the string node its content is
// (the same string, not a copy: a content joined from parts holds its
// own allocation too, but of a size only the allocator knows).
func (c *Conversation) HoldOutputs() {
	for i := range c.Outputs {
		if i < len(c.Contents) {
			if n := c.Contents[i]; n != nil && n.Kind == '"' && n.Held > 0 && len(n.Str) == len(c.Outputs[i].Content) &&
				n.Str == c.Outputs[i].Content {
				c.Outputs[i].Held = n.Held
			}
		}
	}
}

// Rewrite returns the body with the compressed outputs' contents replaced
// by their text and, when expand is true, the expand_context tool appended
// to "tools" (created when absent).
func (c *Conversation) Rewrite(results []Result, expand bool) ([]byte, error) {
	var edits []jsonspan.Edit
	for _, r := range results {
		if r.Action != ActionCompressed {
			continue
		}
		if r.Index < 0 || r.Index >= len(c.Contents) {
			return nil, fmt.Errorf("gateway: rewrite: no tool output %d", r.Index)
		}
		n := c.Contents[r.Index]
		edits = append(edits, jsonspan.Edit{Start: n.Start, End: n.End, Text: jsonspan.String(r.Text)})
	}
	if expand {
		if tools := c.Root.Get("tools"); tools != nil && tools.Kind == '[' {
			edits = append(edits, jsonspan.AppendToArray(tools, c.ExpandTool))
		} else {
			edits = append(edits, jsonspan.AddKey(c.Root, "tools", append(append([]byte("["), c.ExpandTool...), ']')))
		}
	}
	return jsonspan.Splice(c.Body, edits), nil
}
