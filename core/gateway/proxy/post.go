package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/toolout/toolout/core/gateway"
)

// maxPostAnswer bounds the answer PostJSON reads.
const maxPostAnswer = 64 << 20

// PostJSON posts a JSON body with an optional bearer key and returns the
// status and at most 64 MiB of the response. It never follows a redirect
// (NoRedirects): the body holds a tool output.
func PostJSON(ctx context.Context, client *http.Client, url, key string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := NoRedirects(client).Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxPostAnswer))
	return resp.StatusCode, raw, err
}

// Poster is the gateway.API compressor's POST over client (nil:
// http.DefaultClient): PostJSON, with an answer other than 200 an error
// that names its status and quotes the start of its body, as
// gateway.PostFunc says.
func Poster(client *http.Client) gateway.PostFunc {
	if client == nil {
		client = http.DefaultClient
	}
	return func(ctx context.Context, url, key string, body []byte) ([]byte, error) {
		status, raw, err := PostJSON(ctx, client, url, key, body)
		if err != nil {
			return nil, err
		}
		if status != http.StatusOK {
			return nil, fmt.Errorf("%s: %s", StatusText(status), strings.TrimSpace(string(raw[:min(len(raw), 200)])))
		}
		return raw, nil
	}
}

// StatusText renders a status as "429 Too Many Requests".
func StatusText(code int) string { return fmt.Sprintf("%d %s", code, http.StatusText(code)) }
