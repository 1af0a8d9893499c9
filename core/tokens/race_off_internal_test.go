//go:build !race

package tokens

const raceEnabled = false
