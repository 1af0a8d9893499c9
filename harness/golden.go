package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
)

// GoldenPath returns the golden file of sc as messages name it: under a
// scenarios folder golden/<id>.txtar, relative to that folder's parent;
// elsewhere the path as the scenario file (or the golden folder) was given,
// ending golden/<name>.txtar beside the scenario (or DIR/<id>.txtar). See
// LayoutIn.
func GoldenPath(sc *Scenario) string { return sc.at.shown }

// GotSuffix ends the name of the file that holds the transcript of a failing
// run, beside its golden: golden/<id>.txtar.got (.gitignore ignores *.got).
const GotSuffix = ".got"

// Golden compares a passing result's transcript with its golden file, or
// writes the golden: always with Update, when it is missing unless CI is set.
// A mismatch adds a failure with a full unified diff. A failing result never
// writes its golden, even with Update.
//
// A result that failed (its expectations, the scripted LLM's strictness, or
// the golden) and has a transcript leaves it in the .got file beside the
// golden, and its last failure names that file with the command that diffs
// it with the golden and the command that accepts it; the file is written
// atomically (a temporary file renamed), so parallel runs never interleave,
// and a .got that cannot be written is said in that failure, never made a
// failure of its own. A passing result removes the stale .got of an earlier
// failure. Every scenario has a golden, wherever it lies (LayoutIn); the
// commands a failure names run where the user stands: the program as they
// ran it (Command) and the paths as they gave them (acceptCommand).
func (r *Runner) Golden(res *Result) {
	sc := res.Scenario
	ranOK := res.Passed()
	if ranOK {
		r.compare(res)
	}
	switch {
	case res.Passed():
		if err := os.Remove(sc.Golden + GotSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			res.Notes = append(res.Notes, fmt.Sprintf("could not remove the stale %s: %v", GoldenPath(sc)+GotSuffix, unwrapPath(err)))
		}
	case res.Transcript != nil:
		res.Failures = append(res.Failures, r.writeGot(res, ranOK))
	}
}

// compare compares res's transcript with its golden file, or writes it.
func (r *Runner) compare(res *Result) {
	sc := res.Scenario
	name := GoldenPath(sc)
	want, err := os.ReadFile(sc.Golden)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if r.CI && !r.Update {
			cmd := r.accept(sc)
			res.Failures = append(res.Failures, fmt.Sprintf("%s: missing golden file (with CI=true goldens are never created; run `%s` and commit %s)", sc.Path, cmd, name))
			return
		}
		if err := writeFileAtomic(sc.Golden, res.Transcript); err != nil {
			res.Failures = append(res.Failures, fmt.Sprintf("%s: %v", name, err))
			return
		}
		res.Notes = append(res.Notes, "created "+name)
	case err != nil:
		res.Failures = append(res.Failures, fmt.Sprintf("%s: %v", name, unwrapPath(err)))
	case bytes.Equal(want, res.Transcript):
	case r.Update:
		if err := writeFileAtomic(sc.Golden, res.Transcript); err != nil {
			res.Failures = append(res.Failures, fmt.Sprintf("%s: %v", name, err))
			return
		}
		res.Notes = append(res.Notes, "updated "+name)
	default:
		res.Failures = append(res.Failures, fmt.Sprintf("%s: transcript differs from %s (-golden +got):\n%s",
			sc.Path, name, bytes.TrimSuffix(diff.Diff(name, want, "got", res.Transcript), []byte("\n"))))
	}
}

// writeGot writes the transcript of a failing result beside its golden and
// returns the failure that says where it is and what to do with it. ranOK
// says that the run itself passed and only its golden failed, so that
// --update accepts the transcript as it is. The commands name the files as
// they can be run from the working directory (see runnable), and the
// program as the user ran it (Runner.Command, see acceptCommand) or as
// Runner.Accept names it.
func (r *Runner) writeGot(res *Result, ranOK bool) string {
	sc := res.Scenario
	name := ShellQuote(runnableIn(r.Dir, sc.Golden))
	got := ShellQuote(runnableIn(r.Dir, sc.Golden) + GotSuffix)
	if err := writeFileAtomic(sc.Golden+GotSuffix, res.Transcript); err != nil {
		return fmt.Sprintf("%s: the transcript of this run could not be written: %v", got, err)
	}
	msg := runnableIn(r.Dir, sc.Golden) + GotSuffix + ": the transcript of this run\n"
	want, err := os.ReadFile(sc.Golden)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg += fmt.Sprintf("  to read it:   cat %s   (there is no %s yet)\n", got, name)
	case err != nil:
		msg += fmt.Sprintf("  to read it:   cat %s   (%s: %v)\n", got, name, unwrapPath(err))
	case bytes.Equal(want, res.Transcript):
		msg += fmt.Sprintf("  to read it:   cat %s   (the same bytes as %s)\n", got, name)
	default:
		msg += fmt.Sprintf("  to diff it:   diff -u %s %s\n", name, got)
	}
	accept := r.accept(sc)
	if ranOK {
		return msg + "  to accept it: " + accept
	}
	return msg + "  to accept it, once the expectations hold: " + accept
}

// accept is the command that accepts sc's transcript: r.Accept's, else
// acceptCommand's with r.Command.
func (r *Runner) accept(sc *Scenario) string {
	if r.Accept != nil {
		return r.Accept(sc)
	}
	return acceptCommand(sc, r.Command)
}

// runnableIn names path for a command typed in dir (Runner.Dir; "": the
// working directory): relative to it when path lies below it, else absolute
// (a scenario elsewhere, or the Ginkgo suite, which runs in harness/ on
// ../scenarios).
func runnableIn(dir, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	wd, err := os.Getwd()
	if dir != "" {
		wd, err = filepath.Abs(dir)
	}
	if err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}

// writeFileAtomic writes data to path through a temporary file in the same
// folder renamed over it, so that a reader or a parallel writer sees the old
// bytes or the new ones, never a mix. The temporary file's name ends in
// GotSuffix and starts with a dot, so that one left by a killed process is
// ignored like a .got.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return bareError(err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*"+GotSuffix)
	if err != nil {
		return bareError(err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return bareError(err)
	}
	return nil
}

// bareError drops the path (random, for a temporary file) from a file
// system error, so that the message that shows it is the same on every run.
func bareError(err error) error {
	var pe *os.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
