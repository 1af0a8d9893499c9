// Package components holds the harness's adapters: one component per part of
// core that scenarios exercise (extract, finalreport, gateway, leaked, llm,
// schema, session, store), each a harness.Spec whose config, input and
// expect shapes are documented on their types, and Default, their registry.
// It is the only code of the harness that imports core's subpackages; the
// trace importer asks it (SessionExtraction, RecoverLeaked) what it needs to
// know of them.
//
// Choices where the specs are silent: the session and extract components
// decode their extraction knobs over extract.DefaultConfig() (a key left out
// keeps its default; 0 is 0), and the session's extract: section takes the
// session's context_window unless it sets its own.
//
// Nothing left after kill -9: every run's scratch folder (Env.TempDir,
// TMPDIR/toolout-scenario-*), where the extract, session and store
// components open their stores, is made by Default's scratch maker. It
// records this process as the folder's owner (store.MarkOwner: host, boot,
// pid namespace, pid and start time) and, the first time a process makes a
// folder in a temp dir, removes the toolout-scenario-* folders there whose
// owner is provably gone (store.SweepPrefix). A store's own sweep cannot do
// this: it looks only in its base, and each run's base is a folder of its
// own, so nothing else would look at the stores of a run killed with
// SIGKILL. Liveness is proved the way the store proves it, so a run never
// removes the folder of another run still going (two toolout test at once,
// or go test beside it), and a folder without a readable marker is kept.
package components
