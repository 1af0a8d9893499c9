package openai

import "time"

// SetDefaultTimeout shortens the timeout an attempt gets when the Client's
// http.Client has none, for the spec that checks it; it returns the undo.
func SetDefaultTimeout(d time.Duration) (restore func()) {
	old := defaultTimeout
	defaultTimeout = d
	return func() { defaultTimeout = old }
}
