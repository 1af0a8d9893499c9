package schema_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/schema"
)

// Real provider schemas (scenarios/schema/data/providers, sources in the
// README there) hold far more than 30 fields: each summary uses exactly 30
// lines, lists every root field (29 and the overflow marker when there are
// more than 30), and as many Tier-1 leaves as the lines left hold.
var _ = DescribeTable("Summarize on real provider schemas",
	func(name string, rootFields int) {
		data, err := os.ReadFile(filepath.Join(scenarioDir, "data", "providers", name+".json"))
		Expect(err).NotTo(HaveOccurred())
		s := summarize(data)
		Expect(s.HasHiddenFields).To(BeTrue())
		Expect(s.OutputFields).To(HaveLen(30))

		root, err := schema.Inspect(data, "t", "", schema.InspectOptions{MaxFields: 1 << 20, MaxDepth: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(root.Children).To(HaveLen(rootFields))
		shown := map[string]bool{}
		for _, l := range s.OutputFields {
			if i := strings.Index(l, ": "); i >= 0 {
				shown[l[:i]] = true
			}
		}
		listed := 0
		for _, c := range root.Children {
			if shown[c.Name+strings.Repeat("[]", strings.Count(c.Type, "array of "))] {
				listed++
			}
		}
		if rootFields > 30 {
			Expect(listed).To(Equal(29))
			Expect(s.OutputFields[29]).To(HavePrefix("* (+%d more fields;", rootFields-29))
			for _, c := range root.Children {
				if schema.IsTier1(c.Name) {
					Expect(shown[c.Name]).To(BeTrue(), "Tier-1 root field %s", c.Name)
				}
			}
			return
		}
		Expect(listed).To(Equal(rootFields))

		// Every Tier-1 leaf that fits: the lines after the root fields hold
		// min(Tier-1 leaves, lines left) of them.
		all, err := schema.Inspect(data, "t", "", schema.InspectOptions{MaxFields: 1 << 20, MaxDepth: 1 << 20})
		Expect(err).NotTo(HaveOccurred())
		tier1 := map[string]bool{}
		for _, l := range all.FlattenedFields {
			if p := l[:strings.Index(l, ": ")]; !strings.Contains(l, "inspect_tool_output(") && strings.Contains(p, ".") && schema.IsTier1(p) {
				tier1[l] = true
			}
		}
		got := 0
		for _, l := range s.OutputFields[rootFields:] {
			if tier1[l] {
				got++
			}
		}
		Expect(got).To(Equal(min(len(tier1), 30-rootFields)), "%q", s.OutputFields)
	},
	Entry("GitHub issue (octokit/webhooks)", "github-issue", 28),
	Entry("Stripe charge (stripe/openapi)", "stripe-charge", 43),
	Entry("Shopify orders (REST Admin API)", "shopify-orders", 1),
	Entry("Google Docs document (Docs API v1)", "google-docs-document", 15),
)
