package harness_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/harness"
	"github.com/toolout/toolout/harness/components"
)

// loadText writes a finalreport scenario whose input.text is the given YAML
// and returns the loaded text or the load error.
func loadText(textYAML string, files map[string]string) (string, error) {
	dir := GinkgoT().TempDir()
	for name, body := range files {
		Expect(os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)).To(Succeed())
	}
	file := filepath.Join(dir, "t.yaml")
	src := "component: finalreport\nconfig: {nonce: abc}\ninput:\n  text: " + textYAML + "\n"
	Expect(os.WriteFile(file, []byte(src), 0o644)).To(Succeed())
	sc, err := harness.Load(components.Default(), file)
	if err != nil {
		return "", err
	}
	return harness.InputText(sc, "text")
}

var _ = Describe("Text inputs", func() {
	DescribeTable("resolve to the text",
		func(textYAML string, files map[string]string, want string) {
			got, err := loadText(textYAML, files)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		func(textYAML string, _ map[string]string, _ string) string { return textYAML },
		Entry(nil, `"inline"`, nil, "inline"),
		Entry(nil, `{text: "mapping form"}`, nil, "mapping form"),
		Entry(nil, `""`, nil, ""),
		Entry(nil, `{file: doc.txt}`, map[string]string{"doc.txt": "from\nfile\n"}, "from\nfile\n"),
		Entry(nil, `{generate: {lines: 3, template: "l{{.I}}/{{.N}}"}}`, nil, "l0/1\nl1/2\nl2/3"),
		Entry(nil, `{generate: {lines: 2, template: "x", trailing_newline: true}}`, nil, "x\nx\n"),
		Entry(nil, `{generate: {lines: 4, template: "{{mod .I 2}}{{add .I 10}}{{sub .I 1}}{{mul .I 2}}{{div .I 2}}{{pad 3 .N}}{{hex 255}}"}}`, nil,
			"010-100001ff\n111020002ff\n012141003ff\n113261004ff"),
		Entry(nil, `{generate: {repeat: "ab", bytes: 5}}`, nil, "ababa"),
		Entry(nil, `{generate: {repeat: "é", bytes: 3}}`, nil, "é"),
	)

	It("generates large inputs exactly", func() {
		got, err := loadText(`{generate: {lines: 1400, template: "ts={{.I}} host=web-{{mod .I 3}} level=INFO"}}`, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(got, "\n")).To(Equal(1399))
		Expect(got).To(HavePrefix("ts=0 host=web-0 level=INFO\nts=1 host=web-1"))
		Expect(got).To(HaveSuffix("ts=1399 host=web-1 level=INFO"))
	})
})
