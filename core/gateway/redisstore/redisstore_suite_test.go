package redisstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/redis/go-redis/v9"

	"github.com/toolout/toolout/internal/junit"
	"github.com/toolout/toolout/internal/redistest"
)

func TestRedisstore(t *testing.T) {
	redis.SetLogger(ginkgoLogger{})
	RegisterFailHandler(Fail)
	RunSpecs(t, "redisstore")
}

var _ = junit.Report("core-gateway-redisstore")

// server is this suite process's redis-server; specs skip when it is not
// installed.
var server = redistest.ForSuite()

// ginkgoLogger sends go-redis's log lines (failed dials, in the specs that
// stop the server) to the spec's output instead of stderr.
type ginkgoLogger struct{}

func (ginkgoLogger) Printf(_ context.Context, format string, v ...any) {
	fmt.Fprintf(GinkgoWriter, format+"\n", v...)
}

var prefixes atomic.Int64

// newPrefix returns a key prefix no other spec uses.
func newPrefix() string {
	return fmt.Sprintf("toolout-test:%d:%d:", GinkgoParallelProcess(), prefixes.Add(1))
}
