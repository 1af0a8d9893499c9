package gateway_test

import (
	"context"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
)

var _ = Describe("Identity", func() {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}

	It("makes one caller of one API key, however the wire sends it, and never shows the key", func() {
		want := gateway.Identity{}.Caller(h("Authorization", "Bearer sk-one"))
		Expect(want).To(MatchRegexp(`^[0-9a-f]{32}$`))
		for _, hd := range []http.Header{
			h("Authorization", "bearer  sk-one "), // the Responses API and OpenAI SDKs
			h("x-api-key", "sk-one"),              // Anthropic, Claude Code
			h("x-api-key", "sk-one", "Authorization", "Bearer other"),
			h("api-key", "sk-one"), // Azure OpenAI
		} {
			Expect(gateway.Identity{}.Caller(hd)).To(Equal(want), "%v", hd)
		}
		Expect(gateway.Identity{}.Caller(h("Authorization", "Bearer sk-two"))).NotTo(Equal(want))
		Expect(gateway.Identity{Salt: "s"}.Caller(h("Authorization", "Bearer sk-one"))).NotTo(Equal(want), "the salt keys the hash")
		Expect(want).NotTo(ContainSubstring("sk-one"))
	})

	It("takes the named header first, then the key, then the one anonymous scope", func() {
		id := gateway.Identity{Header: "X-User-Id"}
		alice := id.Caller(h("X-User-Id", "alice", "Authorization", "Bearer shared"))
		Expect(alice).To(Equal(id.Caller(h("x-user-id", " alice", "Authorization", "Bearer other"))), "the key does not matter")
		Expect(alice).NotTo(Equal(id.Caller(h("X-User-Id", "bob", "Authorization", "Bearer shared"))))
		Expect(alice).NotTo(Equal(id.Caller(h("Authorization", "Bearer alice"))), "a header value and a key are other callers")
		Expect(id.Caller(h("Authorization", "Bearer k"))).To(Equal(gateway.Identity{}.Caller(h("Authorization", "Bearer k"))))
		Expect(id.Caller(h("X-User-Id", "  "))).To(Equal(gateway.AnonymousCaller))
		Expect(gateway.Identity{}.Caller(h("Authorization", "Bearer "))).To(Equal(gateway.AnonymousCaller))
	})

	It("refuses a header name that is not one", func() {
		Expect(gateway.Identity{Header: "X-User-Id"}.Validate()).To(Succeed())
		Expect(gateway.Identity{Header: "X User"}.Validate()).To(MatchError(`header "X User": not an HTTP header name (byte 2)`))
	})

	It("carries the caller in a context, the anonymous one by default", func() {
		ctx := context.Background()
		Expect(gateway.CallerOf(ctx)).To(Equal(gateway.AnonymousCaller))
		Expect(gateway.CallerOf(gateway.WithCaller(ctx, "c1"))).To(Equal("c1"))
	})

	It("keys an original unambiguously by caller and id", func() {
		Expect(gateway.OriginalKey("a:1", "x")).NotTo(Equal(gateway.OriginalKey("a", "1:x")))
		Expect(gateway.OriginalKey("", "shadow_1")).To(Equal("0::shadow_1"))
		Expect(strings.Count(gateway.OriginalKey("c", "i"), ":")).To(Equal(2))
	})
})
