//go:build !linux

package main

import "os"

// maxRSS is 0 where ru_maxrss is not read (its unit differs by system).
func maxRSS(*os.ProcessState) int64 { return 0 }
