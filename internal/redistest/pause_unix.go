//go:build unix

package redistest

import "syscall"

// Pause stops the server process (SIGSTOP) without closing its sockets:
// clients connect and write, and no answer comes, as with a hung server.
func (s *Server) Pause() error { return s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() error { return s.cmd.Process.Signal(syscall.SIGCONT) }
