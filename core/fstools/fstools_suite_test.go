package fstools_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestFstools(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "fstools")
}
