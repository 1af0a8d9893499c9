package store_test

import (
	"bufio"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/core/tokens"
)

// deadPID is the pid of a process that no longer exists: this test binary,
// started once with nothing to run and waited for. Should the system give
// the pid to a new process meanwhile, that one started later, so the owner
// is still provably gone.
func deadPID() int {
	pid, err := deadOnce()
	Expect(err).NotTo(HaveOccurred())
	return pid
}

var deadOnce = sync.OnceValues(func() (int, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	err := cmd.Run()
	return cmd.Process.Pid, err
})

// handMarker writes, by hand in the documented format, the owner marker of a
// process with pid on this machine, this boot and this pid namespace.
func handMarker(dir string, pid int, start string) {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	Expect(err).NotTo(HaveOccurred())
	ns, err := os.Readlink("/proc/self/ns/pid")
	Expect(err).NotTo(HaveOccurred())
	host, err := os.Hostname()
	Expect(err).NotTo(HaveOccurred())
	v := url.Values{"boot": {strings.TrimSpace(string(boot))}, "host": {host}, "pidns": {ns},
		"pid": {strconv.Itoa(pid)}, "start": {start}}
	Expect(os.Symlink("toolout-owner-v1?"+v.Encode(), filepath.Join(dir, ".owner"))).To(Succeed())
}

// self is this spec process's identity.
func self() store.Owner {
	me, err := store.Self()
	Expect(err).NotTo(HaveOccurred())
	return me
}

var _ = Describe("owner marker", func() {
	It("names this process, as a symbolic link that Grep (regular files only) never reads", func() {
		s, err := store.New(store.Options{Base: GinkgoT().TempDir(), SessionID: "a"})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		me := self()
		Expect(me.PID).To(Equal(os.Getpid()))
		Expect(store.ReadOwner(s.Dir())).To(Equal(me))
		info, err := os.Lstat(filepath.Join(s.Dir(), store.OwnerFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Mode().Type()).To(Equal(fs.ModeSymlink))
		Expect(s.List()).To(BeEmpty())
	})

	It("is not a handle a Put can take", func() {
		s, err := store.New(store.Options{Base: GinkgoT().TempDir(), SessionID: "a",
			Sources: core.Sources{NewID: func() string { return store.OwnerFile }}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		_, err = s.Put("t", "{}", "x", store.Measure("x", tokens.Estimator{}))
		Expect(err).To(MatchError(`store: put t: handle ".owner" from Sources.NewID is not a fresh plain name`))
		Expect(store.ReadOwner(s.Dir())).To(Equal(self()))
	})

	It("reads back what it writes and refuses what it did not", func() {
		o := store.Owner{Host: "h x", Boot: "b&=?", PIDNS: "pid:[1]", PID: 7, Start: 99}
		Expect(store.ParseOwner(o.String())).To(Equal(o))
		for text, want := range map[string]string{
			"":                       `want the prefix "toolout-owner-v1?"`,
			"toolout-owner-v1?pid=1": "want one non-empty host; want one non-empty boot; want one non-empty pidns",
			"toolout-owner-v1?boot=b&host=h&pidns=n&pid=0&start=1":        "want a positive pid",
			"toolout-owner-v1?boot=b&host=h&pidns=n&pid=1&start=-1":       "want a start time in clock ticks",
			"toolout-owner-v1?boot=b&host=h&pidns=n&pid=1&start=1&x":      "want 5 fields, got 6",
			"toolout-owner-v1?boot=b&boot=c&host=h&pidns=n&pid=1&start=1": "want one non-empty boot",
			"toolout-owner-v1?boot=%zz":                                   "invalid URL escape",
		} {
			_, err := store.ParseOwner(text)
			Expect(err).To(MatchError(ContainSubstring(want)), text)
		}
	})
})

// staleDir makes base/name holding one stored output.
func staleDir(base, name string) string {
	dir := filepath.Join(base, name)
	Expect(os.Mkdir(dir, 0o700)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, "00000000-0000-4000-8000-000000000001"), []byte("stored output"), 0o600)).To(Succeed())
	return dir
}

var _ = Describe("Sweep", func() {
	var base string
	BeforeEach(func() { base = GinkgoT().TempDir() })

	stale := func(name string) string { return staleDir(base, name) }
	mark := func(dir string, o store.Owner) {
		Expect(os.Symlink(o.String(), filepath.Join(dir, store.OwnerFile))).To(Succeed())
	}

	DescribeTable("removes a directory only when its owner is provably gone",
		func(owner func() store.Owner, removed bool) {
			dir := stale("ai-agent-x")
			mark(dir, owner())
			got, err := store.Sweep(base)
			Expect(err).NotTo(HaveOccurred())
			if removed {
				Expect(got).To(Equal([]string{dir}))
				Expect(dir).NotTo(BeAnExistingFile())
			} else {
				Expect(got).To(BeEmpty())
				Expect(filepath.Join(dir, "00000000-0000-4000-8000-000000000001")).To(BeARegularFile())
			}
		},
		Entry("owner exited", func() store.Owner { o := self(); o.PID = deadPID(); return o }, true),
		Entry("owner pid reused by a process started later", func() store.Owner { o := self(); o.Start--; return o }, true),
		Entry("a past boot of this host", func() store.Owner { o := self(); o.Boot = "another-boot"; return o }, true),
		Entry("alive: this very process", self, false),
		Entry("alive: the parent of this process", func() store.Owner {
			o := self()
			o.PID = os.Getppid()
			b, err := os.ReadFile("/proc/" + strconv.Itoa(o.PID) + "/stat")
			Expect(err).NotTo(HaveOccurred())
			f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
			o.Start, err = strconv.ParseUint(f[19], 10, 64)
			Expect(err).NotTo(HaveOccurred())
			return o
		}, false),
		Entry("another pid namespace on this boot (a container)", func() store.Owner {
			o := self()
			o.PID, o.PIDNS = deadPID(), "pid:[1]"
			return o
		}, false),
		Entry("another host with another boot (a shared folder)", func() store.Owner {
			o := self()
			o.PID, o.Boot, o.Host = deadPID(), "b", "elsewhere"
			return o
		}, false),
	)

	It("never touches what it cannot read as a marker, nor a symbolic link, nor another name", func() {
		none := stale("ai-agent-no-marker")
		garbage := stale("ai-agent-garbage")
		Expect(os.Symlink("not a marker", filepath.Join(garbage, store.OwnerFile))).To(Succeed())
		file := stale("ai-agent-file-marker")
		Expect(os.WriteFile(filepath.Join(file, store.OwnerFile), []byte("pid 1"), 0o600)).To(Succeed())
		other := stale("keep-me")
		handMarker(other, deadPID(), "1")
		target := stale("target")
		handMarker(target, deadPID(), "1")
		Expect(os.Symlink(target, filepath.Join(base, "ai-agent-link"))).To(Succeed())
		Expect(os.WriteFile(filepath.Join(base, "ai-agent-plain-file"), nil, 0o600)).To(Succeed())
		got, err := store.Sweep(base)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(BeEmpty())
		for _, d := range []string{none, garbage, file, other, target} {
			Expect(d).To(BeADirectory())
		}
		Expect(filepath.Join(base, "ai-agent-plain-file")).To(BeARegularFile())
	})

	It("sweeps another prefix with SweepPrefix: a dead owner's folder goes with what it holds, MarkOwner's own stays", func() {
		dead := stale("toolout-scenario-1")
		handMarker(dead, deadPID(), "1")
		Expect(os.Mkdir(filepath.Join(dead, "ai-agent-inner"), 0o700)).To(Succeed())
		live := stale("toolout-scenario-2")
		Expect(store.MarkOwner(live)).To(Succeed())
		Expect(store.ReadOwner(live)).To(Equal(self()))
		session := stale("ai-agent-x")
		handMarker(session, deadPID(), "1")
		got, err := store.SweepPrefix(base, "toolout-scenario-")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]string{dead}))
		Expect(dead).NotTo(BeAnExistingFile())
		Expect(live).To(BeADirectory())
		Expect(session).To(BeADirectory(), "another prefix is not swept")
		got, err = store.SweepPrefix(base, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(BeEmpty(), "an empty prefix removes nothing")
		Expect(session).To(BeADirectory())
		Expect(store.MarkOwner(live)).To(MatchError(ContainSubstring("store: owner: symlink ")), "a second marker")
	})

	It("reports a base it cannot read", func() {
		_, err := store.Sweep(filepath.Join(base, "missing"))
		Expect(err).To(MatchError(ContainSubstring("store: sweep: open ")))
	})
})

var _ = Describe("sweeping at open", func() {
	var base string
	BeforeEach(func() { base = GinkgoT().TempDir() })

	stale := func(name string) string { return staleDir(base, name) }

	It("removes a directory whose owner process is dead when a store opens in the same base", func() {
		dir := stale("ai-agent-killed")
		handMarker(dir, deadPID(), "1")
		var logs []string
		s, err := store.New(store.Options{Base: base, SessionID: "next",
			Logf: func(f string, a ...any) { logs = append(logs, f) }})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		Expect(dir).NotTo(BeAnExistingFile())
		Expect(logs).To(Equal([]string{"store: removed %s, left behind by a process that is gone"}))
	})

	It("keeps a live one: the spec's own", func() {
		live, err := store.New(store.Options{Base: base, SessionID: "live"})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(live.Close)
		s, err := store.New(store.Options{Base: base, SessionID: "next"})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		Expect(live.Dir()).To(BeADirectory())
	})

	It("sweeps one base at most once per SweepInterval", func() {
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		at := func(t time.Time) core.Sources { return core.Sources{Now: func() time.Time { return t }} }
		open := func(id string, t time.Time) {
			s, err := store.New(store.Options{Base: base, SessionID: id, Sources: at(t)})
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(s.Close)
		}
		open("first", now)
		dir := stale("ai-agent-killed")
		handMarker(dir, deadPID(), "1")
		open("soon-after", now.Add(store.SweepInterval-time.Second))
		Expect(dir).To(BeADirectory())
		open("later", now.Add(store.SweepInterval))
		Expect(dir).NotTo(BeAnExistingFile())
	})

	It("removes the directory of a real process killed while it held a store", func() {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "STORE_OWNER_BASE="+base)
		stdin, err := cmd.StdinPipe()
		Expect(err).NotTo(HaveOccurred())
		stdout, err := cmd.StdoutPipe()
		Expect(err).NotTo(HaveOccurred())
		Expect(cmd.Start()).To(Succeed())
		DeferCleanup(func() { _ = stdin.Close(); _ = cmd.Process.Kill() }) // on a failed spec
		dir, err := bufio.NewReader(stdout).ReadString('\n')
		Expect(err).NotTo(HaveOccurred())
		dir = strings.TrimSuffix(dir, "\n")
		Expect(store.ReadOwner(dir)).To(HaveField("PID", cmd.Process.Pid))
		Expect(cmd.Process.Kill()).To(Succeed()) // SIGKILL: no chance to clean up
		Expect(cmd.Wait()).NotTo(Succeed())
		Expect(dir).To(BeADirectory())
		s, err := store.New(store.Options{Base: base, SessionID: "next"})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		Expect(dir).NotTo(BeAnExistingFile())
	})
})

var _ = Describe("CloseAll", func() {
	It("removes the directory of every store still open", func() {
		base := GinkgoT().TempDir()
		var dirs []string
		var stores []*store.Store
		for _, id := range []string{"a", "b"} {
			s, err := store.New(store.Options{Base: base, SessionID: id})
			Expect(err).NotTo(HaveOccurred())
			dirs, stores = append(dirs, s.Dir()), append(stores, s)
		}
		closed, err := store.CloseAll()
		Expect(err).NotTo(HaveOccurred())
		Expect(closed).To(ContainElements(dirs))
		Expect(os.ReadDir(base)).To(BeEmpty())
		_, err = stores[0].Put("t", "{}", "x", store.Measure("x", tokens.Estimator{}))
		Expect(err).To(MatchError(store.ErrClosed))
		Expect(stores[1].Close()).To(Succeed())
		closed, err = store.CloseAll()
		Expect(err).NotTo(HaveOccurred())
		Expect(closed).NotTo(ContainElements(dirs[0]))
	})
})
