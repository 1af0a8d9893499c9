package main

import (
	"os"
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

// TestMain lets a spec start this test binary as the toolout program (a
// real second process, e.g. two gateway replicas, or one to signal): with
// TOOLOUT_AS_MAIN=1 it is main, signal handling included, and exits.
func TestMain(m *testing.M) {
	if os.Getenv("TOOLOUT_AS_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

func TestToolout(t *testing.T) { junit.RunSpecs(t, "toolout", "cmd-toolout") }
