package session_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/session"
	"github.com/toolout/toolout/core/store"
)

// exemptTools are the tools base() and propertyPolicy exempt: tool_output
// (always), the default recovery tools, and a never_store override.
var exemptTools = []string{"tool_output", "Read", "Grep", "shot"}

// propertyTools are the tools the properties are checked on.
var propertyTools = append([]string{"t", "logs", "nocap", "half", "noctx", "both"}, exemptTools...)

// propertyPolicy is base() with its byte cap and k replaced.
func propertyPolicy(maxBytes int, k float64) session.Policy {
	p := base()
	p.MaxBytes, p.ContextFactor = maxBytes, k
	return p
}

// satAdd adds d >= 0 to n, stopping at MaxInt.
func satAdd(n, d int) int {
	if n > math.MaxInt-d {
		return math.MaxInt
	}
	return n + d
}

// checkDecide checks the policy's properties on an output a and a bigger
// one (a plus grow, in bytes and tokens): the same answer twice; an exempt
// tool never stored, a cut only for one, never more than the output; a
// stored output has a rule and a reason; and storing is monotone in the
// output's size.
func checkDecide(p session.Policy, tool string, a store.Stats, growBytes, growTokens, remaining int) error {
	b := store.Stats{Bytes: satAdd(max(a.Bytes, 0), growBytes), Tokens: satAdd(max(a.Tokens, 0), growTokens)}
	da, db := p.Decide(tool, a, remaining), p.Decide(tool, b, remaining)
	if again := p.Decide(tool, a, remaining); again != da {
		return fmt.Errorf("%s %+v: two answers: %+v and %+v", tool, a, da, again)
	}
	for _, c := range []struct {
		st store.Stats
		d  session.Decision
	}{{a, da}, {b, db}} {
		d, st := c.d, c.st
		switch {
		case d.Exempt && d.Store:
			return fmt.Errorf("%s %+v: an exempt tool's output is stored: %+v", tool, st, d)
		case d.Cut && (!d.Exempt || d.Keep < 0 || d.Keep > max(st.Bytes, 0)):
			return fmt.Errorf("%s %+v: a bad cut: %+v", tool, st, d)
		case d.Store && (d.Rule == "" || d.Reason == ""):
			return fmt.Errorf("%s %+v: stored without a rule: %+v", tool, st, d)
		case !d.Store && !d.Exempt && (d.Rule != "" || d.Reason != ""):
			return fmt.Errorf("%s %+v: a rule without storing: %+v", tool, st, d)
		}
	}
	if da.Store && !db.Store {
		return fmt.Errorf("%s: %+v is stored (%s) but the bigger %+v is not", tool, a, da.Reason, b)
	}
	return nil
}

var _ = Describe("Policy.Decide's properties", func() {
	It("never stores a recovery tool's output, whatever its size and the context left", func() {
		p := propertyPolicy(1, 0.000001)
		for _, tool := range exemptTools {
			for _, st := range []store.Stats{stats(0, 0), stats(2, 1), stats(1<<40, 1<<38), stats(math.MaxInt, math.MaxInt)} {
				for _, rem := range []int{-1, 0, 1, 1 << 20, math.MaxInt} {
					Expect(p.Decide(tool, st, rem).Store).To(BeFalse(), "%s %+v %d", tool, st, rem)
				}
			}
		}
	})

	It("stores monotonically in the output's size, on 20,000 seeded random cases", func() {
		r := rand.New(rand.NewPCG(21, 2))
		size := func() int { // small, near a limit, or huge
			switch r.IntN(3) {
			case 0:
				return r.IntN(200)
			case 1:
				return r.IntN(1 << 20)
			}
			return r.IntN(math.MaxInt)
		}
		for range 20_000 {
			p := propertyPolicy(size()-100, float64(r.IntN(1_200_001))/1_000_000)
			tool := propertyTools[r.IntN(len(propertyTools))]
			Expect(checkDecide(p, tool, stats(size(), size()), size(), size(), size()-100)).To(Succeed())
		}
	})

	It("stores every output past the smaller limit and none within it, sweeping the size", func() {
		p := propertyPolicy(300, 0.5) // over 300 bytes, or over 0.5 × 1000 tokens
		for n := 0; n <= 2000; n++ {
			st := stats(n, n/2) // two bytes a token
			d := p.Decide("t", st, 1000)
			Expect(d.Store).To(Equal(n > 300), "%d bytes", n)
		}
		for n := 0; n <= 2000; n++ {
			st := stats(n/4, n) // a quarter byte a token: the context limit binds
			Expect(p.Decide("t", st, 1000).Store).To(Equal(n > 500), "%d tokens", n)
		}
	})
})
