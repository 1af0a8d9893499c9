package proxy_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/core/jsonspan"
)

var _ = Describe("request bodies read into pooled buffers", func() {
	// Buffers given back are overwritten with 'X' in every spec of the
	// package (export_test.go).
	It("gives each client's forward its own bytes while clients send large requests at once", func() {
		var mu sync.Mutex
		got := map[string][]byte{} // the forward of each client, by X-Client
		front, _ := proxyFront(proxy.Limits{}, func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			got[r.Header.Get("X-Client")] = b
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
		})
		// Clients 0-2 send tool results of 18-53 KB (compressed; each seed's
		// kept by the memo of long strings the second time, matched the
		// third), client 3 a
		// user message of 150 KB with nothing to compress (forwarded as it
		// came).
		body := func(c, seed int) []byte {
			n := 800 * (c + 1)
			if c == 3 {
				n = 7000
			}
			text := strings.Repeat(fmt.Sprintf("client %d seed %d line\\n", c, seed), n)
			if c == 3 {
				return []byte(`{"model":"m","messages":[{"role":"user","content":"` + text + `"}]}`)
			}
			return chatBody("1", "logs__query", text, false)
		}
		for round := range 6 {
			var wg sync.WaitGroup
			for c := range 4 {
				wg.Go(func() {
					defer GinkgoRecover()
					b := body(c, round%2)
					req, _ := http.NewRequest(http.MethodPost, front+openai.Path, bytes.NewReader(b))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("X-Client", fmt.Sprint(c))
					req.Header.Set("Authorization", fmt.Sprintf("Bearer key-%d", c))
					resp, err := http.DefaultClient.Do(req)
					Expect(err).NotTo(HaveOccurred())
					out, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					Expect(resp.StatusCode).To(Equal(http.StatusOK), string(out))
					Expect(string(out)).NotTo(ContainSubstring("XXXX"))
					mu.Lock()
					fwd := got[fmt.Sprint(c)]
					mu.Unlock()
					Expect(string(fwd)).NotTo(ContainSubstring("XXXX"))
					if c == 3 {
						Expect(fwd).To(Equal(b))
						return
					}
					root, err := jsonspan.Parse(fwd)
					Expect(err).NotTo(HaveOccurred())
					var content string
					for _, m := range root.Get("messages").Items() {
						if m.Get("role").Text() == "tool" {
							content = m.Get("content").Text()
						}
					}
					Expect(content).To(HavePrefix(gateway.ShadowPrefix))
					Expect(content).To(ContainSubstring(fmt.Sprintf("client %d seed %d", c, round%2)))
				})
			}
			wg.Wait()
		}
	})
})
