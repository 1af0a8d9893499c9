package main

import "fmt"

// A figure as it goes to -out: a Go benchmark line, which bench/ratios
// reads.
func Example() {
	l := line{"new-200KB", 300, []value{{4.2, "gateway-cpu-ms/req"}, {0.9, "floor-cpu-ms/req"}}}
	fmt.Println(l)
	// Output: BenchmarkGatewayFloor/new-200KB	300	4.2 gateway-cpu-ms/req	0.9 floor-cpu-ms/req
}
