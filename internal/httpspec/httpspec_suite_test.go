package httpspec_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestHTTPSpec(t *testing.T) { junit.RunSpecs(t, "httpspec", "internal-httpspec") }
