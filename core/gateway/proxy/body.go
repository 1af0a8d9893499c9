package proxy

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/toolout/toolout/core/gateway"
)

// BodyError is a request body refused before it was parsed: Status is
// the HTTP status to answer with, Msg one line saying why.
type BodyError struct {
	Status int
	Msg    string
}

func (e *BodyError) Error() string { return e.Msg }

// ReadBody reads a request body as sent, at most max bytes: the one body
// reader of the servers (the gateway's routes, toolout serve). A body with
// a Content-Encoding other than identity is refused with 415 (RFC 7694:
// the servers read JSON as sent); a declared Content-Length over max is
// refused with 413 before any of the body is asked for, so a client that
// sent Expect: 100-continue gets no 100 Continue and sends nothing more; a
// longer body is 413 once max bytes are read; one that does not come
// within the server's read timeout is 408 (a status SDKs retry); any other
// read error is 400. The body is read into a buffer of its declared
// Content-Length (within max, since a larger one is refused; at most
// 1 MiB until the bytes come), grown only when the body turns out longer;
// a body of unknown length is read as io.ReadAll reads.
func ReadBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, *BodyError) {
	return readBodyInto(w, r, max, nil)
}

// readBodyInto is ReadBody that reads a body of declared length into
// alloc(n) (a buffer of length 0 and capacity n; nil: make).
func readBodyInto(w http.ResponseWriter, r *http.Request, max int64, alloc func(n int) []byte) ([]byte, *BodyError) {
	if ce := r.Header.Values("Content-Encoding"); len(ce) > 1 || len(ce) == 1 && !strings.EqualFold(ce[0], "identity") {
		return nil, &BodyError{http.StatusUnsupportedMediaType,
			fmt.Sprintf("request Content-Encoding %q is not supported: send the JSON body uncompressed", logLine([]byte(strings.Join(ce, ", "))))}
	}
	if r.ContentLength > max {
		return nil, &BodyError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes (Content-Length %d)", max, r.ContentLength)}
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, max), r.ContentLength, alloc)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, &BodyError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", max)}
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, &BodyError{http.StatusRequestTimeout, "the request body did not come in time: " + err.Error()}
	case err != nil:
		return nil, &BodyError{http.StatusBadRequest, "cannot read the request body: " + err.Error()}
	}
	return body, nil
}

// maxPresize caps the buffer readAll sizes from a declared length: a
// client that declares the limit and sends nothing more costs at most
// this much until its bytes come; a longer body grows past it as it is
// read.
const maxPresize = 1 << 20

// readAll reads r to its end into a buffer of declared bytes (at most
// maxPresize; from alloc unless it is nil) when declared is positive,
// growing it as append does should r hold more (a declared length is a
// hint: the caller bounds r). The buffer is not grown to find the end after
// exactly declared bytes: one byte on the stack probes for it.
func readAll(r io.Reader, declared int64, alloc func(n int) []byte) ([]byte, error) {
	if declared <= 0 {
		return io.ReadAll(r)
	}
	n := int(min(declared, maxPresize))
	var b []byte
	if alloc != nil {
		b = alloc(n)
	} else {
		b = make([]byte, 0, n)
	}
	for {
		if len(b) == cap(b) {
			var probe [1]byte
			n, err := io.ReadFull(r, probe[:])
			if n == 0 {
				if err == io.EOF {
					err = nil
				}
				return b, err
			}
			b = append(b, probe[0])
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// readBody reads a request body within the limits: its bytes (ReadBody),
// then reads it with the route's wire in one parse that also holds it to
// the JSON bounds (Wire.ReadBounded: the errors CheckJSONShape gives).
//
// lent says the body is lent from the body pool, to give back once the
// request is over (unless it then goes upstream as it came).
func (p *Proxy) readBody(w http.ResponseWriter, r *http.Request, wire gateway.Wire) (c *gateway.Conversation, lent bool, refused func() string) {
	l := p.Limits.WithDefaults()
	body, berr := readBodyInto(w, r, l.MaxBodyBytes, lendBody)
	if berr != nil {
		return nil, false, func() string {
			switch berr.Status {
			case http.StatusRequestEntityTooLarge:
				return p.refuse(w, wire, berr.Status, OutcomeTooLarge, LimitBodyBytes, berr.Msg)
			case http.StatusUnsupportedMediaType:
				w.Header().Set("Accept-Encoding", "identity")
			}
			return p.refuse(w, wire, berr.Status, OutcomeBadRequest, "", berr.Msg)
		}
	}
	k := p.knownFor(r)
	c, err := wire.ReadBounded(body, gateway.Bounds{MaxValues: l.MaxJSONValues, MaxNesting: l.MaxJSONNesting, Known: k})
	if err != nil && !k.retained {
		giveBackBody(body) // the errors hold no byte of it
	}
	var le *gateway.LimitError
	if errors.As(err, &le) {
		code := http.StatusRequestEntityTooLarge
		if le.Limit == gateway.LimitJSONNesting {
			code = http.StatusBadRequest
		}
		return nil, false, func() string {
			return p.refuse(w, wire, code, OutcomeTooLarge, le.Limit, "request body: "+le.Error())
		}
	}
	if err != nil {
		return nil, false, func() string {
			return p.refuse(w, wire, http.StatusBadRequest, OutcomeBadRequest, "", err.Error())
		}
	}
	c.HoldOutputs()
	return c, !k.retained, nil
}
