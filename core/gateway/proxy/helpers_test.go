package proxy_test

import (
	"context"

	"github.com/toolout/toolout/internal/gatewaytest"
)

var ctx = context.Background()

// The helpers both this package's specs and core/gateway's use.
var (
	manual  = gatewaytest.Manual
	newPipe = gatewaytest.NewPipe
	words   = gatewaytest.Words
	sized   = gatewaytest.Sized
)

type compressorFunc = gatewaytest.CompressorFunc
