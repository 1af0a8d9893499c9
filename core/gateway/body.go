package gateway

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
)

// readBody reads a request body within the limits: its size (a declared
// Content-Length over the bound is refused before any of the body is asked
// for, so a client that sent Expect: 100-continue gets 413, not 100
// Continue), then its JSON shape (one pass without allocation), then reads
// it with the route's wire (the one parse of the body). A body with a
// Content-Encoding is refused with 415 (RFC 7694): the gateway reads JSON
// as sent. A body that does not come within the server's read timeout is
// 408.
func (p *Proxy) readBody(w http.ResponseWriter, r *http.Request, wire Wire) (*Conversation, func() string) {
	l := p.Limits.WithDefaults()
	tooLarge := func() string {
		return p.refuse(w, wire, http.StatusRequestEntityTooLarge, OutcomeTooLarge, LimitBodyBytes, fmt.Sprintf("request body larger than %d bytes", l.MaxBodyBytes))
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		return nil, func() string {
			w.Header().Set("Accept-Encoding", "identity")
			return p.refuse(w, wire, http.StatusUnsupportedMediaType, OutcomeBadRequest, "",
				fmt.Sprintf("request Content-Encoding %q is not supported: send the JSON body uncompressed", logLine([]byte(enc))))
		}
	}
	if r.ContentLength > l.MaxBodyBytes {
		return nil, tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, l.MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, tooLarge
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, func() string {
			return p.refuse(w, wire, http.StatusRequestTimeout, OutcomeBadRequest, "", "the request body did not come in time: "+err.Error())
		}
	case err != nil:
		return nil, func() string {
			return p.refuse(w, wire, http.StatusBadRequest, OutcomeBadRequest, "", "cannot read the request body: "+err.Error())
		}
	}
	if err := CheckJSONShape(body, l.MaxJSONValues, l.MaxJSONNesting); err != nil {
		le := err.(*LimitError)
		code := http.StatusRequestEntityTooLarge
		if le.Limit == LimitJSONNesting {
			code = http.StatusBadRequest
		}
		return nil, func() string { return p.refuse(w, wire, code, OutcomeTooLarge, le.Limit, "request body: "+le.Error()) }
	}
	c, err := wire.Read(body)
	if err != nil {
		return nil, func() string {
			return p.refuse(w, wire, http.StatusBadRequest, OutcomeBadRequest, "", strings.TrimPrefix(err.Error(), "gateway: "))
		}
	}
	return c, nil
}
