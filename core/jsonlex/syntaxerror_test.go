package jsonlex_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jsonaware"
	"github.com/toolout/toolout/core/jsonlex"
	"github.com/toolout/toolout/core/jsonspan"
	"github.com/toolout/toolout/core/schema"
)

var _ = Describe("SyntaxError, the one JSON syntax error of core's readers", func() {
	It("names the byte, and the line and column when they are known", func() {
		Expect((&jsonlex.SyntaxError{Offset: 7, Msg: "want ',' or '}'"}).Error()).To(Equal("invalid JSON at byte 7: want ',' or '}'"))
		Expect((&jsonlex.SyntaxError{Offset: 7, Line: 2, Col: 3, Msg: "unexpected end of input"}).Error()).
			To(Equal("invalid JSON at 2:3 (byte 7): unexpected end of input"))
	})

	bad := []byte("{\"a\": 1,\n \"b\" 2}")
	DescribeTable("is what each reader gives, at the byte where it stopped",
		func(read func([]byte) error, offset int, line int) {
			err := read(bad)
			var se *jsonlex.SyntaxError
			Expect(errors.As(err, &se)).To(BeTrue(), "%T: %v", err, err)
			Expect(se.Offset).To(Equal(offset))
			Expect(se.Line).To(Equal(line))
			Expect(se.Msg).NotTo(BeEmpty())
		},
		Entry("jsonspan.Parse", func(b []byte) error { _, err := jsonspan.Parse(b); return err }, 14, 0),
		Entry("schema.Summarize", func(b []byte) error { _, err := schema.Summarize(b, schema.Options{}); return err }, 14, 0),
		Entry("jsonaware.Shorten, with its line and column, wrapped", func(b []byte) error {
			_, _, err := jsonaware.Shorten(b, 100, jsonaware.Options{})
			if err != nil {
				Expect(err.Error()).To(HavePrefix("jsonaware: invalid JSON at 2:"))
			}
			return err
		}, 14, 2),
	)
})
