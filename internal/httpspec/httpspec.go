// Package httpspec is test support for the specs of toolout's HTTP servers
// (the gateway's proxy, the scripted-model server, the CLI's serve
// commands): one request with its answer read whole, and a log that a
// server's handlers write while a spec reads it. Only test code imports
// this package.
//
// Contract:
//   - [Send], [Get] and [Post] fail the running spec (Gomega's Expect, so they run
//     inside a Ginkgo spec or after gomega.RegisterFailHandler) when the
//     request cannot be built or no response comes. A 4xx or 5xx status is
//     an answer, not a failure: the spec checks it.
//   - They return after the response body is read to its end and closed,
//     with that body as a string. A body that breaks off (a reset, a
//     chunked body without its end) fails the spec too: a spec about cut
//     bodies reads the body itself.
//   - Every request goes through one client with a [Timeout]: a server that
//     never answers fails the spec instead of hanging the suite.
//   - [Log] is safe for concurrent use; [Log.Lines] is a copy.
package httpspec

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Timeout bounds one request, from sending it to the end of its body.
const Timeout = time.Minute

var client = &http.Client{Timeout: Timeout}

// Body is what a request carries: specs hold their bodies as strings or
// as bytes.
type Body interface{ ~string | ~[]byte }

// Send makes one request with body, of Content-Type contentType (none when
// it is ""), and returns the response, its body read and closed, and that
// body.
func Send[B Body](method, url, contentType string, body B) (*http.Response, string) {
	ginkgo.GinkgoHelper()
	req, err := http.NewRequest(method, url, bytes.NewReader([]byte(body)))
	Expect(err).NotTo(HaveOccurred())
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred(), "reading the body of %s %s", method, url)
	return resp, string(out)
}

// Get asks for url, with no body and no Content-Type; see [Send].
func Get(url string) (*http.Response, string) {
	ginkgo.GinkgoHelper()
	return Send(http.MethodGet, url, "", "")
}

// Post sends body to url as application/json; see [Send].
func Post[B Body](url string, body B) (*http.Response, string) {
	ginkgo.GinkgoHelper()
	return Send(http.MethodPost, url, "application/json", body)
}

// Log records the lines its Logf receives, for a server whose handlers log
// while a spec reads them. The zero Log is empty and ready.
type Log struct {
	mu    sync.Mutex
	lines []string
}

// Logf adds one line: a server's Logf option.
func (l *Log) Logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

// Lines returns a copy of the lines so far, oldest first.
func (l *Log) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}
