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
// invalid JSON a [*jsonlex.SyntaxError] ("invalid JSON at byte N: ..."). Object
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
// and cannot be reached by a field path. An empty name is shown as nothing,
// with the dot after it kept: the field "l" of a field "" is ".l", never
// "l", which would be a root field's.
//
// # Summary
//
// [Summarize] folds a schema into at most MaxFields (30) lines: the leaf
// lines alone, breadth-first, when nothing is hidden; else the root's
// fields with fold markers for containers (Tier 2), leaves whose path
// matches [Tier1Regex] (Tier 1), and a breadth-first fill, with
// has_hidden_fields true. Its doc states the order, the markers and when
// has_hidden_fields is set. Where this departs from the spec's reference:
// a container cut by the depth limit is marked, never dropped silently, so
// has_hidden_fields is false only when nothing is hidden.
//
// # Inspector
//
// [Inspect] walks a field path ("a.b", "a[]", "a[].b", "[][]", empty for
// the root) and answers with the node's type, its children, a breadth-first
// preview and whether anything was cut; its doc states each. An inspection
// that cannot be answered is an [*InspectError] wrapping
// [ErrNoOutputSchema], [ErrEmptySchema] or [ErrField].
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
