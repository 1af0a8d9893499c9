package memstore_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestMemstore(t *testing.T) { junit.RunSpecs(t, "memstore", "core-gateway-memstore") }
