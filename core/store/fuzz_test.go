package store_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/toolout/toolout/core/store"
)

// FuzzParseOwner checks that any text either fails to parse or gives a
// complete owner whose own text parses back to it, and that any complete
// owner survives its text. Seeds: the marker forms of the specs, and the
// store scenarios' files as foreign text.
func FuzzParseOwner(f *testing.F) {
	me, err := store.Self()
	if err != nil {
		f.Skip(err)
	}
	f.Add(me.String(), "h", "b", "pid:[1]", 1, uint64(1))
	f.Add("toolout-owner-v1?boot=b&host=h&pidns=n&pid=1&start=1", "h x", "b&=?", "pid:[4026531836]", 7, uint64(99))
	f.Add("toolout-owner-v1?boot=b&boot=c&host=h&pidns=n&pid=1&start=1", "", "", "", 0, uint64(0))
	f.Add("toolout-owner-v1?boot=%zz", "%", "\x00", "\n", -1, ^uint64(0))
	files, _ := filepath.Glob("../../scenarios/store/*.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b), "", "", "", 0, uint64(0))
		}
	}
	f.Fuzz(func(t *testing.T, text, host, boot, pidns string, pid int, start uint64) {
		if o, err := store.ParseOwner(text); err == nil {
			if o.Host == "" || o.Boot == "" || o.PIDNS == "" || o.PID <= 0 {
				t.Fatalf("ParseOwner(%q) = %+v: an incomplete owner without an error", text, o)
			}
			back, err := store.ParseOwner(o.String())
			if err != nil || back != o {
				t.Fatalf("ParseOwner(%q) = %+v, whose text %q reads as %+v, %v", text, o, o.String(), back, err)
			}
		}
		o := store.Owner{Host: host, Boot: boot, PIDNS: pidns, PID: pid, Start: start}
		back, err := store.ParseOwner(o.String())
		complete := host != "" && boot != "" && pidns != "" && pid > 0
		if complete && (err != nil || back != o) {
			t.Fatalf("%+v: its text %q reads as %+v, %v", o, o.String(), back, err)
		}
		if !complete && err == nil {
			t.Fatalf("%+v is incomplete, yet its text %q reads as %+v", o, o.String(), back)
		}
	})
}

// Owners of FuzzSweep's layouts, by the number in bits 3-5 of a byte.
const (
	markNone = iota
	markSelf
	markDead       // exited
	markReused     // this pid, another start time
	markOtherNS    // an exited pid in another pid namespace
	markPastBoot   // another boot of this host
	markOtherHost  // another boot of another host
	markNotAnOwner // a link whose text is not a marker
	markKinds
)

// FuzzSweep builds a base from the bytes of layout, one entry per byte: bit
// 0 picks the name (ai-agent-N or other-N), bits 1-2 the kind (a directory,
// a regular file, a symbolic link to a directory elsewhere, a directory),
// bits 3-5 the owner marker of a directory. Sweep must remove exactly the
// ai-agent directories whose owner is provably gone (exited, pid reused, a
// past boot of this host), leave everything else as it was, and report what
// it removed, sorted. The first seed is the defect: a directory left
// by a killed process, with a live one beside it.
func FuzzSweep(f *testing.F) {
	me, err := store.Self()
	if err != nil {
		f.Skip(err)
	}
	child := exec.Command(os.Args[0], "-test.run=^$")
	if err := child.Run(); err != nil {
		f.Fatal(err)
	}
	dead := child.Process.Pid
	f.Add([]byte{1 | markDead<<3, 1 | markSelf<<3})
	all := []byte{}
	for b := range 64 {
		all = append(all, byte(b))
	}
	f.Add(all)
	f.Fuzz(func(t *testing.T, layout []byte) {
		if len(layout) > 64 {
			layout = layout[:64]
		}
		base := t.TempDir()
		want, kept := buildLayout(t, base, t.TempDir(), layout, me, dead)
		got, err := store.Sweep(base)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("layout %v: removed %q, want %q", layout, got, want)
		}
		for _, p := range want {
			if _, err := os.Lstat(p); !os.IsNotExist(err) {
				t.Fatalf("layout %v: %s reported removed but still there (%v)", layout, p, err)
			}
		}
		for _, p := range kept {
			if _, err := os.Lstat(p); err != nil {
				t.Fatalf("layout %v: %s must be kept: %v", layout, p, err)
			}
		}
	})
}

// buildLayout makes the entries of layout (see FuzzSweep) in base, with the
// symbolic links' targets in elsewhere, and returns the paths Sweep must
// remove and the paths it must keep.
func buildLayout(t *testing.T, base, elsewhere string, layout []byte, me store.Owner, dead int) (want, kept []string) {
	for i, b := range layout {
		name := "other-" + strconv.Itoa(i)
		if b&1 == 1 {
			name = store.DirPrefix + strconv.Itoa(i)
		}
		p := filepath.Join(base, name)
		kind, mark := b>>1&3, int(b>>3&7)
		switch kind {
		case 1:
			must(t, os.WriteFile(p, []byte("x"), 0o600))
			kept = append(kept, p)
			continue
		case 2:
			target := filepath.Join(elsewhere, name)
			must(t, os.Mkdir(target, 0o700))
			must(t, os.Symlink(store.Owner{Host: me.Host, Boot: me.Boot, PIDNS: me.PIDNS, PID: dead, Start: 1}.String(), filepath.Join(target, store.OwnerFile)))
			must(t, os.Symlink(target, p))
			kept = append(kept, filepath.Join(target, store.OwnerFile))
			continue
		}
		must(t, os.Mkdir(p, 0o700))
		must(t, os.WriteFile(filepath.Join(p, "payload"), []byte("stored"), 0o600))
		switch mark {
		case markNone:
		case markNotAnOwner:
			must(t, os.Symlink("pid 1", filepath.Join(p, store.OwnerFile)))
		default:
			must(t, os.Symlink(ownerOf(me, mark, dead).String(), filepath.Join(p, store.OwnerFile)))
		}
		if b&1 == 1 && (mark == markDead || mark == markReused || mark == markPastBoot) {
			want = append(want, p)
		} else {
			kept = append(kept, filepath.Join(p, "payload"))
		}
	}
	return want, kept
}

// ownerOf returns the owner marker of kind mark: me, changed as the kind
// says.
func ownerOf(me store.Owner, mark, dead int) store.Owner {
	o := me
	switch mark {
	case markDead:
		o.PID = dead
	case markReused:
		o.Start++
	case markOtherNS:
		o.PID, o.PIDNS = dead, "pid:[1]"
	case markPastBoot:
		o.Boot = "past-boot"
	case markOtherHost:
		o.Boot, o.Host = "other-boot", "other-host"
	}
	return o
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
