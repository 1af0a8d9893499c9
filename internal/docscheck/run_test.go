package docscheck_test

import (
	"context"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/docscheck"
)

var _ = Describe("Run", func() {
	var (
		dir string
		ctx context.Context
	)
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), 20*time.Second)
		DeferCleanup(cancel)
	})
	env := func() []string { return []string{"PATH=" + os.Getenv("PATH")} }

	It("gives each step of a transcript its own output, stderr included, in the block's folder", func() {
		b := docscheck.Block{File: "R.md", Line: 1, Info: "console", Text: "$ echo a; echo b >&2\na\nb\n$ printf x > f; cat f\nx\n$ false; echo \"exit $?\"\nexit 1\n"}
		outs, err := docscheck.Run(ctx, b, dir, env())
		Expect(err).NotTo(HaveOccurred())
		Expect(outs).To(Equal([]string{"a\nb\n", "x", "exit 1\n"}))
		Expect(filepath.Join(dir, "f")).To(BeARegularFile())
	})

	It("runs a sh block under set -e: a failing command is an error with the output", func() {
		_, err := docscheck.Run(ctx, docscheck.Block{File: "R.md", Line: 7, Info: "sh", Text: "echo one\nfalse\necho two\n"}, dir, env())
		Expect(err).To(MatchError(And(ContainSubstring("R.md:7"), ContainSubstring("one"), Not(ContainSubstring("two")))))
	})

	It("kills what a block left running in the background", func() {
		b := docscheck.Block{File: "R.md", Line: 1, Info: "sh", Text: "sleep 30 > /dev/null 2>&1 &\necho $! > pid\n"}
		start := time.Now()
		_, err := docscheck.Run(ctx, b, dir, env())
		Expect(err).NotTo(HaveOccurred())
		Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second))
		Eventually(func() bool {
			pid, _ := os.ReadFile(filepath.Join(dir, "pid"))
			_, err := os.Stat("/proc/" + string(trimNL(pid)))
			return os.IsNotExist(err)
		}).WithTimeout(5 * time.Second).Should(BeTrue())
	})

	It("ends a block that outlives its context", func() {
		short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		_, err := docscheck.Run(short, docscheck.Block{File: "R.md", Line: 2, Info: "sh", Text: "sleep 30\n"}, dir, env())
		Expect(err).To(MatchError(ContainSubstring("context deadline exceeded")))
	})
})

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}
