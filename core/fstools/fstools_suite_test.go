package fstools_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestFstools(t *testing.T) { junit.RunSpecs(t, "fstools", "core-fstools") }
