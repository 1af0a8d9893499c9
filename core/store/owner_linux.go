package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
)

// self reads this process's identity once: it does not change while the
// process lives.
var self = sync.OnceValues(func() (Owner, error) {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return Owner{}, fmt.Errorf("store: owner: boot id: %w", err)
	}
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return Owner{}, fmt.Errorf("store: owner: pid namespace: %w", err)
	}
	host, err := os.Hostname()
	if err != nil {
		return Owner{}, fmt.Errorf("store: owner: %w", err)
	}
	pid := os.Getpid()
	start, err := procStart(pid)
	if err != nil {
		return Owner{}, fmt.Errorf("store: owner: start time: %w", err)
	}
	return Owner{Host: host, Boot: strings.TrimSpace(string(boot)), PIDNS: ns, PID: pid, Start: start}, nil
})

// procStart returns the start time of process pid, in clock ticks since
// boot: field 22 of /proc/PID/stat. The second field, the command name in
// parentheses, may hold spaces and parentheses, so fields are counted after
// its last ')'.
func procStart(pid int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		return 0, errNoProcess
	}
	if err != nil {
		return 0, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	fields := strings.Fields(string(b[i+1:])) // fields 3, 4, ...
	const startField = 22
	if len(fields) < startField-2 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields, want at least %d", pid, len(fields)+2, startField)
	}
	start, err := strconv.ParseUint(fields[startField-3], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("/proc/%d/stat: start time: %w", pid, err)
	}
	return start, nil
}
