package proxy_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/memstore"
	"github.com/toolout/toolout/core/gateway/openai"
	"github.com/toolout/toolout/core/gateway/proxy"
	"github.com/toolout/toolout/internal/httpspec"
)

// takingStore is a memory store that records how each original came.
type takingStore struct {
	*memstore.Store
	mu          sync.Mutex
	put, taken  int
	lastTakeLen int
}

func (s *takingStore) PutOriginal(ctx context.Context, caller, id, content string) error {
	s.mu.Lock()
	s.put++
	s.mu.Unlock()
	return s.Store.PutOriginal(ctx, caller, id, content)
}

func (s *takingStore) TakeOriginal(ctx context.Context, caller, id, content string, held int) error {
	s.mu.Lock()
	s.taken++
	s.lastTakeLen = len(content)
	s.mu.Unlock()
	return s.Store.TakeOriginal(ctx, caller, id, content, held)
}

var _ = Describe("originals kept without a copy", func() {
	newPipe := func(st gateway.Store) *gateway.Pipe {
		p, err := gateway.NewPipe(gateway.Options{Config: gateway.Config{RateLimit: 1000}, Compressor: gateway.Simple{Words: 8}, Store: st})
		Expect(err).NotTo(HaveOccurred())
		return p
	}

	It("gives the store a content the parse made for the output alone, and copies any other", func() {
		st := &takingStore{Store: memstore.New(gateway.StoreOptions{})}
		p := newPipe(st)
		long := strings.Repeat("log line ", 1000)
		_, err := p.Process(context.Background(), []gateway.ToolOutput{
			{Index: 0, Tool: "a", Content: long + "1", Held: len(long) + 1},
			{Index: 1, Tool: "b", Content: long + "2"},
		}, "q")
		Expect(err).NotTo(HaveOccurred())
		Expect(st.taken).To(Equal(1))
		Expect(st.put).To(Equal(1))
	})

	It("takes a tool result the proxy decoded from the request body", func() {
		st := &takingStore{Store: memstore.New(gateway.StoreOptions{})}
		up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
		}))
		DeferCleanup(up.Close)
		u, _ := url.Parse(up.URL)
		front := httptest.NewServer(proxy.New(&gateway.Gateway{Pipe: newPipe(st), Wire: openai.Wire{}}, u, up.Client()))
		DeferCleanup(front.Close)
		result := strings.Repeat(`db-1 status=ok\n`, 800)
		resp, _ := httpspec.Post(front.URL+openai.Path, chatBody("1", "logs__query", result, false))
		Expect(resp.StatusCode).To(Equal(200))
		Expect(st.taken).To(Equal(1))
		Expect(st.lastTakeLen).To(Equal(len(result))) // chatBody encodes it
	})
})
