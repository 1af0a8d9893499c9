package extract

import "fmt"

// Success renders the success format of the spec (exact):
//
//	ABSTRACT FROM TOOL OUTPUT <TOOL_NAME> WITH HANDLE <UUID>, STRATEGY:<mode_used>:
//
//	<body>
func Success(tool, handle, mode, body string) string {
	return fmt.Sprintf("ABSTRACT FROM TOOL OUTPUT %s WITH HANDLE %s, STRATEGY:%s:\n\n%s", tool, handle, mode, body)
}

// Failure renders the failure format of the spec (exact):
//
//	TOOL_OUTPUT FAILED FOR <TOOL_NAME> WITH HANDLE <UUID>, STRATEGY:<mode_used>:
//
//	<error message>
func Failure(tool, handle, mode, msg string) string {
	return fmt.Sprintf("TOOL_OUTPUT FAILED FOR %s WITH HANDLE %s, STRATEGY:%s:\n\n%s", tool, handle, mode, msg)
}

// FallbackWarning is the first body line when a strategy fell back to
// truncate.
func FallbackWarning(reason string) string {
	return fmt.Sprintf("WARNING: tool_output fallback to truncate (%s).", reason)
}
