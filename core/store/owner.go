package store

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// OwnerFile is the name of the owner marker inside a session directory: a
// symbolic link whose target text is [Owner.String]. A symbolic link rather
// than a regular file because it is made in one atomic call, and because the
// read-grep sub-agent's Grep reads regular files only, so the marker never
// shows up in what a model sees (and no handle may take this name).
const OwnerFile = ".owner"

// ownerPrefix starts every marker, naming its format.
const ownerPrefix = "toolout-owner-v1?"

// Owner identifies the process that made a session directory. A process is
// named by its pid together with its start time, both read in the same pid
// namespace on the same boot of the same machine: a pid alone can be reused
// once its process has exited, a start time cannot.
type Owner struct {
	// Host is os.Hostname().
	Host string
	// Boot is the kernel's boot id (/proc/sys/kernel/random/boot_id).
	Boot string
	// PIDNS names the pid namespace the pid belongs to (the link text of
	// /proc/self/ns/pid, e.g. "pid:[4026531836]").
	PIDNS string
	// PID is the process id.
	PID int
	// Start is the process's start time in clock ticks since boot (field 22
	// of /proc/PID/stat).
	Start uint64
}

// String is the marker text: "toolout-owner-v1?" and the fields as a URL
// query (boot, host, pid, pidns, start).
func (o Owner) String() string {
	v := url.Values{"boot": {o.Boot}, "host": {o.Host}, "pidns": {o.PIDNS},
		"pid": {strconv.Itoa(o.PID)}, "start": {strconv.FormatUint(o.Start, 10)}}
	return ownerPrefix + v.Encode()
}

// ParseOwner reads a marker text written by [Owner.String]. Every field is
// required, once.
func ParseOwner(text string) (Owner, error) {
	q, ok := strings.CutPrefix(text, ownerPrefix)
	if !ok {
		return Owner{}, fmt.Errorf("store: owner %.40q: want the prefix %q", text, ownerPrefix)
	}
	v, err := url.ParseQuery(q)
	if err != nil {
		return Owner{}, fmt.Errorf("store: owner: %w", err)
	}
	var problems []string
	field := func(name string) string {
		if len(v[name]) != 1 || v[name][0] == "" {
			problems = append(problems, fmt.Sprintf("want one non-empty %s", name))
			return ""
		}
		return v[name][0]
	}
	o := Owner{Host: field("host"), Boot: field("boot"), PIDNS: field("pidns")}
	if pid, err := strconv.Atoi(field("pid")); err == nil && pid > 0 {
		o.PID = pid
	} else if len(problems) == 0 {
		problems = append(problems, "want a positive pid")
	}
	if start, err := strconv.ParseUint(field("start"), 10, 64); err == nil {
		o.Start = start
	} else if len(problems) == 0 {
		problems = append(problems, "want a start time in clock ticks")
	}
	if len(v) != 5 && len(problems) == 0 {
		problems = append(problems, fmt.Sprintf("want 5 fields, got %d", len(v)))
	}
	if len(problems) > 0 {
		return Owner{}, fmt.Errorf("store: owner: %s", strings.Join(problems, "; "))
	}
	return o, nil
}

// Self returns the owner identity of this process. It fails where the
// system does not give one (no /proc: any system but Linux); New then writes
// no marker, and Sweep removes nothing.
func Self() (Owner, error) { return self() }

// MarkOwner records this process as the owner of dir, a directory it has
// just made: the marker New writes into a session directory, for another
// directory that SweepPrefix is to judge. Without an identity (see [Self])
// it writes nothing and returns nil: such a directory is never swept.
func MarkOwner(dir string) error {
	me, err := Self()
	if err != nil {
		return nil
	}
	if err := os.Symlink(me.String(), filepath.Join(dir, OwnerFile)); err != nil {
		return fmt.Errorf("store: owner: %w", err)
	}
	return nil
}

// ReadOwner returns the owner recorded in a session directory.
func ReadOwner(dir string) (Owner, error) {
	text, err := os.Readlink(filepath.Join(dir, OwnerFile))
	if err != nil {
		return Owner{}, fmt.Errorf("store: owner: %w", err)
	}
	return ParseOwner(text)
}

// errUnknown marks an owner this process cannot judge: kept.
var errUnknown = errors.New("owner unknown here")

// Dead reports whether the owner process o is gone, judged by the process me.
// Only a proof counts; an owner that cannot be judged is not dead:
//   - the same boot and pid namespace: dead when /proc has no process o.PID,
//     or one with another start time (the pid was reused);
//   - another boot of the same host: dead (every process of a past boot is);
//   - another host, or another pid namespace on this boot (a container
//     sharing the folder): not judged, so never dead.
func (o Owner) Dead(me Owner) (bool, error) {
	switch {
	case o.Boot != me.Boot && o.Host == me.Host:
		return true, nil
	case o.Boot != me.Boot:
		return false, fmt.Errorf("%w: host %q is not this host %q", errUnknown, o.Host, me.Host)
	case o.PIDNS != me.PIDNS:
		return false, fmt.Errorf("%w: pid namespace %s is not this process's %s", errUnknown, o.PIDNS, me.PIDNS)
	case o == me:
		return false, nil
	}
	start, err := procStart(o.PID)
	if errors.Is(err, errNoProcess) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("%w: %v", errUnknown, err)
	}
	return start != o.Start, nil
}

// errNoProcess is procStart's answer for a pid with no process.
var errNoProcess = errors.New("no such process")
