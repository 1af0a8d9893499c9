package main

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestDemoModel(t *testing.T) { junit.RunSpecs(t, "demo-model", "docs-examples-demo-model") }
