package sse_test

import (
	"bytes"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/sse"
)

// got is an event as the callback saw it, copied out.
type got struct {
	Name, Data string
	InStream   bool
	// At is the stream offset of every data byte that is not a line join.
	At []int
}

func scan(raw string, names ...string) ([]got, error) {
	var evs []got
	err := sse.Scan([]byte(raw), names, func(e *sse.Event) error {
		g := got{Name: e.Name, Data: string(e.Data), InStream: e.InStream()}
		for k := range e.Data {
			if e.Data[k] != '\n' {
				g.At = append(g.At, e.Offset(k))
			}
		}
		evs = append(evs, g)
		return nil
	})
	return evs, err
}

var _ = Describe("Scan", func() {
	It("dispatches each event at its blank line, with its name and data", func() {
		evs, err := scan("event: a\ndata: {\"x\":1}\n\n: a comment\nid: 7\nretry: 10\ndata:b\n\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(2))
		Expect(evs[0].Name).To(Equal("a"))
		Expect(evs[0].Data).To(Equal(`{"x":1}`))
		Expect(evs[0].InStream).To(BeTrue())
		Expect(evs[1].Name).To(BeEmpty())
		Expect(evs[1].Data).To(Equal("b"))
	})

	It("joins several data lines with \\n and maps every byte back to the stream", func() {
		raw := "\xef\xbb\xbfdata: ab\r\ndata:cd\rdata: e\n\n"
		evs, err := scan(raw)
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(1))
		Expect(evs[0].Data).To(Equal("ab\ncd\ne"))
		Expect(evs[0].InStream).To(BeFalse())
		var bytes []byte
		for _, at := range evs[0].At {
			bytes = append(bytes, raw[at])
		}
		Expect(string(bytes)).To(Equal("abcde"))
	})

	It("discards an event the input cut: no blank line, or no line end", func() {
		evs, err := scan("data: whole\n\ndata: cut\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(1))
		evs, err = scan("data: whole\n\ndata: cut\n\n"[:len("data: whole\n\ndata: cut\n\n")-1] + "x")
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(1))
	})

	It("dispatches nothing for a blank line after an event with no data", func() {
		evs, err := scan("event: ping\n\ndata: x\n\n")
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(1))
		Expect(evs[0].Name).To(BeEmpty(), "the name of an event with no data is not carried over")
	})

	It("gives a known event name as the caller's string, and stops at the callback's error", func() {
		names := []string{"message_stop"}
		stop := errors.New("stop")
		n := 0
		err := sse.Scan([]byte("event: message_stop\ndata: {}\n\ndata: never\n\n"), names, func(e *sse.Event) error {
			n++
			Expect(e.Name).To(Equal("message_stop"))
			return stop
		})
		Expect(err).To(MatchError(stop))
		Expect(n).To(Equal(1))
	})

	It("allocates per scan, not per event, for single-line events", func() {
		one := []byte("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
		many := bytes.Repeat(one, 1000)
		names := []string{"message_stop"}
		each := func(*sse.Event) error { return nil }
		Expect(testingAllocs(func() { _ = sse.Scan(many, names, each) })).
			To(Equal(testingAllocs(func() { _ = sse.Scan(one, names, each) })))
	})
})
