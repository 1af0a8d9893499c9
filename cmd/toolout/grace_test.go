package main

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the shutdown grace of each command", func() {
	DescribeTable("comes from the command table",
		func(args []string, grace time.Duration, server bool) {
			g, s := shutdownGrace(commands(), args)
			Expect(g).To(Equal(grace))
			Expect(s).To(Equal(server))
		},
		Entry("serve drains its answers for 5 s", []string{"serve", "--addr", "127.0.0.1:0", "s.yaml"}, serveDrain+time.Second, true),
		Entry("gateway serve drains its requests for 10 s", []string{"gateway", "serve", "--config", "c.yaml"}, gatewayDrain+time.Second, true),
		Entry("another gateway command", []string{"gateway", "compress"}, defaultGrace, false),
		Entry("a command that is not a server", []string{"test", "scenarios"}, defaultGrace, false),
		Entry("a flag where a server's name would be", []string{"--help", "serve"}, defaultGrace, false),
		Entry("no command", []string{}, defaultGrace, false),
	)

	It("is set on the servers only", func() {
		var servers []string
		var walk func(prefix string, table []command)
		walk = func(prefix string, table []command) {
			for _, c := range table {
				if c.grace > 0 {
					servers = append(servers, prefix+c.name)
				}
				walk(prefix+c.name+" ", c.subs)
			}
		}
		walk("", commands())
		Expect(servers).To(ConsistOf("serve", "gateway serve"))
	})
})
