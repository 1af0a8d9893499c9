package importer_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestImporter(t *testing.T) { junit.RunSpecs(t, "harness/importer", "harness-importer") }
