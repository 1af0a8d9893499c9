package anthropic_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/junit"
)

func TestAnthropic(t *testing.T) { junit.RunSpecs(t, "anthropic", "core-gateway-anthropic") }

// fixture reads testdata/name.
func fixture(name string) []byte {
	GinkgoHelper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	Expect(err).NotTo(HaveOccurred())
	return data
}
