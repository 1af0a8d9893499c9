// Package store keeps a session's oversized tool outputs on disk and hands out
// handles to them (docs/contracts.md, section 1).
//
// A Store owns one directory, <base>/ai-agent-<session-id>/, with base
// configurable (the system temp dir by default). Each stored output is one
// file named by its handle, a UUID from Options.Sources. Metadata stays in
// memory: tool name, the verbatim arguments JSON, bytes, lines, tokens and
// average line bytes. Files are written byte for byte as the tool returned them
// (no pretty-printing), so the stats describe exactly the file that the
// read-grep sub-agent will Read and Grep.
//
// Stats (Measure): bytes is len(output); lines is the count of "\n" plus one,
// and 0 for empty output; tokens come from the session's tokenizer; average
// line bytes is ceil(bytes/lines), 0 for empty output. Put takes the stats
// its caller measured to decide, so an output is tokenized once; the store
// itself needs no tokenizer. Read returns an output's metadata and text from
// one lookup.
//
// What is stored is the session's decision (session.Policy, decision 11),
// not the store's: the store keeps what it is handed. The model then sees
// HandleMessage: exactly the three lines of section 2a.
//
// Lifetime: there are no caps and no TTL (decision 2); everything lives until
// Close, which removes the directory and is safe to call more than once. The
// session calls it on every way out (success, error, cancellation, panic).
// CloseAll closes every store of the process still open, for a program that
// must exit before its sessions return (cmd/toolout after a signal's grace).
//
// Nothing left behind by a killed process (choices where the spec is silent):
//   - New records the owner in the directory: OwnerFile (".owner"), a
//     symbolic link whose target text is the owner (Owner.String). A link,
//     not a file, because it is made in one atomic call and because Grep
//     reads regular files only, so the read-grep sub-agent never sees it;
//     no handle may take its name. Where the marker cannot be made, the
//     directory is still removed by Close, only never swept.
//   - The owner is host name, kernel boot id, pid namespace, pid and the
//     process's start time in clock ticks since boot (/proc/PID/stat field
//     22). A pid alone is not enough: once a process exits, its pid can be
//     reused. The start time cannot: a process holding the pid now either is
//     the owner (same start time) or started later (another start time). So
//     pid reuse can never make a live owner look dead; the check only proves
//     death ("no process with this pid", or "a process with another start
//     time"), and anything it cannot judge is kept: another host or pid
//     namespace (a folder shared with another machine or container), a
//     missing, unreadable or foreign marker (another program, such as the
//     reference implementation, an older toolout, or a directory being
//     made), an entry that is not a directory. A past boot of the same host
//     is dead. Without Linux's /proc there is no such identity: no marker is
//     written and Sweep removes nothing.
//   - New sweeps its base (Sweep) before making its directory, at most once
//     per SweepInterval (a minute, by Options.Sources' clock) per base per
//     process, so a busy base with many live sessions is not read at every
//     open. A failed sweep never fails New; Options.Logf hears of it and of
//     each directory removed. Session ids must be unique within a base (the
//     default UUIDs are): a sweep judges a directory by name, then removes it.
//   - A program that puts its stores under a base of its own per run (the
//     harness: TMPDIR/toolout-scenario-*/ai-agent-*) marks that base with
//     MarkOwner and sweeps the bases' parent with SweepPrefix: the store's
//     own sweep never looks into a killed run's base again.
//
// A Store is safe for concurrent use. Handles are opaque: one that this Store
// did not hand out is ErrNotFound, whatever it looks like (a path, "../x"), so
// sessions never see each other's outputs.
package store
