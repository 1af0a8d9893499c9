package session

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxPolicyBytes bounds a byte cap (1 TiB): past any tool result a session
// holds in memory.
const MaxPolicyBytes = 1 << 40

// FieldError is one value of a Policy that Validate refuses. Keys is where it
// lies, as yaml/json keys ("tools", "Read", "max_bytes"; a list element by its
// index), so that a config loader can point at its line.
type FieldError struct {
	Keys []string
	Msg  string
}

// Error is "tools.Read.max_bytes: message"; an empty key shows as "".
func (e *FieldError) Error() string {
	keys := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		keys[i] = cmp.Or(k, `""`)
	}
	return strings.Join(keys, ".") + ": " + e.Msg
}

// KeyPath returns Keys: the interface by which the scenario loader finds the
// node to point at.
func (e *FieldError) KeyPath() []string { return e.Keys }

// Validate reports every value out of range, each a *FieldError, joined
// (errors.Join) in a fixed order: the policy's fields, then the recovery
// tools in order, then the overrides by tool name. It refuses a negative or
// huge byte cap; a k that is not a number, negative, above 1, or above 0 but
// under one millionth (it would read as 0, off); an empty or repeated
// recovery tool; an override for an empty name; and a byte cap in the
// override of an exempt tool (tool_output, a recovery tool, a never_store
// one), whose output is never stored, so a cap would decide nothing.
func (p Policy) Validate() error {
	var errs []error
	add := func(msg string, keys ...string) { errs = append(errs, &FieldError{Keys: keys, Msg: msg}) }
	if msg := checkBytes(p.MaxBytes); msg != "" {
		add(msg, "max_bytes")
	}
	if msg := checkFactor(p.ContextFactor); msg != "" {
		add(msg, "context_factor")
	}
	for i, name := range p.RecoveryTools {
		switch {
		case name == "":
			add("a tool name is empty", "recovery_tools", strconv.Itoa(i))
		case slices.Index(p.RecoveryTools, name) < i:
			add(fmt.Sprintf("%q is listed twice", name), "recovery_tools", strconv.Itoa(i))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.Tools)) {
		o := p.Tools[name]
		if name == "" {
			add("a tool name is empty", "tools", name)
			continue
		}
		if o.MaxBytes != nil {
			if msg := checkBytes(*o.MaxBytes); msg != "" {
				add(msg, "tools", name, "max_bytes")
			} else if why := p.limits(name).exempt; why != "" {
				add(fmt.Sprintf("%s is exempt (%s): its output is never stored, so a byte cap decides nothing; its context_factor bounds where it is cut", name, why), "tools", name, "max_bytes")
			}
		}
		if o.ContextFactor != nil {
			if msg := checkFactor(*o.ContextFactor); msg != "" {
				add(msg, "tools", name, "context_factor")
			}
		}
	}
	return errors.Join(errs...)
}

func checkBytes(n int) string {
	if n < 0 || n > MaxPolicyBytes {
		return fmt.Sprintf("%d: must be 0 (no byte rule) to %d", n, MaxPolicyBytes)
	}
	return ""
}

func checkFactor(k float64) string {
	switch {
	case math.IsNaN(k) || math.IsInf(k, 0) || k < 0 || k > 1:
		return fmt.Sprintf("%v: must be 0 (no context rule) to 1", k)
	case k > 0 && ppm(k) == 0:
		return fmt.Sprintf("%v: under one millionth, it would read as 0 (no context rule); write 0 for that", k)
	}
	return ""
}
