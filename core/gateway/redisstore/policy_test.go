package redisstore_test

import (
	"context"
	"fmt"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway/redisstore"
	"github.com/toolout/toolout/internal/redistest"
)

// startWith starts a redis-server of the spec's own with more options,
// stopped at the end of the spec; it skips without redis-server.
func startWith(args ...string) *redistest.Server {
	GinkgoHelper()
	server() // skips without redis-server
	srv, err := redistest.Start(GinkgoT().TempDir(), args...)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(srv.Stop)
	return srv
}

// newLogged opens a store on srv and returns it (nil when New failed),
// New's error and the lines it logged.
func newLogged(srv *redistest.Server, allow bool) (*redisstore.Store, error, []string) {
	GinkgoHelper()
	var lines []string
	s, err := redisstore.New(context.Background(), redisstore.Options{URL: srv.URL, Prefix: newPrefix(), AllowEviction: allow,
		Logf: func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }})
	if err == nil {
		DeferCleanup(s.Close)
	}
	return s, err, lines
}

var _ = Describe("redisstore's check of the eviction policy", func() {
	DescribeTable("refuses a policy that evicts any key, with one line saying why",
		func(policy string) {
			srv := startWith("--maxmemory", "64mb", "--maxmemory-policy", policy)
			_, err, lines := newLogged(srv, false)
			Expect(err).To(MatchError("redisstore: " + srv.URL + " evicts any key (maxmemory-policy " + policy + "): " +
				"originals and the store's accounting would be lost; use noeviction or volatile-*, or set allow_eviction"))
			Expect(lines).To(BeEmpty())
		},
		Entry(nil, "allkeys-lru"),
		Entry(nil, "allkeys-lfu"),
		Entry(nil, "allkeys-random"),
	)

	It("accepts an evicting policy when allowed, saying so in one line", func() {
		srv := startWith("--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru")
		s, err, lines := newLogged(srv, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(s).NotTo(BeNil())
		Expect(lines).To(ConsistOf(HavePrefix("redisstore: " + srv.URL + " evicts any key (maxmemory-policy allkeys-lru), allowed: ")))
	})

	DescribeTable("accepts a policy that evicts only keys with an expiration, or none, in silence",
		func(policy string) {
			srv := startWith("--maxmemory", "64mb", "--maxmemory-policy", policy)
			_, err, lines := newLogged(srv, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(lines).To(BeEmpty())
		},
		Entry(nil, "noeviction"),
		Entry(nil, "volatile-lru"),
		Entry(nil, "volatile-lfu"),
		Entry(nil, "volatile-random"),
		Entry(nil, "volatile-ttl"),
	)

	It("reads the policy from INFO memory when CONFIG is renamed away", func() {
		srv := startWith("--maxmemory-policy", "allkeys-lfu", "--rename-command", "CONFIG", "")
		_, err, _ := newLogged(srv, false)
		Expect(err).To(MatchError(ContainSubstring("evicts any key (maxmemory-policy allkeys-lfu)")))
	})

	It("goes on with one warning line when neither CONFIG nor INFO answers", func() {
		srv := startWith("--maxmemory-policy", "allkeys-lru", "--rename-command", "CONFIG", "", "--rename-command", "INFO", "")
		_, err, lines := newLogged(srv, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(lines).To(HaveLen(1))
		Expect(lines[0]).To(MatchRegexp(`^redisstore: ` + regexp.QuoteMeta(srv.URL) + `: cannot read maxmemory-policy \(CONFIG GET: ERR unknown command 'CONFIG'.*; INFO memory: ERR unknown command 'INFO'.*\); ` +
			`should it be allkeys-\*, Redis may evict originals and the store's accounting$`))
	})

	DescribeTable("reads maxmemory_policy from an INFO reply",
		func(info, want string, ok bool) {
			got, gotOK := redisstore.InfoPolicy(info)
			Expect([]any{got, gotOK}).To(Equal([]any{want, ok}))
		},
		Entry("CRLF lines", "# Memory\r\nused_memory:1\r\nmaxmemory_policy:volatile-ttl\r\n", "volatile-ttl", true),
		Entry("LF lines, the last unended", "maxmemory:0\nmaxmemory_policy:allkeys-lru", "allkeys-lru", true),
		Entry("no such field", "# Memory\r\nused_memory:1\r\n", "", false),
		Entry("an empty value", "maxmemory_policy:\r\n", "", false),
		Entry("a value that is no policy name", "maxmemory_policy:all keys\r\n", "all keys", false),
		Entry("the field inside another line", "x_maxmemory_policy:allkeys-lru\r\n", "", false),
	)
})
