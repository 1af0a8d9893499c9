package main

import (
	"context"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

// TestMain lets a spec start this test binary as the toolout program (a
// real second process, e.g. two gateway replicas): with TOOLOUT_AS_MAIN=1
// it runs the program's arguments and exits.
func TestMain(m *testing.M) {
	if os.Getenv("TOOLOUT_AS_MAIN") == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestToolout(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "toolout")
}

var _ = junit.Report("cmd-toolout")
