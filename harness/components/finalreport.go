package components

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/harness"
)

// finalreport component:
//
//	component: finalreport
//	config: {nonce: abc}
//	input: {text: <Text>}
//	expect: {found: true, content: "hi", closed: false}
type finalReportConfig struct {
	Nonce string `yaml:"nonce"`
}

func (c finalReportConfig) Validate() error {
	if c.Nonce == "" {
		return errors.New("nonce is required")
	}
	return nil
}

type finalReportInput struct {
	Text harness.Text `yaml:"text"`
}

type finalReportExpect struct {
	Found   *bool   `yaml:"found"`
	Content *string `yaml:"content"`
	Closed  *bool   `yaml:"closed"`
}

func registerFinalReport(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[finalReportConfig, finalReportInput, finalReportExpect, finalreport.Report]{
		Name: "finalreport",
		Doc:  "parses a final-report wrapper from input.text with config.nonce",
		Run: func(_ context.Context, _ *harness.Env, cfg *finalReportConfig, in *finalReportInput) (finalreport.Report, error) {
			return finalreport.Parse(in.Text.Value, cfg.Nonce)
		},
		Check: func(exp *finalReportExpect, got finalreport.Report) []harness.Mismatch {
			var out []harness.Mismatch
			out = append(out, want("found", exp.Found, got.Found)...)
			out = append(out, want("content", exp.Content, got.Content)...)
			out = append(out, want("closed", exp.Closed, got.Closed)...)
			return out
		},
	})
}

// want compares an optional expectation with a value.
func want[T comparable](field string, exp *T, got T) []harness.Mismatch {
	if exp == nil || *exp == got {
		return nil
	}
	return []harness.Mismatch{{Field: field, Msg: fmt.Sprintf("got %s, want %s", show(got), show(*exp))}}
}

// show renders a value for a mismatch: a string by harness.Show (bounded),
// anything else as Go syntax (%#v).
func show(v any) string {
	if s, ok := v.(string); ok {
		return harness.Show(s)
	}
	return fmt.Sprintf("%#v", v)
}
