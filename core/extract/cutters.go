package extract

import (
	"encoding/json"
	"errors"
)

// PLACEHOLDER until core/jsonaware and core/headtail land.
func headTailCut(text string, maxBytes, headPercent int) string {
	s, _ := Truncate(text, maxBytes)
	return s
}

func shortenJSON(doc string, maxBytes int) (string, error) {
	if !json.Valid([]byte(doc)) {
		return "", errors.New("not JSON")
	}
	return doc, nil
}
