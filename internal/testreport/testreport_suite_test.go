package main

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestTestreport(t *testing.T) { junit.RunSpecs(t, "testreport", "internal-testreport") }
