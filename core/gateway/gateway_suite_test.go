package gateway_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestGateway(t *testing.T) { junit.RunSpecs(t, "gateway", "core-gateway") }
