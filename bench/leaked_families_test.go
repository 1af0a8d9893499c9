package bench

// familyAdversarial are the adversarial inputs of the model families' forms
// (core/leaked's families), one list per family, each in its family's file.
func familyAdversarial() []adversarial {
	var out []adversarial
	for _, list := range [][]adversarial{
		harmonyAdversarial,

		kimiAdversarial,

		deepseekAdversarial,

		glmAdversarial,

		gemmaAdversarial,

		jsonFamiliesAdversarial,

		pythonicAdversarial,

		qwenAdversarial,
	} {
		out = append(out, list...)
	}
	return out
}
