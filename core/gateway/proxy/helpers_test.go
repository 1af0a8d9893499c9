package proxy_test

import (
	"context"
)

var ctx = context.Background()
