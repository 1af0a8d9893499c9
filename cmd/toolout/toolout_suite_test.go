package main

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestToolout(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "toolout")
}

var _ = junit.Report("cmd-toolout")
