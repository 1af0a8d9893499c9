// Package schema summarizes large tool output schemas for a planner and
// lets it drill down on demand (docs/contracts.md, section 5): the
// folded output_fields of a compact descriptor with has_hidden_fields
// ([Summarize], [Compact]), and the inspect_tool_output inspector
// ([Inspect], and [Index.InspectToolOutput], the tool call with its
// envelope). Every function is total: any input gives a result or an
// error, never a panic, and costs time and memory linear in its size.
//
// # Input
//
// A schema is JSON. It is decoded without recursion; nesting of arrays and
// objects deeper than [MaxNesting] (10,000, the limit of encoding/json) is
// a [*NestingError] ("nesting deeper than 10000 levels at byte N"), other
// invalid JSON a [*SyntaxError] ("invalid JSON at byte N: ..."). Object
// keys keep their order; a duplicate key keeps its first place and its last
// value. Escapes are decoded (a lone surrogate becomes U+FFFD); other bytes,
// invalid UTF-8 included, are kept as they are. A "data" property of the
// top object is the root (the tool envelope, spec section 6.1).
//
// # Shapes and labels
//
// Each schema is normalized to a container (with ordered fields), an array
// (with items), or a leaf with a label. Where the spec is silent:
//
//   - "type" names a JSON type; names that are not 1 to 32 letters, digits,
//     '_' or '-' are ignored. OpenAPI "nullable": true adds null.
//   - Without "type", keywords imply it: properties, additionalProperties or
//     patternProperties an object; items or prefixItems an array; enum the
//     types of its values ("string|integer|null"; an empty enum is "never");
//     const the type of its value. A schema that says nothing ({}, true, an
//     unresolved $ref) is "any"; false is "never"; a value where a schema
//     belongs that is not one (3, "x", [], null) is "any".
//   - A list of types is the union of one reading per type: ["string",
//     "null"] is "string|null", ["integer","string"] is "integer|string",
//     ["object","array"] is a "union" with the object reading's fields.
//   - Null only shows on leaves: "T|null". A nullable object or array reads
//     as the object or array.
//   - An object without declared properties has unknown keys (a fold marker
//     "unknown keys"), unless additionalProperties is false and there are
//     no patternProperties: then it is the leaf "object" (always empty).
//     Next to declared properties, additionalProperties and
//     patternProperties are not shown. A "properties" that is not an object
//     is ignored.
//   - An array's element is its items schema (true or absent: "any"; false:
//     "never"), or the first schema of a tuple (prefixItems, or draft-4
//     items as a list). Paths add "[]" per array level: "orders[]",
//     "matrix[][]"; a root array is "[]".
//   - A schema is the intersection of its own keywords, its allOf branches
//     and the unions of its anyOf and oneOf, in that order. An intersection
//     merges the fields of its objects (the first of each name kept);
//     without an object, the first array, else the first leaf label stands;
//     a "never" part makes it "never".
//   - anyOf and oneOf: null branches make the rest nullable; one remaining
//     branch stands for the whole; several branches of which at least one is
//     an object make a "union" container whose fields are its object
//     branches' fields, merged; otherwise the labels join ("number|string",
//     an array branch as "array"), and an "any" branch makes it "any". A
//     composition keyword whose value is not a non-empty array is ignored.
//   - $ref: local JSON pointers ("#/$defs/Order", "#/allOf/0", with ~0, ~1
//     and percent escapes) are resolved; keywords beside a $ref are
//     ignored; remote refs, missing targets and chains of refs that come
//     back to themselves are "any". A composition that contains itself
//     reads the inner occurrence as "any".
//
// So the labels are the JSON types ("string", "integer", "number",
// "boolean", "null", "object", "array"), joins of leaf types with "|",
// "union", "any" and "never".
//
// # Recursion and caps
//
// A recursive schema is a cyclic graph. A walk (a summary, an inspection's
// preview) first runs one depth-first search from its start, in
// declaration order; a field whose edge closes a cycle in it is shown (as
// the fold marker of its container) but never expanded. Arrays nested in
// themselves end as the label "array".
//
// The node cap, [DefaultMaxNodes] (100,000) unless Options.MaxNodes says
// otherwise, bounds separately: the fields one walk creates, the properties
// allOf/anyOf/oneOf merges copy, and the edges the recursion search
// explores; a merge cut by it keeps the fields it has. The lines a walk
// renders beyond the root's own fields are bounded to 1 MiB. A cap that cuts
// anything makes has_hidden_fields (and an inspection's truncated) true.
// Decoding, normalizing and walking are therefore linear in the schema's
// size (every schema object is decoded, normalized and searched once; a
// chain of $refs or of arrays is followed once), and so is memory (the
// decoded schema and its nodes), plus what the caps allow.
//
// Field names are not escaped: a name holding "." or "[]" is shown as it is
// and cannot be reached by a field path.
//
// # Summary
//
// At most MaxFields (MaxSummaryFields, 30) lines.
//
// Nothing hidden: when every field down to the summary depth (MaxDepth, 3;
// a root field has depth 1) is a leaf or a container whose fields all lie
// within it, no object has unknown keys, no field closes a cycle, the
// leaves fit in MaxFields lines and no cap cut anything, the summary is the
// leaf lines only, breadth-first, and has_hidden_fields is false. No line
// for a container: its leaves' paths show it ("owner.id: string", no
// "owner: object"). A leaf is "key: type", "key[]: type" for an array of
// leaves; an object that can have no keys (additionalProperties false) is
// the leaf "key: object".
//
// Otherwise has_hidden_fields is true and the lines are, deduplicated, in
// the spec's order:
//
//  1. Tier 2: every field of the root, a leaf as "key: type", a container
//     always as its fold marker, even when its fields are listed below it:
//     `key: object (contains N sub-fields; inspect_tool_output(...,
//     field_path="key"))`, `key[]: object (…)` for an array of objects,
//     `key: object (unknown keys; …)`, with N the number of immediate
//     children ("1 sub-fields" as is).
//  2. Tier 1: leaves anywhere below (any depth within the node cap,
//     breadth-first) whose path matches [Tier1Regex], as many as the lines
//     left hold.
//  3. Fill: the fields not listed yet, breadth-first from the root fields
//     down to the summary depth, one line each, until the lines are used. A
//     container within the depth has no line of its own (its fields follow
//     in breadth-first order), so a large container may be listed in part:
//     the fold marker of its root field gives its N. A container the depth
//     limit stops, one with unknown keys and one that closes a cycle are
//     their fold markers (the spec's reference drops a container cut by
//     the depth silently).
//
// So fewer than MaxFields lines means every field down to the summary depth
// is listed (a fuzz property). When Tier 2 and Tier 1 do not fit together,
// every root field is kept and Tier-1 leaves are listed breadth-first until
// the lines run out; which ones is not part of the contract.
//
// Overflow: when the root alone has more than MaxFields fields, MaxFields-1
// of them are listed (those with a Tier-1 name first, then the others in
// order, shown in schema order) and the last line is the overflow marker
// `* (+N more fields; inspect_tool_output(..., field_path=""))` ("[].*" for
// a root array); deeper fields are then left to the inspector.
//
// A root that is not a container with fields is one line: a root with
// unknown keys is `data: object (unknown keys; inspect_tool_output(...,
// field_path=""))`, named after the envelope's field; any other is the path
// "." (or "[]" for a root array): ".: any", "[]: string".
//
// has_hidden_fields is true exactly when the summary is not the
// nothing-hidden list: a line is a fold or overflow marker, a field down to
// the summary depth has no line, or a cap cut the walk. The spec's reference
// returns plain leaves with false when 30 fields fit even if its depth limit
// cut deeper containers; here such containers are marked, so nothing is
// hidden silently.
//
// # Inspector
//
// [Inspect] walks a field path ("a.b", "a[]", "a[].b", "[][]", empty for the
// root) and answers with the node's type ("array" for "orders", "object"
// for "orders[]", "union", or a leaf label); its children: the immediate
// fields of the node, or for an array of its items (through every array
// level), an array field typed "array of T"; a breadth-first flattened
// preview with paths relative to the node, containers expanded down to
// MaxDepth (4) levels and shown as fold markers (absolute field_path)
// below; the number of immediate children; and truncated, which is true
// exactly when MaxFields (120) cut children or the preview, MaxDepth folded
// a container in the preview, or a cap cut the walk. Folds of recursion and
// unknown keys are shown as markers but are not truncation. A node whose
// keys are unknown, or that is "any", has no children and a note.
//
// An inspection that cannot be answered is an [*InspectError]: a tool
// without an output schema (no bytes, or JSON null) wraps
// [ErrNoOutputSchema]; an empty schema (a root that is "any" or "never",
// such as {}) [ErrEmptySchema]; a field path that is malformed or does not
// resolve [ErrField], with a message that names the failing segment and
// what was found instead.
//
// # Tool surface
//
// [Index] holds tool specs by tool id. [Index.InspectToolOutput] is the
// tool call: it checks its arguments strictly against [InspectTool]'s input
// schema (an object; tool_id a non-empty string; field_path a string or
// null; max_depth and max_fields whole numbers of at least 1; no other
// key) and answers with the spec's envelope, {"successful": true, "data":
// {...}} or {"successful": false, "error": "..."}: invalid arguments, an
// unknown tool_id and every [*InspectError] are failures with a one-line
// error. [Compact] builds the compact descriptor with output_fields and
// has_hidden_fields, and [PlannerDirective] is the spec's planner block,
// verbatim.
package schema
