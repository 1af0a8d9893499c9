//go:build linux

package main

import (
	"os"
	"syscall"
)

// maxRSS is the peak resident set size of an exited child, in bytes
// (ru_maxrss counts KiB on Linux).
func maxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}
