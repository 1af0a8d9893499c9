package bench

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// realKinds are the real-text inputs of the token-counting benchmarks:
// text nobody here chose, 1 MiB each. go-net-http is Go's own
// net/http sources and opticks the Opticks text in Go's src/testdata, both
// read from the Go distribution that runs the benchmark; python and
// typescript are vendored in testdata/realtext (its README names their
// source and license).
var realKinds = []string{"go-net-http", "opticks", "python", "typescript"}

// realSources says where each real input comes from, for the report.
var realSources = map[string]string{
	"go-net-http": "$GOROOT/src/net/http/*.go (Go's own sources, sorted, concatenated)",
	"opticks":     "$GOROOT/src/testdata/Isaac.Newton-Opticks.txt (567,198 bytes, twice)",
	"python":      "bench/testdata/realtext/python.txt.gz (CPython 3.11 stdlib: http, email, json, asyncio)",
	"typescript":  "bench/testdata/realtext/typescript.txt.gz (openai-node 6.49.0 src/*.ts)",
}

var (
	realOnce  sync.Once
	realTexts map[string]string
	realErr   error
)

// realText returns the real input named kind, exactly 1 MiB cut back to a
// character boundary; an input that cannot be read is an error naming it.
func realText(kind string) (string, error) {
	realOnce.Do(func() { realTexts, realErr = readRealTexts(1 << 20) })
	if realErr != nil {
		return "", realErr
	}
	return realTexts[kind], nil
}

func readRealTexts(size int) (map[string]string, error) {
	root := runtime.GOROOT()
	out := map[string]string{}
	goFiles, err := filepath.Glob(filepath.Join(root, "src", "net", "http", "*.go"))
	if err != nil || len(goFiles) == 0 {
		return nil, fmt.Errorf("bench: no Go sources under %s/src/net/http", root)
	}
	slices.Sort(goFiles)
	var b bytes.Buffer
	for _, f := range goFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		b.Write(data)
		if b.Len() >= size {
			break
		}
	}
	out["go-net-http"] = b.String()
	opticks, err := os.ReadFile(filepath.Join(root, "src", "testdata", "Isaac.Newton-Opticks.txt"))
	if err != nil {
		return nil, fmt.Errorf("bench: the Opticks text: %w", err)
	}
	out["opticks"] = strings.Repeat(string(opticks), size/len(opticks)+1)
	for _, name := range []string{"python", "typescript"} {
		text, err := gunzip(filepath.Join(benchDir(), "testdata", "realtext", name+".txt.gz"))
		if err != nil {
			return nil, err
		}
		out[name] = text
	}
	for k, s := range out {
		if len(s) < size {
			return nil, fmt.Errorf("bench: %s: %d bytes, want %d", k, len(s), size)
		}
		s = s[:size]
		for len(s) > 0 && !isBoundary(s, len(s)) {
			s = s[:len(s)-1]
		}
		out[k] = s
	}
	return out, nil
}

func gunzip(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, 4<<20))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return string(data), nil
}

// benchDir is this package's folder: benchmarks run in it, and a program
// that imports the package may run elsewhere.
func benchDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	return filepath.Dir(file)
}
