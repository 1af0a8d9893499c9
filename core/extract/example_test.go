package extract_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/extract"
	"github.com/toolout/toolout/core/finalreport"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// tool_output on a stored output: auto routes a small output to
// full-chunked in one chunk, whose map answer is the result.
func ExampleExtractor_Run() {
	const nonce = "0123456789abcdef"
	base, err := os.MkdirTemp("", "extract-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(base)
	src := core.Sources{NewID: func() string { return "00000000-0000-4000-8000-000000000001" }}
	st, err := store.New(store.Options{Base: base, SessionID: "example", Sources: src})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	tk := tokens.MustNew(tokens.CL100K)
	output := "id,status\n1,shipped\n2,chargeback\n3,shipped\n"
	m, err := st.Put("orders__list", `{"since":"1d"}`, output, store.Measure(output, tk))
	if err != nil {
		fmt.Println(err)
		return
	}
	model := core.LLMFunc(func(_ context.Context, req core.Request) (core.Response, error) {
		chunk := req.Messages[len(req.Messages)-1].Content
		var ids []string
		for _, line := range strings.Split(chunk, "\n") {
			if id, ok := strings.CutSuffix(line, ",chargeback"); ok {
				ids = append(ids, id)
			}
		}
		return core.Response{Text: finalreport.Wrap(nonce, "chargebacks: "+strings.Join(ids, ", "))}, nil
	})
	ex, err := extract.New(extract.Options{Store: st, LLM: model, Tokenizer: tk, Nonce: nonce, Config: extract.DefaultConfig()})
	if err != nil {
		fmt.Println(err)
		return
	}
	args, _ := json.Marshal(map[string]string{"handle": m.Handle, "extract": "Which orders are chargebacks?"})
	text, isError := ex.Run(context.Background(), args)
	fmt.Println(isError)
	fmt.Println(text)
	// Output:
	// false
	// ABSTRACT FROM TOOL OUTPUT orders__list WITH HANDLE 00000000-0000-4000-8000-000000000001, STRATEGY:full-chunked:
	//
	// chargebacks: 2
}

// An operator who offers head-tail gets it in the mode enum; the default
// is the spec's exact schema.
func ExampleToolFor() {
	enum := func(t core.Tool) []string {
		var s struct {
			Properties struct {
				Mode struct {
					Enum []string `json:"enum"`
				} `json:"mode"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(t.InputSchema, &s); err != nil {
			return nil
		}
		return s.Properties.Mode.Enum
	}
	c := extract.DefaultConfig()
	fmt.Println(enum(extract.ToolFor(c)))
	c.OfferModes = []string{extract.ModeHeadTail}
	fmt.Println(enum(extract.ToolFor(c)))
	// Output:
	// [auto full-chunked read-grep truncate]
	// [auto full-chunked read-grep truncate head-tail]
}
