package imports

import (
	"fmt"
	"strings"
)

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
