package party

import (
	"testing"

	"github.com/vttapp/companion/tests/e2e"
)

func TestMain(m *testing.M) { e2e.Main(m) }
