package redistest

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel kill the server when its parent dies.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
