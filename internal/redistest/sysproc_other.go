//go:build !linux

package redistest

import "os/exec"

// setDeathSignal does nothing here: only Linux has a parent-death signal.
func setDeathSignal(*exec.Cmd) {}
