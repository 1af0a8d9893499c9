package gateway

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
)

// TestCallerHashUnchanged: a caller is the first 16 bytes of HMAC-SHA256
// keyed by the salt, whether the keyed hash is made for the call or
// cloned (Identity.Keyed), for several salts at once from several
// goroutines, and when the Identity was keyed by another salt.
func TestCallerHashUnchanged(t *testing.T) {
	want := func(salt, kind, value string) string {
		m := hmac.New(sha256.New, []byte(salt))
		m.Write([]byte(callerDomain + "\x00" + kind + "\x00" + value))
		return hex.EncodeToString(m.Sum(nil)[:16])
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				id := Identity{Salt: fmt.Sprintf("salt-%d", (g+i)%3)}
				other := Identity{Salt: "salt-1"}.Keyed()
				other.Salt = id.Salt
				v := fmt.Sprintf("sk-%d", i)
				for _, k := range []Identity{id, id.Keyed(), other} { // keyed anew, cloned, or keyed by another salt
					if got := k.hash("key", v); got != want(id.Salt, "key", v) {
						t.Errorf("salt %q, key %q: %s, want %s", id.Salt, v, got, want(id.Salt, "key", v))
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
