// Package session is the main agent session of docs/contracts.md, section 1:
// the agent loop (core/agent) with the task's tools, the per-session store
// (core/store) and the tool_output tool (core/extract).
//
// # The oversize policy
//
// Every tool result passes the oversize policy (Policy, decision 11) before
// the model sees it. The session measures it once (bytes, and tokens with the
// session's tokenizer) and knows the context left: ContextWindow less the
// tokens of the conversation so far (every message's content, each counted
// once: the session keeps a running count), or no figure when ContextWindow
// is negative. [Policy.Decide] stores the result when it is over the smaller
// of two limits, min(byte cap, k × context left), compared exactly as:
//
//   - bytes: bytes > MaxBytes (strictly; MaxBytes 0 is no byte rule);
//   - context: tokens > floor(k × remaining), with k (ContextFactor) read to
//     six decimal places so that the product is exact (0.29 × 100 is 29);
//     k = 0, or no figure for the context left, is no context rule.
//
// Choice of unit (the spec leaves it open; Gemini CLI caps at "40k
// characters or 4x the remaining context, whichever is smaller", its 4 being
// characters per token): the context rule compares tokens with tokens, both
// counted by the session's tokenizer, so no characters-per-token estimate
// enters it, and k is the share of what is left that one result may take.
// Gemini's rule is k = 1 here, and DefaultPolicy has k = 1 ("tokens >
// remaining budget") and a 12 KiB cap. k above 1 would let in a result that
// cannot fit, so Validate refuses it. Compared in one unit, the context
// limit is floor(limit tokens × bytes / tokens) bytes of this output (its
// own bytes per token): that makes storing over either limit the same as
// storing over min(cap, context limit). When both rules fire, the reason
// names the one whose limit is smaller in those bytes (the byte cap on a
// tie). Arithmetic is exact in 128 bits: no value overflows.
//
// [Decision.Reason] names the rule that fired with its numbers, and the
// session's log line carries it: "bytes: 52000 > cap 40000", "context: 13000
// tokens > 0.5 x remaining 9000 = 4500 tokens", with " for NAME" when a
// per-tool override set that limit.
//
// Per-tool overrides (Policy.Tools, by exact tool name): a tool's own byte
// cap, its own k (0 turns either rule off for it), or never_store.
//
// # Recovery tools: no offload-recovery loop
//
// An agent that stores a result and then stores the answer of the tool it
// reads it back with can loop forever: each answer is over the cap again and
// becomes a new handle (scenarios/session/offload-loop-without-exemption.yaml
// shows it, with the exemption turned off). So a recovery tool's output is
// never stored: tool_output always (the spec), the tools of
// Policy.RecoveryTools (default: core/fstools' Read and Grep, the names the
// read-grep sub-agent uses, which a session may offer its model too), and a
// tool with a never_store override. Names are exact (case-sensitive). For
// such an output Decide answers Exempt, and:
//
//   - within the context limit it is shown whole, even over the byte cap:
//     the cap chooses between showing and storing, and storing is not an
//     option; the model asked for this answer (a page, an abstract). The log
//     says so: "kept the output of Read (exempt: recovery tool Read; bytes:
//     1678 > cap 512, not stored)".
//   - over the context limit it cannot be shown whole, so it is cut in place
//     with extract.Truncate (head and tail around the "[... N bytes truncated
//     ...]" marker) to the context limit in bytes of this output (Keep), and
//     logged with the rule. The marker comes on top, and the bytes per token
//     of the kept part may differ from the whole's, so the cut fits to within
//     a few tokens. A model that needs more pages with Read's offset and limit
//     or asks tool_output for less.
//
// Validate refuses a byte cap in the override of an exempt tool (it would
// decide nothing); its k there bounds the cut.
//
// # Configuration
//
// Policy is the one definition of the policy's knobs, with yaml and json
// tags: max_bytes, context_factor, recovery_tools, and tools (name →
// max_bytes, context_factor, never_store). Start from DefaultPolicy.
// [Policy.Validate] returns every problem (errors.Join of *FieldError, each
// naming its keys, "tools.Read.max_bytes"), so that a loader points at the
// line: the session component's config.policy section does. Options.Policy
// nil means DefaultPolicy(); Options.MaxToolResponseBytes, when not zero,
// sets its byte cap (negative: none). Run refuses a policy that does not
// validate before it creates anything.
//
// # The rest of the session
//
// A stored result reaches the model as the exact handle message of section
// 2a, and the decision is logged (decision 12). When the tool's input
// schema declares paging arguments (a limit, an offset, a page, a cursor:
// core/paging), one more line follows it, naming them ("Or call logs__query
// again asking for less: a smaller `limit`, then `cursor` for the rest.");
// a tool without them gets the spec's message byte for byte. Models repeat
// an oversized call when nothing says how to ask for less.
// A tool that is a [SizeHinter] (an MCP tool, core/mcpresult.Tool, whose
// result's _meta says "anthropic/maxResultSizeChars") has that limit as
// its byte cap for the result it just gave, in place of the policy's; the
// context rule still applies. The hint counts characters and the cap
// bytes, so text beyond ASCII meets it sooner than the tool meant. tool_output is offered only
// while the store is non-empty and never on the final turn (decisions 14,
// 15). Its failure format is a normal tool result, not an error. Its map,
// reduce and read-grep calls go to the session's LLM with the session's
// nonce; Options.Extract sets routing and strategy knobs (nil:
// extract.DefaultConfig() with the session's context window). Its schema is
// the extractor's (extract.ToolFor of that config): the spec's exact schema,
// or with the extra modes its offer_modes names, so the schema the model
// sees and the modes the extractor answers always agree.
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
