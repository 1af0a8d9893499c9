package proxy

// Every test of this package, internal or not, runs with the buffers given
// back to the body pool overwritten with 'X': a read of one after the
// request let it go would show in what an upstream or a client gets.
func init() { poisonGivenBack = true }
