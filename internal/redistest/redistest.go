// Package redistest runs a real redis-server for specs: on a free loopback
// port, with nothing persisted, its files in a directory the caller owns.
// Each caller (a suite, or each process of a parallel suite) gets its own
// server, so suites never share keys or ports.
//
// When redis-server is not on PATH, Start returns ErrMissing, whose text is
// the one line a spec skips with ([Missing]). [ForSuite] wires all of it
// into a Ginkgo suite. Only test code imports this package.
//
// Choices: the free port is found by listening on 127.0.0.1:0 and closing;
// should another process take it before redis-server binds, Start tries
// again with a new port (three attempts). Readiness is a PING answered
// within 10 seconds, polled by re-dialing every 10ms, never a fixed sleep.
// On Linux the server is killed when the process that started it dies
// (Pdeathsig), so a test binary killed on timeout leaves no server behind.
package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Missing is the skip message when redis-server is not installed.
const Missing = "redis-server not on PATH; install it with: apt-get update && apt-get install -y redis-server"

// ErrMissing is returned by Start when redis-server is not on PATH.
var ErrMissing = errors.New(Missing)

// readyTimeout bounds the wait for the first PING answer.
const readyTimeout = 10 * time.Second

// Server is a running redis-server.
type Server struct {
	// URL is redis://127.0.0.1:PORT/0.
	URL string
	// Addr is 127.0.0.1:PORT.
	Addr string

	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	log  *tail
	stop sync.Once
}

// Start runs redis-server on a free loopback port, with dir as its working
// directory, and returns once it answers PING. args are more of its
// command-line options, such as "--maxmemory", "2mb".
func Start(dir string, args ...string) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrMissing
	}
	for attempt := 1; ; attempt++ {
		s, err := start(bin, dir, args)
		if err == nil || attempt == 3 || !errors.Is(err, errExited) {
			return s, err
		}
	}
}

var errExited = errors.New("redis-server exited")

func start(bin, dir string, args []string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("redistest: free port: %w", err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s := &Server{URL: "redis://" + addr + "/0", Addr: addr, done: make(chan struct{}), log: &tail{max: 2048}}
	s.cmd = exec.Command(bin, append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir}, args...)...)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	setDeathSignal(s.cmd)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("redistest: start redis-server: %w", err)
	}
	go func() {
		_ = s.cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(); err != nil {
		_ = s.Stop()
		return nil, err
	}
	return s, nil
}

// waitReady polls PING until it is answered, the process exits, or the
// deadline passes.
func (s *Server) waitReady() error {
	deadline := time.Now().Add(readyTimeout)
	var last error
	for time.Now().Before(deadline) {
		if last = ping(s.Addr); last == nil {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("redistest: %w before answering PING on %s: %s", errExited, s.Addr, s.log.line())
		case <-time.After(10 * time.Millisecond):
		}
	}
	return fmt.Errorf("redistest: redis-server on %s did not answer PING within %v: %v; log: %s", s.Addr, readyTimeout, last, s.log.line())
}

// Stop kills the server and waits for it to exit. It may be called more
// than once.
func (s *Server) Stop() error {
	s.stop.Do(func() {
		_ = s.cmd.Process.Kill()
		<-s.done
	})
	return nil
}

// Ping reports whether the server answers PING now.
func (s *Server) Ping() error { return ping(s.Addr) }

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ping sends an inline PING and expects +PONG.
func ping(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.SetDeadline(time.Now().Add(time.Second)); err != nil {
		return err
	}
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "+PONG" {
		return fmt.Errorf("PING answered %q", strings.TrimSpace(line))
	}
	return nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// line is the kept output on one line.
func (t *tail) line() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var lines []string
	for l := range strings.Lines(string(t.b)) {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, " | ")
}
