package serve_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/fakes"
	"github.com/toolout/toolout/harness/serve"
	"github.com/toolout/toolout/internal/httpspec"
)

// Specs of toolout serve against misbehaving clients, on real TCP; raw
// connections where a client must do what net/http's would not.
var _ = Describe("toolout serve against misbehaving clients", func() {
	dial := func(base string) net.Conn {
		conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _ = conn.Close() }) // closed once more when the spec closed it
		Expect(conn.SetDeadline(time.Now().Add(30 * time.Second))).To(Succeed())
		return conn
	}

	It("refuses a Content-Length over MaxBodyBytes with 413 before asking for the body, spending no step", func() {
		r := start(serve.Options{MaxBodyBytes: 1 << 20}, overCap)
		conn := dial(r.base)
		_, err := fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\nExpect: 100-continue\r\n\r\n", 100<<20)
		Expect(err).NotTo(HaveOccurred())
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		Expect(err).NotTo(HaveOccurred())
		b, _ := io.ReadAll(resp.Body)
		Expect(resp.StatusCode).To(Equal(http.StatusRequestEntityTooLarge), "not 100 Continue: the client sends nothing it need not")
		Expect(string(b)).To(ContainSubstring("request body larger than 1048576 bytes (Content-Length 104857600)"))
		Expect(r.srv.Calls("session/over-cap-handle")).To(BeEmpty())
		Expect(post(r.base+"/v1/chat/completions", openaiTurn1).status).To(Equal(http.StatusOK))
	})

	It("answers a body slower than the read timeout with 408, spending no step", func() {
		srv, err := serve.Load([]string{overCap}, serve.Options{})
		Expect(err).NotTo(HaveOccurred())
		ln, err := serve.Listen("127.0.0.1:0", false)
		Expect(err).NotTo(HaveOccurred())
		hs := srv.HTTPServer()
		hs.ReadTimeout = 300 * time.Millisecond
		go func() { _ = hs.Serve(ln) }()
		DeferCleanup(hs.Close)
		conn := dial("http://" + ln.Addr().String())
		_, err = fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\n\r\n%s", len(openaiTurn1), openaiTurn1[:20])
		Expect(err).NotTo(HaveOccurred())
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		Expect(err).NotTo(HaveOccurred())
		b, _ := io.ReadAll(resp.Body)
		Expect(resp.StatusCode).To(Equal(http.StatusRequestTimeout), string(b))
		Expect(string(b)).To(ContainSubstring("the request body did not come in time: "))
		Expect(srv.Calls("session/over-cap-handle")).To(BeEmpty())
	})

	DescribeTable("writes for longer than it reads and than Timeout, so that a 408 and a whole stream reach their client",
		func(timeout time.Duration) {
			srv, err := serve.Load([]string{overCap}, serve.Options{Timeout: timeout})
			Expect(err).NotTo(HaveOccurred())
			hs := srv.HTTPServer()
			Expect(hs.WriteTimeout).To(BeNumerically(">=", max(hs.ReadTimeout, timeout)+30*time.Second))
		},
		Entry("the default Timeout", time.Duration(0)),
		Entry("a Timeout longer than the read timeout", 5*time.Minute),
	)

	It("drops the connection when a stream's delays run past Timeout, so that the cut answer is not taken for whole", func() {
		file := filepath.Join(GinkgoT().TempDir(), "slow.yaml")
		Expect(os.WriteFile(file, []byte("component: session\ninput: {user: hi}\nllm:\n- id: slow\n  match: {user: [slow]}\n"+
			"  respond:\n    text: Request 1077 failed.\n    stream: {chunks: 3, delay: {every: 5s}}\n"), 0o644)).To(Succeed())
		var log httpspec.Log
		r := start(serve.Options{Timeout: 300 * time.Millisecond, Logf: log.Logf}, file)
		resp, err := http.Post(r.base+"/v1/chat/completions", "application/json", strings.NewReader(openaiStream("slow", "")))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		Expect(resp.StatusCode).To(Equal(http.StatusOK))
		b, err := io.ReadAll(resp.Body)
		Expect(err).To(MatchError(io.ErrUnexpectedEOF), string(b))
		Expect(string(b)).NotTo(ContainSubstring("[DONE]"))
		Expect(log.Lines()).To(ContainElement(HaveSuffix("the answer was cut short: context deadline exceeded")))
	})

	It("spends no step on a client that goes away mid-body, and one on a client that goes away before reading its answer", func() {
		r := start(serve.Options{}, overCap)
		conn := dial(r.base)
		_, err := fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\n\r\n%s", len(openaiTurn1), openaiTurn1[:20])
		Expect(err).NotTo(HaveOccurred())
		Expect(conn.Close()).To(Succeed())
		Expect(post(r.base+"/v1/chat/completions", openaiTurn1).status).To(Equal(http.StatusOK), "the first turn's step was still there")

		conn = dial(r.base)
		_, err = fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
			"Content-Length: %d\r\n\r\n%s", len(openaiTurn2), openaiTurn2)
		Expect(err).NotTo(HaveOccurred())
		status, err := bufio.NewReader(conn).ReadString('\n') // matched and answered; the body is never read
		Expect(err).NotTo(HaveOccurred())
		Expect(status).To(Equal("HTTP/1.1 200 OK\r\n"))
		Expect(conn.Close()).To(Succeed())
		Expect(r.srv.Calls("session/over-cap-handle")).To(HaveLen(2))
		a := post(r.base+"/v1/chat/completions", openaiTurn2)
		Expect(a.status).To(Equal(http.StatusUnprocessableEntity), "the second turn's step was answered, to a client that was gone")
		Expect(a.body).To(ContainSubstring(`step \"answer\" matches but is used up`))
	})
})

var _ = Describe("toolout serve's memory over many requests", func() {
	It("keeps each request's tag only, and at most fakes.MaxKept calls and violations, counting the rest", func() {
		r := start(serve.Options{}, overCap)
		big := `{"messages":[{"role":"user","content":"` + strings.Repeat("x", 64<<10) + `"}]}`
		Expect(post(r.base+"/v1/chat/completions", big).status).To(Equal(http.StatusOK))
		Expect(post(r.base+"/v1/chat/completions", big).status).To(Equal(http.StatusUnprocessableEntity))
		for range fakes.MaxKept + 3 {
			Expect(post(r.base+"/v1/chat/completions", userX).status).To(Equal(http.StatusUnprocessableEntity))
		}
		calls := r.srv.Calls("session/over-cap-handle")
		Expect(calls).To(HaveLen(fakes.MaxKept))
		Expect(calls[0].Request.Messages).To(BeEmpty(), "a request's 64 KiB are not kept")
		Expect(calls[0].Request.Tag.String()).To(Equal("session.turn turn=1"))
		problems := r.srv.Problems()
		Expect(problems).To(HaveLen(fakes.MaxKept + 2)) // the kept violations, the count of the others, the unused step
		Expect(problems[fakes.MaxKept].String()).To(Equal(fmt.Sprintf("scenarios/session/over-cap-handle.yaml: 4 more violation(s) not kept (at most %d are)", fakes.MaxKept)))
	})
})
