package extract

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/headtail"
	"github.com/toolout/toolout/core/jqquery"
	"github.com/toolout/toolout/core/jsonaware"
)

// headTail is the head-tail strategy: output cut to TruncateBytes, the head
// getting HeadPercent of it, the error-like lines of the middle kept. It
// cannot fail and calls no model.
// query runs the call's jq expression on output (core/jqquery), its
// printed results at most TruncateBytes; a failure is the text the model
// gets, to write another expression.
func (e *Extractor) query(ctx context.Context, output, expr string) (string, error) {
	if strings.TrimSpace(expr) == "" {
		return "", errors.New("mode query needs `query`: a jq expression to run on the JSON output, e.g. .items[] | select(.status == \"failed\")")
	}
	r, err := jqquery.Run(ctx, output, expr, jqquery.Options{MaxOutputBytes: e.opts.TruncateBytes})
	if err != nil {
		return "", err
	}
	if r.Values == 0 {
		return "(the expression printed nothing)", nil
	}
	return r.Text, nil
}

func (e *Extractor) headTail(output string) string {
	return headTailCut(output, e.opts.TruncateBytes, e.opts.Config.HeadPercent)
}

// jsonAware is the json-aware strategy: output shortened into valid JSON of
// at most TruncateBytes. Output that is not JSON is a failure (the strategy
// could not execute: spec decision 4), and so is JSON whose smallest form
// (every key path kept) is over the budget (a budget is a bound, so the
// strategy cannot answer within it); either way the caller falls
// back to truncate, which fits, and the failure says why. It calls no
// model.
func (e *Extractor) jsonAware(output string) (string, error) {
	out, over, err := shortenJSON(output, e.opts.TruncateBytes)
	if err != nil {
		return "", err
	}
	if over {
		return "", &OverBudgetError{Bytes: len(out), Budget: e.opts.TruncateBytes}
	}
	return out, nil
}

// OverBudgetError is json-aware's failure on JSON whose smallest form, every
// key path kept, is larger than the budget (an object of thousands of keys).
type OverBudgetError struct {
	// Bytes is the size of the smallest form, Budget the budget it missed.
	Bytes, Budget int
}

func (e *OverBudgetError) Error() string {
	return fmt.Sprintf("extract: json-aware: even the smallest form (every key kept) is %d bytes, over the budget of %d", e.Bytes, e.Budget)
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
	body, _ = TruncateWithin(output, e.opts.TruncateBytes)
	return body, CutBytes
}

// headTailCut cuts text with core/headtail, the head getting headPercent of
// the budget (0: no head).
func headTailCut(text string, maxBytes, headPercent int) string {
	ratio := float64(headPercent) / 100
	if headPercent == 0 {
		ratio = -1 // core/headtail: a negative ratio is no head, 0 its default
	}
	out, _ := headtail.Cut(text, maxBytes, headtail.Options{HeadRatio: ratio})
	return out
}

// shortenJSON shortens doc with core/jsonaware into valid JSON of at most
// maxBytes, or its smallest form when even that is larger (every key path
// kept; over is then true); an input that is not JSON is its
// *jsonlex.SyntaxError (wrapped: "jsonaware: ...").
func shortenJSON(doc string, maxBytes int) (out string, over bool, err error) {
	b, st, err := jsonaware.Shorten([]byte(doc), maxBytes, jsonaware.Options{})
	if err != nil {
		return "", false, err
	}
	return string(b), st.OverBudget, nil
}
