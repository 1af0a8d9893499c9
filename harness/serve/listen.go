package serve

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
)

// Listen listens on a TCP address for a Server. Unless remote is set it
// refuses an address that is not loopback: an IP outside 127.0.0.0/8 and
// ::1, an empty host (every interface), or a host name other than
// "localhost" (a name is not resolved: what it names could change).
func Listen(addr string, remote bool) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", addr, err)
	}
	if !remote && !Loopback(host) {
		return nil, fmt.Errorf("address %q is not loopback (127.0.0.1, ::1, localhost); "+
			"the scripted model answers anyone who reaches it, so serving beyond this machine needs --allow-remote", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return ln, nil
}

// Loopback reports whether host (of a host:port) is loopback: an IP in
// 127.0.0.0/8 or ::1, or "localhost". An empty host (every interface) or
// any other name is not. toolout gateway serve checks --listen with it too.
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// URLs returns the base URL of each scenario on a listener's address, in
// the order of Bases: "http://ADDR/<id>/v1", or "http://ADDR/v1" when s
// serves one scenario.
func (s *Server) URLs(addr net.Addr) []string {
	var out []string
	for _, b := range s.Bases() {
		p := b.Path
		if len(s.scripts) == 1 {
			p = "/v1"
		}
		out = append(out, "http://"+addr.String()+p)
	}
	return out
}
