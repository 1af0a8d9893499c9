package tokens

import (
	"errors"
	"fmt"
	"sync"

	"github.com/toolout/toolout/core"
)

// Check verifies that tk keeps the core.Tokenizer contract on each text: Count
// of "" is 0; the pieces are contiguous, start at 0, end at len(text), are not
// empty and have no negative counts; their tokens add up to Count; and results
// are the same when computed again and concurrently. It returns every problem
// found, joined, or nil.
func Check(tk core.Tokenizer, texts ...string) error {
	var errs []error
	if n := tk.Count(""); n != 0 {
		errs = append(errs, fmt.Errorf("tokens: %s: Count(\"\") = %d, want 0", tk.Name(), n))
	}
	if p := tk.Pieces(nil, ""); len(p) != 0 {
		errs = append(errs, fmt.Errorf("tokens: %s: Pieces(\"\") has %d pieces, want none", tk.Name(), len(p)))
	}
	for i, text := range texts {
		errs = append(errs, checkText(tk, i, text))
	}
	// Concurrent use must give the same counts.
	want := make([]int, len(texts))
	for i, t := range texts {
		want[i] = tk.Count(t)
	}
	got := make([]int, len(texts))
	var wg sync.WaitGroup
	for i, t := range texts {
		wg.Go(func() { got[i] = tk.Count(t) })
	}
	wg.Wait()
	for i := range texts {
		if got[i] != want[i] {
			errs = append(errs, fmt.Errorf("tokens: %s: text %d: concurrent Count = %d, sequential %d", tk.Name(), i, got[i], want[i]))
		}
	}
	return errors.Join(errs...)
}

func checkText(tk core.Tokenizer, i int, text string) error {
	count := tk.Count(text)
	pieces := tk.Pieces(nil, text)
	sum, at := 0, 0
	for j, p := range pieces {
		switch {
		case p.Start != at:
			return fmt.Errorf("tokens: %s: text %d: piece %d starts at %d, want %d", tk.Name(), i, j, p.Start, at)
		case p.End <= p.Start:
			return fmt.Errorf("tokens: %s: text %d: piece %d is empty or reversed [%d,%d)", tk.Name(), i, j, p.Start, p.End)
		case p.Tokens < 0:
			return fmt.Errorf("tokens: %s: text %d: piece %d has %d tokens", tk.Name(), i, j, p.Tokens)
		}
		sum += p.Tokens
		at = p.End
	}
	if at != len(text) {
		return fmt.Errorf("tokens: %s: text %d: pieces end at %d, want %d", tk.Name(), i, at, len(text))
	}
	if sum != count {
		return fmt.Errorf("tokens: %s: text %d: pieces add up to %d tokens, Count = %d", tk.Name(), i, sum, count)
	}
	if again := tk.Count(text); again != count {
		return fmt.Errorf("tokens: %s: text %d: Count = %d, then %d", tk.Name(), i, count, again)
	}
	return nil
}
