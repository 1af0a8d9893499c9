package gateway

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"sync"
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

// TestCallerHashUnchanged: a caller is the first 16 bytes of HMAC-SHA256
// keyed by the salt, whether the keyed hash is made for the call or
// cloned, for several salts at once from several goroutines.
func TestCallerHashUnchanged(t *testing.T) {
	want := func(salt, kind, value string) string {
		m := hmac.New(sha256.New, []byte(salt))
		m.Write([]byte(callerDomain + "\x00" + kind + "\x00" + value))
		return hex.EncodeToString(m.Sum(nil)[:16])
	}
	keyed := newKeyedHMAC("salt-1")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				id := Identity{Salt: fmt.Sprintf("salt-%d", (g+i)%3)}
				v := fmt.Sprintf("sk-%d", i)
				for _, k := range []*keyedHMAC{nil, keyed} { // keyed anew, cloned, or keyed by another salt
					if got := id.hash(k, "key", v); got != want(id.Salt, "key", v) {
						t.Errorf("salt %q, key %q: %s, want %s", id.Salt, v, got, want(id.Salt, "key", v))
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
