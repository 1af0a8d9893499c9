package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
	"github.com/toolout/toolout/harness/record"
	"github.com/toolout/toolout/harness/serve"
)

// serveRecord holds `toolout serve`'s recording flags.
type serveRecord struct {
	upstream *string
	only     *bool
	emails   *bool
	redact   stringList
	given    func(name string) bool
}

// recordFlags declares the recording flags on fs.
func recordFlags(fs *flagSet) *serveRecord {
	r := &serveRecord{
		upstream: fs.String("record", "", "forward each request no step answers to this real model's base URL (https://api.openai.com/v1, https://api.anthropic.com) and record it in the scenario; the key comes from OPENAI_API_KEY or ANTHROPIC_API_KEY"),
		only:     fs.Bool("record-only", false, "with --record, record every request, answering none from the scenario's steps"),
		emails:   fs.Bool("redact-emails", false, "with --record, also replace e-mail addresses in what is recorded"),
		given:    func(name string) bool { return flagGiven(fs.FlagSet, name) },
	}
	fs.Var(&r.redact, "redact", "with --record, a regular expression whose matches are replaced in what is recorded (repeatable)")
	return r
}

// recorder is the Recorder the flags ask for, or nil without --record;
// the recording flags without --record are an error.
func (r *serveRecord) recorder(logf func(string, ...any)) (serve.Recorder, error) {
	if *r.upstream == "" {
		for _, name := range []string{"record-only", "redact-emails", "redact"} {
			if r.given(name) {
				return nil, fmt.Errorf("--%s: goes with --record", name)
			}
		}
		if r.given("record") {
			return nil, errors.New("--record: want the upstream's URL")
		}
		return nil, nil
	}
	rec, err := record.New(record.Options{Upstream: *r.upstream, Only: *r.only, RedactEmails: *r.emails, Redact: r.redact, Logf: logf})
	if err != nil {
		return nil, fmt.Errorf("--record: %v", err)
	}
	return rec, nil
}

// loadServed loads the scenarios to serve; with a recorder, a file that
// does not exist yet is a scenario to record, without steps, its id the
// file's name (the recording writes it).
func loadServed(files []string, opts serve.Options) (*serve.Server, error) {
	if opts.Record == nil {
		return serve.Load(files, opts)
	}
	var scs []*harness.Scenario
	var errs []error
	for _, f := range files {
		if _, err := os.Stat(f); errors.Is(err, os.ErrNotExist) {
			if _, err := os.Stat(filepath.Dir(f)); err != nil {
				errs = append(errs, fmt.Errorf("%s: its folder: %w", f, err))
				continue
			}
			id := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
			scs = append(scs, &harness.Scenario{ID: id, Component: "session", Path: f, File: f})
			continue
		}
		sc, err := harness.Load(components.Default(), f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		scs = append(scs, sc)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return serve.New(scs, opts)
}
