package core_test

import (
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/toolout/toolout/core"
	"github.com/toolout/toolout/internal/seeds"
)

// FuzzParseTag checks ParseTag's contract on any text: it either fails with
// a *TagError whose offset lies in the text, or gives a tag with a valid
// site and facets whose String parses back to the same tag; and any tag
// built from the fuzzed facets with a valid site survives its own String.
// Seeds: every site and facet form of the specs, and the match of every
// bundled scenario's steps written as a tag.
func FuzzParseTag(f *testing.F) {
	for _, s := range []string{"session.turn turn=3", "extract.map chunk=2/5", "extract.readgrep chunk=1/1 turn=2",
		"turn=3", "a chunk=0/1", "a chunk=2/1", "a turn=01", "a turn=1 turn=2", "a  turn=7 ", "a chunk=1/", "a x=1",
		"a turn=9999999999", "a turn=2 round=3", "a round=0", "a round=1 round=1", "é", ""} {
		f.Add(s, "x", 0, 0, 0, 0)
	}
	docs, _ := seeds.Docs("../scenarios")
	for _, d := range docs {
		for _, tag := range matchTags(d) {
			f.Add(tag, "", 0, 0, 0, 0)
		}
	}
	f.Fuzz(func(t *testing.T, text, site string, chunk, chunks, turn, round int) {
		tag, err := core.ParseTag(text)
		if err != nil {
			te, ok := err.(*core.TagError)
			if !ok || te.Offset < 0 || te.Offset > max(len(text), core.MaxTagBytes) {
				t.Fatalf("ParseTag(%q): %v: want a *TagError with an offset in the text", text, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("ParseTag(%q): error %q spans lines", text, err)
			}
		} else {
			if !valid(tag) {
				t.Fatalf("ParseTag(%q) = %+v: not a valid tag", text, tag)
			}
			back, err := core.ParseTag(tag.String())
			if err != nil || back != tag {
				t.Fatalf("ParseTag(%q) = %+v, whose String %q reads as %+v, %v", text, tag, tag.String(), back, err)
			}
		}
		built := core.Tag{Site: site, Chunk: chunk, Chunks: chunks, Turn: turn, Round: round}
		if valid(built) && len(built.String()) <= core.MaxTagBytes {
			back, err := core.ParseTag(built.String())
			if err != nil || back != built {
				t.Fatalf("%+v: its String %q reads as %+v, %v", built, built.String(), back, err)
			}
		}
	})
}

// valid reports whether t is a tag ParseTag can give: a site of the
// allowed bytes, no chunk or 1 <= chunk <= chunks < 1e9, no turn or one
// below 1e9, no round or one below 1e9.
func valid(t core.Tag) bool {
	if t.Site == "" || strings.Trim(t.Site, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != "" {
		return false
	}
	chunkOK := t.Chunks == 0 && t.Chunk == 0 || t.Chunk >= 1 && t.Chunk <= t.Chunks && t.Chunks < 1e9
	return chunkOK && t.Turn >= 0 && t.Turn < 1e9 && t.Round >= 0 && t.Round < 1e9
}

// matchTags renders the match of every llm step of a scenario document as
// tag text ("site chunk=i/n turn=t round=r").
func matchTags(doc *yaml.Node) []string {
	var sc struct {
		LLM []struct {
			Match struct {
				Tag   string `yaml:"tag"`
				Chunk string `yaml:"chunk"`
				Turn  int    `yaml:"turn"`
				Round int    `yaml:"round"`
			} `yaml:"match"`
		} `yaml:"llm"`
	}
	if doc.Decode(&sc) != nil {
		return nil
	}
	var out []string
	for _, s := range sc.LLM {
		text := s.Match.Tag
		if s.Match.Chunk != "" {
			text += " chunk=" + s.Match.Chunk
		}
		if s.Match.Turn > 0 {
			text += " turn=" + strconv.Itoa(s.Match.Turn)
		}
		if s.Match.Round > 0 {
			text += " round=" + strconv.Itoa(s.Match.Round)
		}
		out = append(out, text)
	}
	return out
}
