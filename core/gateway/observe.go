package gateway

// Limits that can refuse a request or cut its work: those the pipe and the
// JSON bounds name ([Result.Limit], [LimitError.Limit]); the proxy names
// the others (proxy.AllLimits lists them all).
const (
	LimitJSONValues  = "json_values"
	LimitJSONNesting = "json_nesting"
	LimitResults     = "results"   // a tool result passed through: max_results reached
	LimitWork        = "work"      // a tool result passed through: max_work_bytes reached
	LimitMaxBytes    = "max_bytes" // a tool result passed through: longer than max_bytes
)
