package redistest_test

import (
	"testing"

	"github.com/toolout/toolout/internal/junit"
)

func TestRedistest(t *testing.T) { junit.RunSpecs(t, "redistest", "internal-redistest") }
