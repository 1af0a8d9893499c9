// Package paging finds the arguments of a tool's input schema that ask it
// for less (a smaller limit) or for the next part (an offset, a page, a
// cursor), so that the message a model gets for an oversized result can
// say how to call that tool again instead of "retry narrower".
//
// # Contract
//
//   - [Params] reads the top-level properties of a JSON Schema for a tool's
//     input (an object schema, as MCP and the model APIs declare tools) and
//     returns those whose name is in [Limits] or [Positions] and whose
//     declared type is the one the list gives (an integer or number for a
//     limit, an offset or a page number; a string for a cursor or a page
//     token; a "type" list such as ["integer", "null"] counts when it holds
//     it). The order is the lists' order, not the schema's.
//   - [Hint] is one sentence naming the first limit and the first position
//     found, or "" when there are none: a message for a tool without such
//     arguments stays exactly what it was.
//   - A schema that is not JSON, not an object or has no properties gives
//     none; nothing panics on any input (FuzzParams).
//
// # Choices where the spec is silent
//
//   - The names are the paging arguments of common tools and APIs (Claude
//     Code's Read: offset, limit; GitHub's per_page, page; Slack's limit,
//     cursor; Google's pageSize, pageToken; Notion's page_size,
//     start_cursor; SQL-ish top, skip), in snake_case and camelCase. A
//     nested or differently named argument is not guessed at.
//   - Only the declared type is checked, not the description: a "limit"
//     that is a string (a time limit, say) is not a page size.
package paging
