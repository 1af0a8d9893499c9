package importer

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRedactPrefilterChangesNothing redacts random texts made of the
// rules' triggers and near misses with the literal prefilters (may) and
// without them: the same text and the same placeholders, e-mails and an
// extra pattern included.
func TestRedactPrefilterChangesNothing(t *testing.T) {
	parts := []string{"sk-", "sk-proj-", "abcdefghijklmnopqrstuvwx", "AKIA", "ASIA", "ABCDEFGHIJKLMNOP", "ghp_", "gh", "xoxb_", "github_pat_",
		"Bearer ", "BEARER\t", "bEaReR ", "bearer", "https://", "user:pw@", "://", "/home/", "/Users/", "alice", "a@b.co", "@", " ", "\n", ".", "-", "_", "é", "ß"}
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		fast, err := newRedactor(true, []string{`ticket-[0-9]+`})
		if err != nil {
			t.Fatal(err)
		}
		slow, _ := newRedactor(true, []string{`ticket-[0-9]+`})
		for i := range slow.rules {
			slow.rules[i].may = nil
		}
		if got, want := fast.apply(s), slow.apply(s); got != want {
			t.Fatalf("trial %d: %q: with the prefilters %q, without %q", trial, s, got, want)
		}
	}
}
