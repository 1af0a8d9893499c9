package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// floorEnv, when set to an upstream URL, makes this program the floor
// proxy instead of the benchmark (it re-executes itself so).
var bg = context.Background()

const floorEnv = "TOOLOUT_BENCH_FLOOR_UPSTREAM"

// floorPool is the floor's idle connections per upstream host: the
// gateway's default max_concurrent_requests, so that the floor opens no
// connection under the load's 32 clients either.
const floorPool = 64

// serveFloor is the floor: httputil.ReverseProxy to upstream and nothing
// else, on a loopback port it prints on stdout. It never returns.
func serveFloor(upstream string) {
	u, err := url.Parse(upstream)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(2)
	}
	p := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u) },
		Transport: &http.Transport{
			Proxy: nil, MaxIdleConns: floorPool, MaxIdleConnsPerHost: floorPool,
			IdleConnTimeout: 90 * time.Second, DisableCompression: true,
		},
	}
	fmt.Println("http://" + ln.Addr().String())
	// Full duplex: the transport may read the end of the request body
	// (to check its length) after the answer started; without it the HTTP/1
	// server has closed that body by then and the transport drops the
	// upstream connection, cutting a stream (a known limit of the HTTP/1 server).
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		p.ServeHTTP(w, r)
	})
	err = (&http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}).Serve(ln)
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(1)
}

// child is a proxy running as a process of its own.
type child struct {
	Name string
	URL  string
	cmd  *exec.Cmd
}

func (c *child) PID() int { return c.cmd.Process.Pid }

// Stop kills the child and waits for it.
func (c *child) Stop() {
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
}

// startFloor re-executes this program as the floor in front of upstream.
func startFloor(upstream string) (*child, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), floorEnv+"="+upstream)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{Name: "floor", cmd: cmd}
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		c.Stop()
		return nil, fmt.Errorf("floor: no address on stdout: %w", err)
	}
	c.URL = strings.TrimSpace(addr)
	return c, nil
}

// gatewayConfig is the gateway's config: compression by the simple
// strategy with expand_context, results up to maxResult bytes compressed,
// the memory store capped at storeCap; every other key at its default.
func gatewayConfig(maxResult int, storeCap int64) string {
	return fmt.Sprintf(`pipes:
  tool_output:
    enabled: true
    strategy: simple
    enable_expand_context: true
    max_bytes: %d
store:
  backend: memory
  max_bytes: %d
`, maxResult, storeCap)
}

// startGateway runs `toolout gateway serve` (the binary bin) in front of
// upstream with config, on a free loopback port, and waits until its
// /healthz answers.
func startGateway(bin, dir, upstream, config string) (*child, error) {
	cfg := filepath.Join(dir, "gateway.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "gateway", "serve", "--listen", addr, "--upstream", upstream, "--config", cfg)
	// Its log (a line per request) goes to a file, not the console.
	log, err := os.Create(filepath.Join(dir, "gateway.log"))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{Name: "gateway", URL: "http://" + addr, cmd: cmd}
	for start := time.Now(); time.Since(start) < 20*time.Second; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(c.URL + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c, nil
			}
		}
	}
	c.Stop()
	return nil, errors.New("gateway: /healthz did not answer within 20 s (its log: " + log.Name() + ")")
}

// buildToolout builds ./cmd/toolout into dir.
func buildToolout(dir string) (string, error) {
	bin := filepath.Join(dir, "toolout")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/toolout")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/toolout: %w", err)
	}
	return bin, nil
}
