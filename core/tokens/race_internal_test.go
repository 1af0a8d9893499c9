//go:build race

package tokens

// raceDetector is true in a build with the race detector, whose tenfold cost
// buys nothing in the single-goroutine differentials (see SkipUnderRace).
const raceDetector = true
