package redistest_test

import (
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/redistest"
)

var server = redistest.ForSuite()

var _ = Describe("redistest", func() {
	It("gives the suite a server that answers PING on loopback", func() {
		Expect(server().URL).To(MatchRegexp(`^redis://127\.0\.0\.1:\d+/0$`))
		Expect(server().Ping()).To(Succeed())
	})

	It("starts servers on distinct ports and stops them, more than once", func() {
		a, err := redistest.Start(GinkgoT().TempDir())
		if err != nil {
			Expect(err).To(MatchError(redistest.ErrMissing))
			Skip(redistest.Missing)
		}
		DeferCleanup(a.Stop)
		b, err := redistest.Start(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(b.Stop)
		Expect(a.Addr).NotTo(Equal(b.Addr))
		Expect(a.Stop()).To(Succeed())
		Expect(a.Ping()).NotTo(Succeed())
		Expect(a.Stop()).To(Succeed())
		Expect(b.Ping()).To(Succeed())
	})

	It("pauses a server so that it hangs, and resumes it", func() {
		s, err := redistest.Start(GinkgoT().TempDir())
		if err != nil {
			Skip(redistest.Missing)
		}
		DeferCleanup(s.Stop)
		Expect(s.Pause()).To(Succeed())
		Expect(s.Ping()).To(MatchError(ContainSubstring("timeout")))
		Expect(s.Resume()).To(Succeed())
		Expect(s.Ping()).To(Succeed())
	})

	It("reports in one line a server that exits before it answers", func() {
		server() // skips without redis-server
		_, err := redistest.Start(filepath.Join(GinkgoT().TempDir(), "missing"))
		Expect(err).To(MatchError(HavePrefix("redistest: redis-server exited before answering PING on 127.0.0.1:")))
		Expect(err.Error()).To(ContainSubstring("No such file or directory"))
		Expect(err.Error()).NotTo(ContainSubstring("\n"))
	})

	It("says how to install redis-server when it is not on PATH", func() {
		GinkgoT().Setenv("PATH", GinkgoT().TempDir())
		_, err := redistest.Start(GinkgoT().TempDir())
		Expect(err).To(MatchError(redistest.ErrMissing))
		Expect(err.Error()).To(Equal("redis-server not on PATH; install it with: apt-get update && apt-get install -y redis-server"))
		Expect(strings.Count(err.Error(), "\n")).To(BeZero())
	})
})
