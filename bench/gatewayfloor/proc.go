package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of utime and stime in /proc/PID/stat: USER_HZ,
// 100 per second on every Linux architecture Go supports (sysconf would
// need cgo).
const clockTick = 10 * time.Millisecond

// parseStat returns utime + stime of a /proc/PID/stat line. The command
// name (field 2) is in parentheses and may hold spaces or parentheses, so
// the fields are counted from the last ')': utime and stime are fields 14
// and 15 of the line.
func parseStat(line string) (time.Duration, error) {
	end := strings.LastIndexByte(line, ')')
	if end < 0 {
		return 0, fmt.Errorf("stat line %.40q: no ')' closing the command name", line)
	}
	f := strings.Fields(line[end+1:])
	// f[0] is field 3 (state): utime is field 14, f[11].
	if len(f) < 13 {
		return 0, fmt.Errorf("stat line %.40q: %d fields after the command name, want at least 13", line, len(f))
	}
	var sum int64
	for i, name := range []string{"utime", "stime"} {
		v, err := strconv.ParseInt(f[11+i], 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("stat line: %s (field %d) %q is not a tick count", name, 14+i, f[11+i])
		}
		sum += v
	}
	return time.Duration(sum) * clockTick, nil
}

// parseStatusKB returns the value in bytes of a "Key:   N kB" line of
// /proc/PID/status, e.g. VmHWM (the peak resident set).
func parseStatusKB(status, key string) (int64, error) {
	for line := range strings.SplitSeq(status, "\n") {
		rest, ok := strings.CutPrefix(line, key+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("status line %q: want %s: N kB", line, key)
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("status line %q: %q is not a size", line, f[0])
		}
		return v << 10, nil
	}
	return 0, fmt.Errorf("status: no %s line", key)
}

// cpuOf reads the CPU time (user + system) process pid has used.
func cpuOf(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStat(string(b))
}

// peakRSS reads VmHWM of process pid in bytes.
func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	return parseStatusKB(string(b), "VmHWM")
}
