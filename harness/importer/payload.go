package importer

import (
	"fmt"
	"unicode/utf8"
)

// payload keeps a text inline, or in a file beside the scenario when it is
// over PayloadBytes.
func (im *importer) payload(label, text string) importedText {
	if len(text) <= PayloadBytes {
		return importedText{Text: text}
	}
	name := fmt.Sprintf("%s.%s.txt", im.opts.Name, label)
	im.files = append(im.files, ImportedFile{Path: name, Data: []byte(text)})
	return importedText{File: name}
}

// question is the user's message as the scripted tool_output call quotes
// it: whole up to PayloadBytes, else its first KiB (cut at a character)
// and "…", so that a long message (a coding agent's, with its context)
// is in the scenario once, in its payload file.
func question(user string) string {
	if len(user) <= PayloadBytes {
		return user
	}
	cut := 1 << 10
	for cut > 0 && !utf8.RuneStart(user[cut]) {
		cut--
	}
	return user[:cut] + "…"
}

func dedupeFiles(files []ImportedFile) []ImportedFile {
	seen := map[string]bool{}
	var out []ImportedFile
	for _, f := range files {
		if !seen[f.Path] {
			seen[f.Path] = true
			out = append(out, f)
		}
	}
	return out
}
