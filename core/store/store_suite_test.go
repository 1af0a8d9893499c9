package store_test

import (
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/internal/junit"
)

// TestMain lets a spec start this test binary as a store owner to kill:
// with STORE_OWNER_BASE set, it opens a store there, prints its directory
// and waits until its standard input closes (or a signal ends it).
func TestMain(m *testing.M) {
	if base := os.Getenv("STORE_OWNER_BASE"); base != "" {
		s, err := store.New(store.Options{Base: base, SessionID: "owner"})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(s.Dir())
		_, _ = io.Copy(io.Discard, os.Stdin)
		_ = s.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestStore(t *testing.T) { junit.RunSpecs(t, "store", "core-store") }
