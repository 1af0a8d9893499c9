package extract

import (
	"encoding/json"
	"errors"

	"github.com/toolout/toolout/core/headtail"
)

// headTailCut cuts text with core/headtail, the head getting headPercent of
// the budget (0: no head).
func headTailCut(text string, maxBytes, headPercent int) string {
	ratio := float64(headPercent) / 100
	if headPercent == 0 {
		ratio = -1 // headtail: a negative ratio is no head; 0 is its default
	}
	out, _ := headtail.Cut(text, maxBytes, headtail.Options{HeadRatio: ratio})
	return out
}

// PLACEHOLDER until core/jsonaware lands.
func shortenJSON(doc string, maxBytes int) (string, error) {
	if !json.Valid([]byte(doc)) {
		return "", errors.New("not JSON")
	}
	return doc, nil
}
