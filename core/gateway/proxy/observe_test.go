package proxy_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/gateway"
	"github.com/toolout/toolout/core/gateway/proxy"
)

// constValues returns the values of the string constants of this package
// and of core/gateway whose name starts with prefix, read from their
// source files (the Limit* constants are in both).
func constValues(prefix string) []string {
	GinkgoHelper()
	files, err := filepath.Glob("*.go")
	Expect(err).NotTo(HaveOccurred())
	root, err := filepath.Glob("../*.go")
	Expect(err).NotTo(HaveOccurred())
	files = append(files, root...)
	var values []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		Expect(err).NotTo(HaveOccurred())
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				values = append(values, prefixed(g, prefix)...)
			}
		}
	}
	return values
}

// prefixed returns the values of the string literals that the constants
// of g whose name starts with prefix are set to.
func prefixed(g *ast.GenDecl, prefix string) []string {
	GinkgoHelper()
	var values []string
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		for i, name := range vs.Names {
			if i >= len(vs.Values) || !strings.HasPrefix(name.Name, prefix) {
				continue
			}
			if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				v, err := strconv.Unquote(lit.Value)
				Expect(err).NotTo(HaveOccurred())
				values = append(values, v)
			}
		}
	}
	return values
}

// The lists a metrics backend pre-registers its series from are complete:
// a new Outcome*, Limit* or Answer* constant that is not listed fails here.
var _ = DescribeTable("the lists of event values hold each constant once",
	func(prefix string, list []string) {
		Expect(list).To(ConsistOf(constValues(prefix)))
		Expect(list).NotTo(BeEmpty())
	},
	Entry("AllOutcomes", "Outcome", proxy.AllOutcomes()),
	Entry("AllLimits", "Limit", proxy.AllLimits()),
	Entry("AllAnswers", "Answer", gateway.AllAnswers()),
)
