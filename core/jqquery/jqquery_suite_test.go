package jqquery_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestJQQuery(t *testing.T) { junit.RunSpecs(t, "jqquery", "core-jqquery") }
