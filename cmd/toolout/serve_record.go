package main

import (
	"errors"
	"fmt"

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
