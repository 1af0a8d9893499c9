package redisstore

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// conn is what a store dials: the URL without its query, and the options
// its query set.
type conn struct {
	url                                    string // scheme, user, host and database; no query
	dialTimeout, readTimeout, writeTimeout time.Duration
	poolSize                               int
}

// options lists the query options a URL may carry.
var options = []string{"dial_timeout", "read_timeout", "write_timeout", "pool_size"}

// parseURL reads a Redis URL, with errors that never show its password:
// redis:// or rediss:// (TLS), a host with an optional port (6379), a
// database number (0 when the path is empty) and the query options of
// `options`. The URL is checked here, so that New fails on a bad one with
// "bad URL" instead of at the first dial.
func parseURL(raw string) (conn, error) {
	if raw == "" {
		return conn{}, errors.New("redisstore: no URL (want redis://HOST:PORT/DB)")
	}
	c, err := readURL(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text would repeat the URL, password and all
		}
		return conn{}, fmt.Errorf("redisstore: bad URL %q: %w", redact(raw), oneLine(err))
	}
	return c, nil
}

func readURL(raw string) (conn, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return conn{}, err
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return conn{}, fmt.Errorf("invalid URL scheme: %s (want redis or rediss)", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return conn{}, errors.New("no host (want redis://HOST:PORT/DB)")
	}
	if _, port, err := net.SplitHostPort(u.Host); err == nil {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return conn{}, fmt.Errorf("invalid port %q", port)
		}
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		if n, err := strconv.Atoi(db); err != nil || n < 0 {
			return conn{}, fmt.Errorf("invalid database number: %q", db)
		}
	}
	c := conn{poolSize: 10 * runtime.GOMAXPROCS(0)}
	for key, vals := range u.Query() {
		if !slices.Contains(options, key) {
			return conn{}, fmt.Errorf("unexpected option: %s (want one of %s)", key, strings.Join(options, ", "))
		}
		if len(vals) != 1 {
			return conn{}, fmt.Errorf("option %s given %d times", key, len(vals))
		}
		if err := c.set(key, vals[0]); err != nil {
			return conn{}, err
		}
	}
	u.RawQuery, u.ForceQuery, u.Fragment = "", false, ""
	c.url = u.String()
	return c, nil
}

// set reads one query option: a duration ("500ms", "3s", or a whole number
// of seconds) or the pool size.
func (c *conn) set(key, val string) error {
	if key == "pool_size" {
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 {
			return fmt.Errorf("invalid pool_size %q (want a number over 0)", val)
		}
		c.poolSize = n
		return nil
	}
	d, err := time.ParseDuration(val)
	if err != nil {
		n, nerr := strconv.Atoi(val)
		if nerr != nil {
			return fmt.Errorf("invalid %s %q (want a duration such as 500ms or 3s)", key, val)
		}
		d = time.Duration(n) * time.Second
	}
	if d <= 0 {
		return fmt.Errorf("invalid %s %q (want a duration over 0)", key, val)
	}
	switch key {
	case "dial_timeout":
		c.dialTimeout = d
	case "read_timeout":
		c.readTimeout = d
	default:
		c.writeTimeout = d
	}
	return nil
}

func timeout(opt, fromURL time.Duration) time.Duration {
	switch {
	case opt > 0:
		return opt
	case fromURL != 0:
		return fromURL
	}
	return DefaultTimeout
}

// redact hides the password of a URL, even one that does not parse.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	at := strings.LastIndex(raw, "@")
	if at < 0 {
		return raw
	}
	start := strings.Index(raw, "://") + len("://")
	if start < len("://") || start > at {
		start = 0
	}
	return raw[:start] + "xxxxx" + raw[at:]
}

// oneLine keeps err's chain for errors.Is and flattens its text.
func oneLine(err error) error {
	if msg := err.Error(); strings.ContainsAny(msg, "\r\n") {
		return &flatError{msg: strings.Join(strings.Fields(msg), " "), err: err}
	}
	return err
}

type flatError struct {
	msg string
	err error
}

func (e *flatError) Error() string { return e.msg }
func (e *flatError) Unwrap() error { return e.err }
