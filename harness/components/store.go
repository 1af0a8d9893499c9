package components

import (
	"context"
	"fmt"

	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
	"github.com/toolout/toolout/harness"
)

// store component: the oversize policy (session.DefaultPolicy with this
// byte cap, 0 for none) and the store on a list of outputs.
//
//	component: store
//	config: {max_bytes: 2048, remaining_tokens: -1}
//	input:
//	  outputs: [{tool: logs__query, args: '{"since":"1h"}', output: <Text>}]
//	expect: {stored: 1}
type storeConfig struct {
	MaxBytes int `yaml:"max_bytes"`
	// RemainingTokens is the context budget left; negative disables the rule.
	RemainingTokens int `yaml:"remaining_tokens"`
}

type storeInput struct {
	Outputs []struct {
		Tool   string       `yaml:"tool"`
		Args   string       `yaml:"args"`
		Output harness.Text `yaml:"output"`
	} `yaml:"outputs"`
}

type storeExpect struct {
	Stored *int `yaml:"stored"`
}

type storeDecision struct {
	Tool    string      `json:"tool"`
	Stats   store.Stats `json:"stats"`
	Stored  bool        `json:"stored"`
	Reason  string      `json:"reason,omitempty"`
	Message string      `json:"message"`
}

func registerStore(reg *harness.Registry) {
	harness.Register(reg, harness.Spec[storeConfig, storeInput, storeExpect, []storeDecision]{
		Name:     "store",
		Doc:      "applies the oversize policy and the store (core/store) to input.outputs",
		Defaults: func(c *storeConfig) { c.RemainingTokens = -1 },
		Run: func(_ context.Context, env *harness.Env, cfg *storeConfig, in *storeInput) ([]storeDecision, error) {
			tk := tokens.MustNew(tokens.Default)
			st, err := store.New(store.Options{Base: env.TempDir, Sources: env.Sources})
			if err != nil {
				return nil, err
			}
			defer st.Close()
			policy := session.DefaultPolicy() // k = 1, Read and Grep exempt
			policy.MaxBytes = cfg.MaxBytes
			var out []storeDecision
			for _, o := range in.Outputs {
				stats := store.Measure(o.Output.Value, tk)
				d := policy.Decide(o.Tool, stats, cfg.RemainingTokens)
				dec := storeDecision{Tool: o.Tool, Stats: stats, Stored: d.Store, Reason: d.Reason, Message: o.Output.Value}
				if d.Store {
					m, err := st.Put(o.Tool, o.Args, o.Output.Value, stats)
					if err != nil {
						return nil, err
					}
					dec.Message = store.HandleMessage(m)
				}
				if !d.Store && len(dec.Message) > 200 { // handle messages are shown whole
					dec.Message = dec.Message[:200] + fmt.Sprintf("… (%d bytes)", len(dec.Message))
				}
				out = append(out, dec)
			}
			return out, nil
		},
		Check: func(exp *storeExpect, got []storeDecision) []harness.Mismatch {
			n := 0
			for _, d := range got {
				if d.Stored {
					n++
				}
			}
			m := want("stored", exp.Stored, n)
			if m != nil {
				var decisions []string
				for _, d := range got {
					line := d.Tool + ": not stored"
					if d.Stored {
						line = d.Tool + ": stored"
					}
					if d.Reason != "" {
						line += " (" + d.Reason + ")"
					}
					decisions = append(decisions, line)
				}
				m[0].Msg += "; " + harness.Found("decisions", decisions)
			}
			return m
		},
	})
}
