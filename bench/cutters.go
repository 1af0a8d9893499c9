package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolout/toolout/core/headtail"
	"github.com/toolout/toolout/core/jqquery"
	"github.com/toolout/toolout/core/jsonaware"
)

// headTail is the head-tail row: the output cut by core/headtail to the
// byte cap (its default ratio, 20% head and 80% tail, and the middle's
// error-like lines), as the truncate row's cut lands in the main context.
// The note counts the error-like lines of the middle kept and cut, when
// there were any.
func headTail(output string, byteCap int) (kept, note string, err error) {
	kept, st := headtail.Cut(output, byteCap, headtail.Options{})
	if st.ErrorLinesKept+st.ErrorLinesDropped == 0 {
		return kept, "", nil
	}
	return kept, fmt.Sprintf("middle: %d error-like lines kept, %d cut", st.ErrorLinesKept, st.ErrorLinesDropped), nil
}

// jsonAware is the json-aware row: a JSON output shortened by
// core/jsonaware to the byte cap (keys kept, long strings and arrays cut
// with counts, first, last and error-like rows kept). An output that is
// not JSON falls back to head-tail's cut (a truncate replacement that
// keeps the tail and the errors), and the note says so. When even
// jsonaware's smallest form is over the cap, that form is what lands, and
// the note says it. Output that is not valid JSON is an error, which ends
// the comparison: json-aware promises valid JSON on every case.
func jsonAware(output string, byteCap int) (kept, note string, err error) {
	if !json.Valid([]byte(output)) {
		kept, _ = headtail.Cut(output, byteCap, headtail.Options{})
		return kept, "not JSON: head-tail's cut", nil
	}
	out, st, err := jsonaware.Shorten([]byte(output), byteCap, jsonaware.Options{})
	if err != nil {
		return "", "", fmt.Errorf("jsonaware refused valid JSON: %w", err)
	}
	if !json.Valid(out) {
		return "", "", fmt.Errorf("jsonaware's output (%d bytes) is not valid JSON", len(out))
	}
	if st.Step == 0 {
		return string(out), "", nil
	}
	note = fmt.Sprintf("%d rows cut, %d error-like kept; %d strings shortened", st.RowsCut, st.ErrorRowsKept, st.StringsShortened)
	if st.OverBudget {
		note += fmt.Sprintf("; smallest form %d bytes, over the cap", st.OutBytes)
	}
	return string(out), note, nil
}

// QueryOracle is the jq expression the query row's model writes, as a good
// model would for the corpus's question: every string of the JSON output,
// at any depth, scanned for the facts asked for, each once.
const QueryOracle = `[.. | strings | scan("fact-[0-9]+=[0-9a-f]{8}")] | unique | .[]`

// query is the query row: tool_output's query mode (core/jqquery) running
// QueryOracle on the output, its printed results within the byte cap, what
// lands in the main context. Output that is not JSON gets query mode's
// failure, which names no fact (a model would then pick another mode: the
// row measures query alone), and the note says so.
func query(ctx context.Context, output string, byteCap int) (kept, note string) {
	r, err := jqquery.Run(ctx, output, QueryOracle, jqquery.Options{MaxOutputBytes: byteCap})
	var e *jqquery.Error
	switch {
	case errors.As(err, &e) && e.Kind == jqquery.NotJSON:
		return e.Msg, "not JSON: query mode refused it"
	case err != nil:
		return err.Error(), "query failed: " + err.Error()
	case r.Cut:
		return r.Text, fmt.Sprintf("%d facts printed, cut at the byte cap", r.Values)
	}
	return r.Text, ""
}
