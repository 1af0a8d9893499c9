package importer

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/toolout/toolout/core/jsonlex"
)

// TraceFile is one file of a trace given in several (ImportFiles): its
// name as errors show it (the path the user gave) and its bytes.
type TraceFile struct {
	Name string
	Data []byte
}

// segment is one file of a trace read from several: its name and where
// its bytes are in the trace's data, the files' bytes one after another.
type segment struct {
	name       string
	start, end int
}

// position returns the name of the file that holds byte offset off of
// the trace and off's line:col in that file (the column in characters).
func (t *parsedTrace) position(off int) (string, int, int) {
	if len(t.segs) == 0 {
		line, col := jsonlex.LineCol(t.data, off)
		return t.name, line, col
	}
	s := t.segs[0]
	for _, c := range t.segs {
		if c.start <= off && off < c.end {
			s = c
			break
		}
		if c.end == off && c.end > c.start {
			s = c // the end of a file
		}
	}
	line, col := jsonlex.LineCol(t.data[s.start:s.end], min(max(off-s.start, 0), s.end-s.start))
	return s.name, line, col
}

// spans returns the byte ranges of the trace's files (the whole data when
// it is one file).
func (t *parsedTrace) spans() []segment {
	if len(t.segs) == 0 {
		return []segment{{t.name, 0, len(t.data)}}
	}
	return t.segs
}

// parseFiles reads a trace given in one file or several. Several files
// are merged only as OTLP JSON exports (the spans in one file and the log
// records in another, as one file exporter per signal writes them, or the
// spans of several files): their exports are read as one file's. A blank
// file adds nothing. traceID, when not empty, picks the conversation that
// holds that trace's chat spans (OTel only).
func parseFiles(files []TraceFile, opts ImportOptions) (*parsedTrace, error) {
	format, traceID := opts.Format, opts.TraceID
	otel := format == FormatOTelGenAI
	if format == "" || format == FormatAuto {
		otel = isOTel(firstFilled(files).Data)
	}
	if !otel {
		switch {
		case len(files) > 1:
			return nil, fmt.Errorf("%s: %d files: only OTLP JSON exports (spans, logs) are merged from several files; import a log or a list of messages as one file",
				names(files), len(files))
		case traceID != "":
			return nil, fmt.Errorf("%s: --trace-id %s: only OpenTelemetry spans have trace ids", files[0].Name, traceID)
		}
		return parseFormat(files[0].Data, files[0].Name, format)
	}
	t := &parsedTrace{name: files[0].Name, traceID: traceID, command: opts.Command}
	for _, f := range files {
		ft, err := newTrace(f.Data, f.Name)
		if err != nil {
			return nil, err
		}
		if len(files) > 1 && len(bytes.TrimSpace(f.Data)) > 0 && !isOTel(f.Data) {
			return nil, ft.errorf(skipSpace(f.Data, 0), "want an OTLP JSON export, {\"resourceSpans\": [...]} or {\"resourceLogs\": [...]}: several files are merged only as OTLP JSON exports")
		}
		t.segs = append(t.segs, segment{f.Name, len(t.data), len(t.data) + len(f.Data)})
		if len(files) > 1 {
			t.data = append(t.data, f.Data...)
		}
	}
	if len(files) == 1 {
		t.data = files[0].Data // the file itself, not a copy
	}
	return t, t.readOTel()
}

// firstFilled returns the first file that is not blank, else the first.
func firstFilled(files []TraceFile) TraceFile {
	for _, f := range files {
		if len(bytes.TrimSpace(f.Data)) > 0 {
			return f
		}
	}
	return files[0]
}

// names lists the files' names, "a, b".
func names(files []TraceFile) string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return strings.Join(out, ", ")
}
