package redisstore_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	. "github.com/onsi/ginkgo/v2"

	"github.com/toolout/toolout/internal/junit"
	"github.com/toolout/toolout/internal/redistest"
)

func TestRedisstore(t *testing.T) { junit.RunSpecs(t, "redisstore", "core-gateway-redisstore") }

// server is this suite process's redis-server; specs skip when it is not
// installed.
var server = redistest.ForSuite()

var prefixes atomic.Int64

// newPrefix returns a key prefix no other spec uses.
func newPrefix() string {
	return fmt.Sprintf("toolout-test:%d:%d:", GinkgoParallelProcess(), prefixes.Add(1))
}
