package proxy_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestProxy(t *testing.T) { junit.RunSpecs(t, "proxy", "core-gateway-proxy") }
