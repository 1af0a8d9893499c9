package redistest

import (
	"errors"
	"os"

	"github.com/onsi/ginkgo/v2"
)

// ForSuite registers a BeforeSuite that starts a server for this suite
// process (its own port, its own temporary directory) and a cleanup that
// stops it. The function it returns gives the server inside a spec, or
// skips the spec with [Missing] when redis-server is not on PATH. Call it
// once, at the top level of a suite that has no other BeforeSuite.
func ForSuite() func() *Server {
	var (
		srv     *Server
		missing bool
	)
	ginkgo.BeforeSuite(func() {
		dir, err := os.MkdirTemp("", "redistest-")
		if err != nil {
			ginkgo.Fail("redistest: " + err.Error())
		}
		ginkgo.DeferCleanup(os.RemoveAll, dir)
		s, err := Start(dir)
		if errors.Is(err, ErrMissing) {
			missing = true
			return
		}
		if err != nil {
			ginkgo.Fail(err.Error())
		}
		ginkgo.DeferCleanup(s.Stop)
		srv = s
	})
	return func() *Server {
		if missing {
			ginkgo.Skip(Missing)
		}
		return srv
	}
}
