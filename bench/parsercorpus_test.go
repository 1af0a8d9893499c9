package bench

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestParserCorpus measures core/leaked on the vendored parser-parity corpus
// (testdata/parsercorpus, README there) and prints the table with -v
// (`make parser-corpus`). It is a measurement, not a gate: the figures move
// as families land, and only the corpus's shape is asserted.
func TestParserCorpus(t *testing.T) {
	cases, err := LoadParserCorpus(os.DirFS("testdata/parsercorpus"))
	if err != nil {
		t.Fatal(err)
	}
	results := MeasureParserCorpus(cases, ExtractCorpusCalls)
	rows := SummarizeParserCorpus(results)
	if families := len(rows) - 1; families != 19 {
		t.Fatalf("the corpus has %d families, want 19", families)
	}
	for _, r := range results {
		if _, ok := r.Case.Outputs["dynamo"]; !ok {
			t.Errorf("%s/%s: no Dynamo output", r.Case.Family, r.Case.ID)
		}
	}
	var table, misses strings.Builder
	if err := WriteParserCorpusTable(&table, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteParserCorpusMisses(&misses, results); err != nil {
		t.Fatal(err)
	}
	t.Logf("parser-parity corpus, core/leaked.Extract:\n%s\ncases where the peers agree and toolout differs:\n%s", table.String(), misses.String())
}

const corpusFlat = `family: fam
mode: batch
cases:
  PARSER.batch.1:
    description: one call
    model_text: '<tool_call>{"name": "f", "arguments": {"n": 2}}</tool_call>'
    tools:
    - &t
      name: f
      parameters: {type: object, properties: {n: {type: integer}}}
    expected:
      dynamo: &d1
        calls:
        - name: f
          arguments: {n: 2}
        normal_text: ''
      vllm: *d1
      sglang:
        unavailable: no detector
  PARSER.batch.2:
    description: moved into its sub-case file
    model_text: 'x'
    expected: {calls: [], normal_text: x}
  PARSER.batch.3:
    description: legacy schema, Dynamo alone
    model_text: plain
    expected:
      calls: []
      normal_text: plain
  PARSER.batch.11:
    description: n/a for this family
    reason: no model text
`

const corpusSub = `family: fam
mode: batch
cases:
  PARSER.batch.2.a:
    description: peers split
    model_text: 'y'
    expected:
      dynamo: {calls: [{name: g, arguments: {}}], normal_text: ''}
      vllm: {calls: [], normal_text: 'y'}
      sglang: {error: 'KeyError'}
  PARSER.batch.2.b:
    description: vLLM and SGLang agree against Dynamo
    model_text: 'z'
    expected:
      dynamo: {calls: [{name: g, arguments: {}}], normal_text: ''}
      vllm: {calls: [], normal_text: 'z'}
      sglang: {calls: [], normal_text: ''}
`

// The loader reads both expected schemas, anchors, unavailable and crashing
// peers, skips cases without a model text and drops a bare case whose
// sub-cases exist; the measurement counts agreement, sameness and recovery.
func TestParserCorpusLoadAndMeasure(t *testing.T) {
	fsys := fstest.MapFS{
		"fam/PARSER.batch.yaml":   {Data: []byte(corpusFlat)},
		"fam/PARSER.batch.2.yaml": {Data: []byte(corpusSub)},
	}
	cases, err := LoadParserCorpus(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cases {
		ids = append(ids, strings.TrimPrefix(c.ID, "PARSER.batch."))
	}
	if got := strings.Join(ids, " "); got != "1 2.a 2.b 3" {
		t.Fatalf("cases %q, want \"1 2.a 2.b 3\"", got)
	}
	one := cases[0]
	want := CorpusCall{Name: "f", Arguments: `{"n":2}`}
	if len(one.Outputs) != 2 || one.Outputs["vllm"][0] != want || one.Outputs["dynamo"][0] != want {
		t.Fatalf("case 1 outputs %v", one.Outputs)
	}
	if _, ok := cases[3].Outputs["dynamo"]; !ok || len(cases[3].Outputs) != 1 {
		t.Fatalf("legacy case outputs %v", cases[3].Outputs)
	}
	results := MeasureParserCorpus(cases, ExtractCorpusCalls)
	rows := SummarizeParserCorpus(results)
	total := rows[len(rows)-1]
	// 1: peers agree on f{n:2}, toolout finds it; 2.a: no two agree;
	// 2.b: vLLM and SGLang agree on no call, toolout finds none; 3: Dynamo alone.
	wantTotal := FamilyFigures{Cases: 4, Agreed: 2, Same: 2, DynamoCalls: 3, Recovered: 1, Calls: 1}
	if total != wantTotal {
		t.Fatalf("total %+v, want %+v", total, wantTotal)
	}
}

func TestParserCorpusRejectsAFileOfAnotherFamily(t *testing.T) {
	fsys := fstest.MapFS{"other/PARSER.batch.yaml": {Data: []byte(corpusFlat)}}
	if _, err := LoadParserCorpus(fsys); err == nil || !strings.Contains(err.Error(), `other/PARSER.batch.yaml: family "fam"`) {
		t.Fatalf("err = %v", err)
	}
}
