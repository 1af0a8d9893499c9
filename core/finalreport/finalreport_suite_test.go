package finalreport_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestFinalReport(t *testing.T) { junit.RunSpecs(t, "finalreport", "core-finalreport") }
