package main

import (
	"strings"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A command name with a space and a ')' in it: fields count from the
	// last ')'. utime 150, stime 50 ticks.
	line := "4242 (tool out) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 50 0 0 20 0 9 0 100 1000 200 18446744073709551615\n"
	got, err := parseStat(line)
	if err != nil || got != 2*time.Second {
		t.Errorf("parseStat = %v, %v; want 2s", got, err)
	}
	for _, bad := range []string{
		"",
		"4242 toolout S 1",
		"4242 (toolout) S 1 2 3",
		"4242 (toolout) S 1 4242 4242 0 -1 4194560 900 0 0 0 x 50 0 0",
		"4242 (toolout) S 1 4242 4242 0 -1 4194560 900 0 0 0 150 -5 0 0",
	} {
		if _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

func TestParseStatusKB(t *testing.T) {
	status := "Name:\ttoolout\nVmPeak:\t  900000 kB\nVmHWM:\t  551936 kB\nVmRSS:\t  300000 kB\n"
	got, err := parseStatusKB(status, "VmHWM")
	if err != nil || got != 551936<<10 {
		t.Errorf("VmHWM = %d, %v; want %d", got, err, 551936<<10)
	}
	for _, bad := range []string{"Name:\ttoolout\n", "VmHWM:\t551936\n", "VmHWM:\tmany kB\n", "VmHWM:\t-1 kB\n"} {
		if _, err := parseStatusKB(bad, "VmHWM"); err == nil || !strings.Contains(err.Error(), "VmHWM") && !strings.Contains(err.Error(), "size") {
			t.Errorf("parseStatusKB(%q): error %v, want one naming the line", bad, err)
		}
	}
}
