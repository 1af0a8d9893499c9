package headtail

// MatchDefault is the error-like test Cut uses for DefaultErrorPattern.
var MatchDefault = matcher(Options{}.withDefaults())

// MarkerLen is len(Marker(g)), counted.
var MarkerLen = markerLen
