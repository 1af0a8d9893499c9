package paging_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestPaging(t *testing.T) { junit.RunSpecs(t, "paging", "core-paging") }
