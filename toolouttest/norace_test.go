//go:build !race

package toolouttest_test

// raceFlag is passed on to the go test runs of the outside module.
var raceFlag []string
