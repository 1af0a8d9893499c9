//go:build race

package bench

// raceEnabled: under the race detector, jsonaware.Shorten takes about 12 s
// on each multi-megabyte JSON case (1 s without it), so the json-aware
// acceptance runs the cases of at most 1 MB there; `go test ./bench`
// without -race and every `make bench-check` (whose json-aware row fails
// on invalid JSON) cover the others.
const raceEnabled = true
