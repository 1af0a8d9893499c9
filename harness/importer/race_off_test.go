//go:build !race

package importer_test

// memScale divides the trace sizes of the memory specs (see race_on_test.go).
const memScale = 1
