package importer_test

import (
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness/importer"
)

// The traces of testdata/otel-*-{spans,logs}.json are what three Node
// instrumentations of openai exported (scripts/otel-traces): each chat call
// a trace of its own, the spans and the log records in separate files.
var _ = Describe("Import of OpenTelemetry spans and logs in several files", func() {
	o := importer.ImportOptions{Dir: "scenarios/regress", Name: "x", TraceName: "spans.json, logs.json", At: -1}
	file := func(name string) importer.TraceFile {
		data, err := os.ReadFile("testdata/" + name)
		Expect(err).NotTo(HaveOccurred())
		return importer.TraceFile{Name: name, Data: data}
	}
	pair := func(inst string) []importer.TraceFile {
		return []importer.TraceFile{file("otel-" + inst + "-spans.json"), file("otel-" + inst + "-logs.json")}
	}

	DescribeTable("imports an instrumentation's un-parented chat calls, spans and logs in two files, as one conversation",
		func(inst string) {
			files, err := importer.ImportFiles(pair(inst), o)
			Expect(err).NotTo(HaveOccurred())
			sc := string(scenarioOf(files))
			Expect(sc).To(ContainSubstring("message 3 is a 14461-byte result of logs__query"))
			Expect(sc).To(ContainSubstring("  user: Count ERROR lines per host.\n  system: You are an on-call assistant. Answer from the tools' output only.\n"))
			Expect(sc).To(ContainSubstring("        - id: call-1\n          name: logs__query\n          args:\n            since: 1h\n"))
			Expect(sc).To(ContainSubstring("  report: Stored; will extract next.\n"))
			again, err := importer.ImportFiles(pair(inst), o)
			Expect(err).NotTo(HaveOccurred())
			Expect(again).To(Equal(files))
		},
		Entry("@opentelemetry/instrumentation-openai: the messages are GenAI events in the logs' file", "official"),
		Entry("@traceloop/node-server-sdk: gen_ai.input.messages; the logs' file holds the agent's own records", "traceloop"),
		Entry("@arizeai/openinference-instrumentation-openai: llm.input_messages.N; the agent's own records", "openinference"),
	)

	It("reads the files in any order, each error naming its file", func() {
		p := pair("official")
		files, err := importer.ImportFiles([]importer.TraceFile{p[1], p[0]}, o)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(scenarioOf(files))).To(ContainSubstring("message 3 is a 14461-byte result of logs__query"))
		broken := p[1]
		broken.Data = append(append([]byte{}, broken.Data...), []byte(`{"resourceLogs": [}`+"\n")...)
		_, err = importer.ImportFiles([]importer.TraceFile{p[0], broken}, o)
		Expect(err).To(MatchError(`otel-official-logs.json:9:19: unexpected '}'`))
	})

	It("says, of one signal's file alone, that the other is needed", func() {
		p := pair("official")
		_, err := importer.ImportFiles(p[:1], o)
		Expect(err).To(MatchError(HaveSuffix(`: chat span 1: no gen_ai.output.messages attribute and no gen_ai.choice event: a chat span records its input and its output ` +
			`(turn on the capture of message content; when the events are log records in a file of their own, give it too: toolout import otel-official-spans.json LOGS.json)`)))
		_, err = importer.ImportFiles(p[1:], o)
		Expect(err).To(MatchError(`otel-official-logs.json:1:448: log record gen_ai.system.message: spanId "21c5920273e704ca" names no span of the files: ` +
			`export the spans with their events, or give the spans' file too: toolout import SPANS.json otel-official-logs.json`))
		_, err = importer.ImportFiles(pair("openinference")[1:], o)
		Expect(err).To(MatchError(`otel-openinference-logs.json: no span, only log records: give the spans' file too: toolout import SPANS.json otel-openinference-logs.json`))
	})

	It("names, in the hint for the missing file, the program as the user runs it and the files they gave, quoted for a shell", func() {
		logs := pair("openinference")[1]
		logs.Name = "my traces/logs.json"
		_, err := importer.ImportFiles([]importer.TraceFile{logs}, importer.ImportOptions{Command: "go tool toolout", Name: "x"})
		Expect(err).To(MatchError(`my traces/logs.json: no span, only log records: give the spans' file too: go tool toolout import SPANS.json 'my traces/logs.json'`))
	})

	It("merges only OTLP exports, and takes a blank file for none", func() {
		p := pair("traceloop")
		log := importer.TraceFile{Name: "calls.jsonl", Data: []byte(`{"request": {"messages": []}, "response": {"choices": []}}` + "\n")}
		_, err := importer.ImportFiles([]importer.TraceFile{p[0], log}, o)
		Expect(err).To(MatchError(`calls.jsonl:1:1: want an OTLP JSON export, {"resourceSpans": [...]} or {"resourceLogs": [...]}: several files are merged only as OTLP JSON exports`))
		_, err = importer.ImportFiles([]importer.TraceFile{log, p[0]}, o)
		Expect(err).To(MatchError(`calls.jsonl, otel-traceloop-spans.json: 2 files: only OTLP JSON exports (spans, logs) are merged from several files; import a log or a list of messages as one file`))
		_, err = importer.ImportFiles([]importer.TraceFile{{Name: "empty.json", Data: []byte("\n")}, p[0]}, o)
		Expect(err).NotTo(HaveOccurred())
	})

	It("stitches the spans of several files, and lists the conversations when they are not one", func() {
		official, traceloop := pair("official"), pair("traceloop")
		other := traceloop[0]
		other.Data = []byte(strings.ReplaceAll(string(other.Data), "Count ERROR lines per host.", "Count INFO lines per host."))
		_, err := importer.ImportFiles([]importer.TraceFile{official[0], official[1], other}, o)
		Expect(err).To(MatchError(`otel-official-spans.json, otel-official-logs.json, otel-traceloop-spans.json: 2 conversations: ` +
			`traceId "a02697e4beb5f6da4ef022a0f562ba0a" (and 1 more trace; 2 chat spans, from "Count ERROR lines per host."), ` +
			`traceId "9f7ac2c62e35b90eeee9e2bffa278e75" (and 1 more trace; 2 chat spans, from "Count INFO lines per host."); import one with --trace-id ID`))
		picked := o
		picked.TraceID = "b220303c6c73e79e060f91b041388a56" // the second call of the traceloop conversation
		files, err := importer.ImportFiles([]importer.TraceFile{official[0], official[1], other}, picked)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(scenarioOf(files))).To(ContainSubstring("  user: Count INFO lines per host.\n"))
	})
})
