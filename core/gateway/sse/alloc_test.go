package sse_test

import "testing"

func testingAllocs(f func()) float64 { return testing.AllocsPerRun(100, f) }
