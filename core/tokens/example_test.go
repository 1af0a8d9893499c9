package tokens_test

import (
	"fmt"

	"github.com/toolout/toolout/core/tokens"
)

func ExampleNew() {
	tk, err := tokens.New(tokens.CL100K)
	if err != nil {
		panic(err)
	}
	fmt.Println(tk.Count("Tool output is too large."))
	// Output: 6
}

func ExampleTiktoken_Pieces() {
	tk := tokens.MustNew(tokens.CL100K)
	text := "host=web-0 level=ERROR"
	for _, p := range tk.Pieces(nil, text) {
		fmt.Printf("%q %d\n", text[p.Start:p.End], p.Tokens)
	}
	// Output:
	// "host" 1
	// "=web" 2
	// "-" 1
	// "0" 1
	// " level" 1
	// "=ERROR" 2
}
