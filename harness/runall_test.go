package harness_test

import (
	"context"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/core/store"
	"github.com/toolout/toolout/harness"
)

var _ = Describe("RunAll", func() {
	It("turns a panic in one scenario into its failure, runs the others, and leaves no store", func() {
		type none struct{}
		type input struct {
			Panic bool `yaml:"panic"`
		}
		reg := harness.NewRegistry()
		harness.Register(reg, harness.Spec[none, input, none, string]{
			Name: "crash",
			Run: func(_ context.Context, env *harness.Env, _ *none, in *input) (string, error) {
				st, err := store.New(store.Options{Base: env.TempDir, Sources: env.Sources})
				if err != nil {
					return "", err
				}
				defer st.Close()
				if in.Panic {
					panic("component bug")
				}
				return "ok", nil
			},
			Check: func(*none, string) []harness.Mismatch { return nil },
		})
		runner := &harness.Runner{Registry: reg, Update: true}
		dir := filepath.Join(GinkgoT().TempDir(), "scenarios")
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		var scenarios []*harness.Scenario
		for name, text := range map[string]string{"a": "component: crash\ninput: {panic: true}\n", "b": "component: crash\ninput: {panic: false}\n"} {
			Expect(os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(text), 0o644)).To(Succeed())
		}
		for _, name := range []string{"a", "b"} {
			sc, err := runner.Load(filepath.Join(dir, name+".yaml"))
			Expect(err).NotTo(HaveOccurred())
			scenarios = append(scenarios, sc)
		}
		tmp := GinkgoT().TempDir()
		GinkgoT().Setenv("TMPDIR", tmp)
		results := runner.RunAll(context.Background(), scenarios, 2)
		crashed, fine := <-results[0], <-results[1]
		Expect(crashed.Failures).To(HaveLen(1))
		Expect(crashed.Failures[0]).To(HavePrefix(scenarios[0].Path + ":1:1: panic: component bug\n"))
		Expect(fine.Passed()).To(BeTrue(), "%v", fine.Failures)
		Expect(os.ReadDir(tmp)).To(BeEmpty(), "the crashed scenario's store and scratch folder are gone")
	})
})
