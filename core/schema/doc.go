// Package schema summarizes large tool output schemas for a planner and
// lets it drill down on demand (specs/schema-summary-introspection.md): the
// folded output_fields of a compact descriptor with has_hidden_fields
// ([Summarize]), and the inspect_tool_output inspector ([Inspect]).
//
// # Schemas
//
// Input is a JSON Schema as JSON. A "data" property of the top object is the
// root (the tool envelope, spec section 6.1). Properties keep the order they
// are written in. Types: "type" as a string or a list (["string","null"] is
// "string|null"), OpenAPI "nullable", enum and const (typed by their first
// value), objects without "type" that have properties, arrays with items,
// prefixItems or draft-4 tuple items (the first item schema). anyOf/oneOf:
// null branches make the rest nullable; one remaining branch stands for the
// whole; only primitives join their labels ("string|integer"); branches with
// objects make a "union" whose fields are those of its object branches,
// merged. allOf merges the properties of its branches. Local $refs ("#/…",
// JSON pointers) are resolved; a recursive schema becomes a cyclic graph,
// and walks never follow a node into itself. An object without declared
// properties has unknown keys, unless additionalProperties is false.
//
// Paths use dots for properties and "[]" for each array level: "orders[]",
// "orders[].line_items[].sku", "matrix[][]"; a root array is "[]".
//
// # Summary
//
// At most MaxSummaryFields (30) lines, in the spec's order:
//
//  1. Tier 2: every field of the root, as "key: type" for a leaf or a fold
//     marker for a container: `key: object (contains N sub-fields;
//     inspect_tool_output(..., field_path="key"))`, `key[]: object (…)` for
//     an array of objects, `key: object (unknown keys; …)`, with N the
//     number of immediate children. More than 30 root fields: the first 29
//     and `* (+N more fields; inspect_tool_output(..., field_path=""))`.
//  2. Tier 1: leaves anywhere below (any depth, breadth-first) whose path
//     matches [Tier1Regex], as many as the budget holds.
//  3. Fill: containers are expanded breadth-first, each one wholly, while
//     its children (less its own marker line) fit the budget and lie within
//     the summary depth (3). An expanded container's marker is dropped: its
//     children show it. A container too big for what is left stays folded,
//     and smaller ones after it may still be expanded.
//
// has_hidden_fields is true whenever anything is left out: a fold marker
// (container not expanded, depth limit, unknown keys), an overflow marker,
// or the node cap. The reference returns plain leaves with false when 30
// fields fit even if its depth limit cut deeper containers; here such
// containers are marked, so nothing is hidden silently. A summary visits at
// most DefaultMaxNodes nodes, so a huge or recursive schema stays bounded.
//
// # Inspector
//
// [Inspect] walks a field path ("a.b", "a[]", "a[].b", "[][]", empty for the
// root) and returns the node's type ("array" for "orders", "object" for
// "orders[]"), its immediate children (of the items, for an array) with
// their types, a breadth-first flattened preview with paths relative to the
// node and containers past MaxDepth (4) as fold markers, the number of
// immediate children, and truncated when MaxFields (120) or the depth limit
// cut anything or the keys are unknown. An unknown field, or "[]" on
// something that is not an array, is an error that names the path walked.
//
// # Tool surface
//
// [InspectTool] is the inspect_tool_output descriptor, [Compact] builds the
// compact descriptor with output_fields and has_hidden_fields, and
// [PlannerDirective] is the spec's planner block, verbatim.
package schema
