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
package components
