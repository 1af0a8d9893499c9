package jsonspan_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/jsonspan"
)

var _ = Describe("TypeError", func() {
	type item struct {
		Name string   `json:"name"`
		Tags []string `json:"tags"`
		N    *int     `json:"n"`
	}
	type doc struct {
		Items [][]item         `json:"items"`
		Meta  map[string]item  `json:"meta"`
		Raw   json.RawMessage  `json:"raw"`
		Flag  bool             `json:"flag"`
		Data  []byte           `json:"data"`
		Set   map[string][]int `json:"set"`
	}
	DescribeTable("names the value's position, its path with indices and the JSON types, never a Go type",
		func(body, want string) {
			var d doc
			err := jsonspan.TypeError([]byte(body), json.Unmarshal([]byte(body), &d))
			Expect(err).To(MatchError(want))
			Expect(err.Error()).NotTo(ContainSubstring("struct"))
		},
		Entry("a scalar deep in arrays", `{"items":[[],[{"name":"a"},{"name":7}]]}`, `1:36 (byte 35): items[1][1].name: want a string, got a number`),
		Entry("an inner array where an object goes", `{"items":[[[1]]]}`, `1:12 (byte 11): items[0][0]: want an object, got an array`),
		Entry("an outer array's element that is not an array", `{"items":[{}]}`, `1:11 (byte 10): items[0]: want an array, got an object`),
		Entry("a map value, its key in the path", `{"meta":{"a b":{"tags":"x"}}}`, `1:24 (byte 23): meta["a b"].tags: want an array, got a string`),
		Entry("a pointer to an integer", `{"items":[[{"n":"1"}]]}`, `1:17 (byte 16): items[0][0].n: want an integer, got a string`),
		Entry("a boolean", `{"flag":"yes"}`, `1:9 (byte 8): flag: want a boolean, got a string`),
		Entry("bytes", `{"data":5}`, `1:9 (byte 8): data: want a base64 string, got a number`),
		Entry("a too large integer", `{"set":{"k":[1e99]}}`, `1:14 (byte 13): set.k[0]: want an integer, got the number 1e99`),
		Entry("a value on line 2 after CRLF", "{\"flag\":true,\r\n \"items\":5}", `2:10 (byte 24): items: want an array, got a number`),
		Entry("the whole body", `"x"`, `1:1 (byte 0): want an object, got a string`),
		Entry("the last of duplicate keys", `{"flag":true,"flag":1}`, `1:21 (byte 20): flag: want a boolean, got a number`),
	)

	It("returns any other error as it is", func() {
		var d doc
		err := json.Unmarshal([]byte(`{"flag":`), &d)
		Expect(jsonspan.TypeError([]byte(`{"flag":`), err)).To(BeIdenticalTo(err))
		Expect(jsonspan.TypeError(nil, nil)).To(Succeed())
		other := errors.New("x")
		Expect(jsonspan.TypeError(nil, other)).To(BeIdenticalTo(other))
	})
})

// FuzzTypeError decodes any body into a struct of every kind TypeError
// names and checks that the error it makes of a type mismatch is one line
// naming no Go type, with a byte offset inside the body.
func FuzzTypeError(f *testing.F) {
	for _, s := range []string{`{"messages":[{"role":1}]}`, `{"items":[[[1]]]}`, `{"meta":{"a b":{"tags":"x"}}}`,
		`{"set":{"k":[1e99]}}`, "{\"flag\":true,\r\n \"items\":5}", `"x"`, `{"flag":true,"flag":1}`, `{"data":5}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var d struct {
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
			Items [][]struct {
				Name string   `json:"name"`
				Tags []string `json:"tags"`
				N    *int     `json:"n"`
			} `json:"items"`
			Meta map[string]struct {
				Tags []string `json:"tags"`
			} `json:"meta"`
			Set  map[string][]int `json:"set"`
			Flag bool             `json:"flag"`
			Data []byte           `json:"data"`
			F    float64          `json:"f"`
		}
		err := json.Unmarshal([]byte(body), &d)
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return
		}
		msg := jsonspan.TypeError([]byte(body), err).Error()
		if strings.ContainsAny(msg, "\n\r") || strings.Contains(msg, "struct") || strings.Contains(msg, "Go ") {
			t.Fatalf("%q: %q", body, msg)
		}
		if !strings.Contains(msg, "want ") || !strings.Contains(msg, ", got ") {
			t.Fatalf("%q: %q names no types", body, msg)
		}
	})
}
