// Package session is the main agent session of docs/contracts.md, section 1:
// the agent loop (core/agent) with the task's tools, the per-session store
// (core/store) and the tool_output tool (core/extract).
//
// Every tool result passes the oversize policy (decision 11): it is stored
// when its bytes exceed MaxToolResponseBytes (strictly) or when its tokens
// would overflow what is left of ContextWindow after the conversation so far
// (counted with the session's tokenizer, each message once: the session keeps
// a running count). The policy is the session's (Policy); the store only
// keeps what the session hands it, with the stats the session measured, so an
// output is tokenized once. A stored result reaches the model
// as the exact handle message of section 2a, and the decision is logged
// (decision 12). tool_output's own results are never stored.
//
// tool_output is offered only while the store is non-empty and never on the
// final turn (decisions 14, 15). Its failure format is a normal tool result,
// not an error. Its map, reduce and read-grep calls go to the session's LLM
// with the session's nonce; Options.Extract sets routing and strategy knobs
// (nil: extract.DefaultConfig() with the session's context window).
//
// The session's nonce comes from Sources; the system prompt ends with the
// final-report instruction that names it. The store directory is removed when
// Run returns, on success, on error, on cancellation and on a panic in a tool
// (re-raised after the cleanup), so sessions leave nothing behind. A panic in
// a goroutine of an extraction (a map call) is recovered by core/extract and
// becomes a failed strategy, so it too ends with the cleanup. Opening the
// store sweeps directories of dead processes from StoreBase (core/store); its
// lines go to Logf.
package session
