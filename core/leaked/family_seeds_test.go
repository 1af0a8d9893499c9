package leaked_test

// familySeeds are small adversarial inputs of the model families' forms for
// FuzzExtract (each family's vectors, under scenarios/leaked, seed it too),
// one list per family, each in its family's spec file.
func familySeeds() []string {
	var out []string
	for _, list := range [][]string{
		harmonySeeds,

		kimiSeeds,

		deepseekSeeds,

		glmSeeds,

		gemmaSeeds,

		jsonFamiliesSeeds,

		pythonicSeeds,

		qwenSeeds,
	} {
		out = append(out, list...)
	}
	return out
}
