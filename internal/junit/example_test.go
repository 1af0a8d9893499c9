package junit_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

// A package's whole Ginkgo suite file: its Test function runs the specs
// and, under `make test` (TOOLOUT_JUNIT_DIR set), writes
// reports/junit/store.xml. This example is compiled, not run: RunSpecs
// needs the *testing.T of a real test.
func ExampleRunSpecs() {
	_ = func(t *testing.T) { junit.RunSpecs(t, "store", "store") }
}
