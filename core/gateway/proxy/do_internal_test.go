package proxy

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/cookiejar"
	"testing"
)

// TestDoWordsErrorsAsClientDo: the proxy's round trip without a client
// (no timeout, no jar) fails with the words Client.Do uses, password
// hidden alike.
func TestDoWordsErrorsAsClientDo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: the dial is refused
	for _, target := range []string{"http://" + addr + "/v1/chat/completions", "http://user:secret@" + addr + "/v1/messages?beta=true"} {
		req := func() *http.Request {
			r, err := http.NewRequestWithContext(context.Background(), http.MethodPost, target, bytes.NewReader([]byte("{}")))
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		_, direct := (&Proxy{Client: &http.Client{}}).do(req())
		jar, _ := cookiejar.New(nil)
		_, viaClient := (&Proxy{Client: &http.Client{Jar: jar}}).do(req())
		if direct == nil || viaClient == nil || direct.Error() != viaClient.Error() {
			t.Fatalf("%s: %v, Client.Do: %v", target, direct, viaClient)
		}
	}
}
