package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// syntaxError reports data that is not JSON at its line:col (1-based, the
// column in characters): the offending character, or the end of the input.
func syntaxError(data []byte, name string) error {
	at, msg := syntaxOffset(data)
	if at < 0 {
		return nil
	}
	line, col := jsonlex.LineCol(data, at)
	return fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
}

// typeError says what a JSON value of the wrong type should have been.
func typeError(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	want := map[string]string{"slice": "a list", "struct": "an object", "string": "a string", "map": "an object"}[te.Type.Kind().String()]
	if want == "" {
		want = te.Type.String()
	}
	return fmt.Sprintf("want %s, got %s", want, te.Value)
}
