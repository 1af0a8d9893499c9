package leaked_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestLeaked(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "leaked")
}
