// Package outside is a module of a toolout user: its tests run its
// scenarios with toolouttest, as any module's would. toolouttest's spec
// copies it to a temporary folder and runs go test there.
package outside

import (
	"testing"

	"github.com/toolout/toolout/toolouttest"
)

func TestScenarios(t *testing.T) { toolouttest.Run(t, "scenarios") }
