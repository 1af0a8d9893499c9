package httpspec_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/httpspec"
)

// A spec posts a JSON body and reads the whole answer in one call; a
// server's Logf writes to a Log the spec reads. Outside a Ginkgo spec,
// Gomega needs a fail handler first.
func ExamplePost() {
	gomega.RegisterFailHandler(func(message string, _ ...int) { panic(message) })
	var log httpspec.Log
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Logf("%s %s", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusTeapot)
		fmt.Fprintf(w, "got %s", r.Header.Get("Content-Type"))
	}))
	defer srv.Close()
	resp, body := httpspec.Post(srv.URL+"/v1/chat/completions", `{"messages":[]}`)
	fmt.Println(resp.StatusCode, body)
	fmt.Println(log.Lines())
	// Output:
	// 418 got application/json
	// [POST /v1/chat/completions]
}
