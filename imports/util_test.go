package imports

import (
	"strconv"
	"strings"
)

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func itoa(i int) string { return strconv.Itoa(i) }
