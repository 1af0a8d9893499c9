package tokens

// Trials returns how many of a random differential test's full trials to
// run: all of them without the race detector, a tenth (at least one) under
// it. The trials run are the first ones of the same seeded sequence, so a
// race build checks a prefix of what a normal build checks, and a failure
// found by either replays in a normal build. Test files of package tokens_test
// use it too.
func Trials(full int) int {
	return max(full/differentialShare, 1)
}
