package cicheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/toolout/toolout/internal/cicheck"
)

// root is the repository, two folders up from this package.
const root = "../.."

func readFile(path string) string {
	data, err := os.ReadFile(filepath.Join(root, path))
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

// commands lists the lines of a shell script that are not comments, blank,
// or inside an if/fi (a condition's body).
func commands(script string) []string {
	var out []string
	depth := 0
	for line := range strings.Lines(script) {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "if "):
			depth++
		case line == "fi":
			depth--
		case depth == 0:
			out = append(out, line)
		}
	}
	return out
}

var _ = Describe("the GitHub Actions workflow", func() {
	var job cicheck.Job
	BeforeEach(func() {
		w, err := cicheck.Read("test.yml", []byte(readFile(".github/workflows/test.yml")))
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Jobs).To(HaveLen(1), "one job, the one .ci/run describes")
		for _, j := range w.Jobs {
			job = j
		}
	})

	It("runs .ci/run and nothing else, so its commands are .ci/run's", func() {
		Expect(job.Runs()).To(Equal([]string{".ci/run"}))
		Expect(job.RunsOn).To(Equal("ubuntu-latest"), ".ci/run installs redis-server with apt-get")
	})

	It("checks out the repository and sets up Go from go.mod with its cache first", func() {
		Expect(len(job.Steps)).To(BeNumerically(">=", 3))
		Expect(job.Steps[0].Uses).To(HavePrefix("actions/checkout@"))
		Expect(job.Steps[1].Uses).To(HavePrefix("actions/setup-go@"))
		Expect(job.Steps[1].With).To(Equal(map[string]string{"go-version-file": "go.mod", "cache": "true"}))
		Expect(job.Steps[2].Run).To(Equal(".ci/run"))
	})

	It("has the timeout docs/ci.md recommends", func() {
		Expect(job.TimeoutMinutes).To(BeNumerically(">", 0))
		Expect(readFile("docs/ci.md")).To(ContainSubstring(fmt.Sprintf("timeout-minutes: %d\n", job.TimeoutMinutes)))
	})
})

var _ = Describe(".ci/run", func() {
	It("installs redis-server when it is missing, then runs make test as the README says", func() {
		script := readFile(".ci/run")
		Expect(script).To(MatchRegexp(`(?m)^if ! command -v redis-server .*\n(.*\n)*.*apt-get install -y redis-server\nfi$`))
		Expect(commands(script)).To(ContainElement("make test"))
	})

	It("is executable, as the workflow calls it", func() {
		info, err := os.Stat(filepath.Join(root, ".ci/run"))
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Mode().Perm() & 0o111).NotTo(BeZero())
	})
})

var _ = Describe("Read", func() {
	It("names the file and the line of a broken workflow", func() {
		_, err := cicheck.Read("bad.yml", []byte("jobs:\n  test:\n    steps: [\n"))
		Expect(err).To(MatchError(MatchRegexp(`^cicheck: read bad\.yml: yaml: line \d+: `)))
	})

	It("refuses a file over 1 MiB", func() {
		_, err := cicheck.Read("big.yml", []byte(strings.Repeat("#", 1<<20+1)))
		Expect(err).To(MatchError("cicheck: read big.yml: 1048577 bytes, over 1048576"))
	})
})
