package redistest_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestRedistest(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "redistest")
}

var _ = junit.Report("internal-redistest")
