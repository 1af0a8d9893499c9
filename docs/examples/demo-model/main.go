package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:9000", "`ADDR` to listen on")
	maxBody := flag.Int64("max-body-bytes", 64<<20, "largest request body read; a larger one is 413")
	verbose := flag.Bool("verbose", false, "log each request to stderr")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "demo-model: unexpected argument %q\n", flag.Arg(0))
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := &model{MaxBodyBytes: *maxBody}
	if *verbose {
		m.Logf = func(format string, a ...any) { fmt.Fprintf(os.Stderr, "demo-model: "+format+"\n", a...) }
	}
	if err := serve(ctx, *listen, m.Handler(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo-model:", err)
		os.Exit(1)
	}
}

// serve listens on addr, prints one line when it does, and serves h until ctx ends; then it
// waits up to 5 s for the requests in flight.
func serve(ctx context.Context, addr string, h http.Handler, stdout io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	fmt.Fprintf(stdout, "demo-model: listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
