package main

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestTestreport(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "testreport")
}

var _ = junit.Report("internal-testreport")
