package main

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("the gateway config's capture", func() {
	load := func(text string) FileConfig {
		GinkgoHelper()
		file := filepath.Join(GinkgoT().TempDir(), "gw.yaml")
		Expect(os.WriteFile(file, []byte("pipes: {tool_output: {enabled: true}}\n"+text), 0o644)).To(Succeed())
		fc, err := loadGatewayConfig(file)
		Expect(err).NotTo(HaveOccurred())
		return fc
	}

	It("is off without one, and takes the defaults for what it leaves out", func() {
		_, on, err := load("").captureOptions()
		Expect(err).NotTo(HaveOccurred())
		Expect(on).To(BeFalse())
		o, on, err := load("capture: {dir: traces, redact: ['pw=\\S+']}\n").captureOptions()
		Expect(err).NotTo(HaveOccurred())
		Expect(on).To(BeTrue())
		Expect(o.Dir).To(Equal("traces"))
		Expect(o.Sample).To(Equal(1.0))
		Expect(o.MaxBytes).To(Equal(int64(DefaultCaptureBytes)))
		Expect(o.MaxFiles).To(Equal(DefaultCaptureFiles))
		Expect(o.Redact).To(Equal([]string{`pw=\S+`}))
	})

	DescribeTable("refuses what cannot be captured",
		func(text, want string) {
			_, _, err := load(text).captureOptions()
			Expect(err).To(MatchError(want))
		},
		Entry("no dir", "capture: {sample: 0.5}\n", "capture: dir: want the folder of the trace files"),
		Entry("a share over 1", "capture: {dir: x, sample: 1.5}\n", "capture.sample 1.5: want a share from 0 to 1"),
		Entry("a negative bound", "capture: {dir: x, max_files: -1}\n", "capture.max_bytes and capture.max_files: must not be negative"),
	)

	It("refuses an unknown key at its line:col", func() {
		file := filepath.Join(GinkgoT().TempDir(), "gw.yaml")
		Expect(os.WriteFile(file, []byte("pipes: {tool_output: {enabled: true}}\ncapture: {dir: x, max_file: 3}\n"), 0o644)).To(Succeed())
		_, err := loadGatewayConfig(file)
		Expect(err).To(MatchError(file + `:2:19: unknown field "max_file" in capture (did you mean "max_files"?)`))
	})
})
