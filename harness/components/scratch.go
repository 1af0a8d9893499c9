package components

import (
	"os"
	"sync"

	"github.com/toolout/toolout/core/store"
)

// ScratchPrefix starts the name of every run's scratch folder, in the
// system temp dir (TMPDIR).
const ScratchPrefix = "toolout-scenario-"

// swept is the set of temp dirs this process has swept (see scratchDir).
var swept struct {
	sync.Mutex
	bases map[string]bool
}

// scratchDir makes a run's scratch folder, owned by this process (a
// store.MarkOwner marker, as in a store's own directory). The first time a
// process makes one in a temp dir, it first removes the scratch folders
// there whose owner process is gone (store.SweepPrefix), and with them the
// stores inside: a run killed with SIGKILL runs no cleanup, and its folder
// lasts only until the next run. A live run's folder is never removed,
// whoever runs the sweep. A failed sweep or marker fails no run: its folder
// is still removed when the run returns, only never swept.
func scratchDir() (string, error) {
	base := os.TempDir()
	swept.Lock()
	if !swept.bases[base] {
		if swept.bases == nil || len(swept.bases) >= 1024 {
			swept.bases = map[string]bool{} // forget old bases rather than grow without bound
		}
		swept.bases[base] = true
		_, _ = store.SweepPrefix(base, ScratchPrefix)
	}
	swept.Unlock()
	dir, err := os.MkdirTemp(base, ScratchPrefix)
	if err != nil {
		return "", err
	}
	_ = store.MarkOwner(dir)
	return dir, nil
}
