//go:build race

package toolouttest_test

// raceFlag is passed on to the go test runs of the outside module, so that
// they reuse the race build of toolout's packages this run compiled.
var raceFlag = []string{"-race"}
