package proxy_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// unread is a body that fails the spec when it is read.
type unread struct{}

func (unread) Read([]byte) (int, error) {
	Fail("the body was read")
	return 0, errors.New("read")
}

// oneByte hands its body out a byte per Read, as a slow client sends it.
type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }

var _ = Describe("ReadBody", func() {
	const max = 1000
	read := func(body io.Reader, declared int64) ([]byte, *proxy.BodyError) {
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", body)
		req.ContentLength = declared
		return proxy.ReadBody(httptest.NewRecorder(), req, max)
	}

	DescribeTable("reads the body as sent, whatever its Content-Length says, within the limit",
		func(size int, declared int64, slow bool) {
			sent := strings.Repeat("0123456789", size/10+1)[:size]
			var body io.Reader = strings.NewReader(sent)
			if slow {
				body = oneByte{body}
			}
			got, err := read(body, declared)
			Expect(err).To(BeNil())
			Expect(string(got)).To(Equal(sent))
		},
		func(size int, declared int64, slow bool) string {
			return fmt.Sprintf("a body of %d bytes with Content-Length %d (slow: %v)", size, declared, slow)
		},
		Entry(nil, 700, int64(700), false),
		Entry(nil, 700, int64(700), true),
		Entry("absent", 700, int64(-1), false),
		Entry("zero", 700, int64(0), false),
		Entry("lying short", 700, int64(10), false),
		Entry("lying short, a byte at a time", 700, int64(10), true),
		Entry("lying long", 700, int64(max), false),
		Entry("lying long, a byte at a time", 700, int64(900), true),
		Entry("empty, lying long", 0, int64(500), false),
		Entry("at the limit", max, int64(max), false),
		Entry("at the limit, lying short", max, int64(1), false),
	)

	It("takes a declared Content-Length as a hint of at most 1 MiB: a client that declares 64 MiB and sends 10 bytes costs no 64 MiB buffer", func() {
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader("0123456789"))
		req.ContentLength = 64 << 20
		got, err := proxy.ReadBody(httptest.NewRecorder(), req, 64<<20)
		Expect(err).To(BeNil())
		Expect(string(got)).To(Equal("0123456789"))
		Expect(cap(got)).To(BeNumerically("<=", 1<<20))
		big := strings.Repeat("x", 3<<20) // past the hint, read whole
		req = httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(big))
		req.ContentLength = int64(len(big))
		got, err = proxy.ReadBody(httptest.NewRecorder(), req, 64<<20)
		Expect(err).To(BeNil())
		Expect(string(got)).To(Equal(big))
	})

	It("refuses a declared Content-Length over the limit with 413 before reading any of the body", func() {
		_, err := read(unread{}, max+1)
		Expect(err).To(Equal(&proxy.BodyError{Status: http.StatusRequestEntityTooLarge, Msg: "request body larger than 1000 bytes (Content-Length 1001)"}))
	})

	DescribeTable("refuses a body over the limit with 413 once the limit is read, whatever its Content-Length says",
		func(declared int64) {
			_, err := read(strings.NewReader(strings.Repeat("x", max+50)), declared)
			Expect(err).To(Equal(&proxy.BodyError{Status: http.StatusRequestEntityTooLarge, Msg: "request body larger than 1000 bytes"}))
		},
		Entry("absent", int64(-1)),
		Entry("lying short", int64(10)),
		Entry("lying short by one byte", int64(max)),
	)

	It("answers 400 to a body that breaks off", func() {
		_, err := read(io.MultiReader(strings.NewReader("{\"a\":"), iotestErr{}), 500)
		Expect(err.Status).To(Equal(http.StatusBadRequest))
		Expect(err.Msg).To(Equal("cannot read the request body: connection reset"))
	})
})

// iotestErr is a read that fails.
type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

// FuzzReadBody holds ReadBody to io.ReadAll on any body, declared length
// and read size: the body as sent within the limit, 413 past it.
func FuzzReadBody(f *testing.F) {
	f.Add([]byte(`{"a":1}`), int64(7), 3)
	f.Add([]byte(`{"a":1}`), int64(2), 1)
	f.Add([]byte(`{"a":1}`), int64(64), 100)
	f.Add([]byte{}, int64(-1), 1)
	f.Fuzz(func(t *testing.T, sent []byte, declared int64, piece int) {
		const limit = 64
		piece = 1 + max(0, min(piece, 1000))
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", pieces{bytes.NewReader(sent), piece})
		req.ContentLength = declared
		got, err := proxy.ReadBody(httptest.NewRecorder(), req, limit)
		switch {
		case declared > limit || len(sent) > limit:
			if err == nil || err.Status != http.StatusRequestEntityTooLarge {
				t.Fatalf("%d bytes, Content-Length %d: %v, want 413", len(sent), declared, err)
			}
		case err != nil || !bytes.Equal(got, sent):
			t.Fatalf("%d bytes, Content-Length %d: read %q, %v", len(sent), declared, got, err)
		}
	})
}

// pieces hands its body out at most n bytes per Read.
type pieces struct {
	r io.Reader
	n int
}

func (p pieces) Read(b []byte) (int, error) { return p.r.Read(b[:min(len(b), p.n)]) }
