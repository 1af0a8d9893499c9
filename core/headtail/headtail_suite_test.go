package headtail_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestHeadtail(t *testing.T) { junit.RunSpecs(t, "headtail", "core-headtail") }
