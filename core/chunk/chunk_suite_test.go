package chunk_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestChunk(t *testing.T) { junit.RunSpecs(t, "chunk", "core-chunk") }
