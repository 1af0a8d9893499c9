//go:build !linux

package store

import "errors"

// errNoOwner: without /proc there is no pid-reuse-proof identity, so no
// marker is written and nothing is swept.
var errNoOwner = errors.New("store: owner: process identity needs Linux's /proc")

func self() (Owner, error) { return Owner{}, errNoOwner }

func procStart(int) (uint64, error) { return 0, errNoOwner }
