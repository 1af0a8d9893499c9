//go:build !race

package tokens

// raceDetector is false in a build without the race detector: the
// differentials run, every trial (see SkipUnderRace).
const raceDetector = false
