package extract

import (
	"embed"
	"fmt"
	"strings"
	"text/template"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

var prompts = template.Must(template.New("prompts").Option("missingkey=error").ParseFS(promptFS, "prompts/*.tmpl"))

// MapPrompt is what fills the map prompt (prompts/map.tmpl).
type MapPrompt struct {
	ToolName       string
	ToolArgs       string // verbatim JSON
	Bytes          int
	Lines          int
	Tokens         int
	Index, Total   int // 1-based chunk index, chunk count
	OverlapPercent int
	Extract        string
	Nonce          string
}

// ReducePrompt is what fills the reduce prompt (prompts/reduce.tmpl).
type ReducePrompt struct {
	ToolName       string
	ToolArgs       string
	Total          int
	OverlapPercent int
	Extract        string
	// Outputs are the map answers in chunk order.
	Outputs []string
	Nonce   string
}

// ReadGrepPrompt is what fills the read-grep sub-agent's system prompt
// (prompts/readgrep.tmpl).
type ReadGrepPrompt struct {
	ToolName string
	ToolArgs string
	Handle   string // the file name under RootDir
	RootDir  string
	Bytes    int
	Lines    int
	Tokens   int
	Extract  string
	Nonce    string
}

// Render returns the read-grep system prompt.
func (p ReadGrepPrompt) Render() string { return render("readgrep.tmpl", p) }

// ReadGrepUser is the sub-agent's first user message; %s is the handle.
const ReadGrepUser = "Extract what is asked from the file %s, using Read and Grep, then answer in the final-report wrapper."

// ReduceUser is the user message of the reduce call.
const ReduceUser = "Synthesize the chunk outputs into one final answer."

// Render returns the map system prompt.
func (p MapPrompt) Render() string { return render("map.tmpl", p) }

// Render returns the reduce system prompt. Each map answer is headed by
// "--- chunk i of n ---", in chunk order.
func (p ReducePrompt) Render() string {
	var b strings.Builder
	for i, out := range p.Outputs {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "--- chunk %d of %d ---\n%s", i+1, len(p.Outputs), out)
	}
	return render("reduce.tmpl", struct {
		ReducePrompt
		ChunkOutputs string
	}{p, b.String()})
}

func render(name string, data any) string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		panic("extract: prompt " + name + ": " + err.Error()) // the templates are fixed and tested
	}
	return strings.TrimSuffix(b.String(), "\n")
}
