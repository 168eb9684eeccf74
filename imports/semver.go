package imports

import (
	"cmp"
	"strconv"
	"strings"
)

// version is a parsed semantic version MAJOR.MINOR.PATCH[-pre][+build].
type version struct {
	nums  [3]uint64
	pre   []string
	build string
}

func parseVersion(v string) (version, bool) {
	var out version
	v, out.build, _ = strings.Cut(v, "+")
	core, pre, hasPre := strings.Cut(v, "-")
	if hasPre {
		if pre == "" {
			return version{}, false
		}
		out.pre = strings.Split(pre, ".")
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return version{}, false
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil || (len(p) > 1 && p[0] == '0') {
			return version{}, false
		}
		out.nums[i] = n
	}
	return out, true
}

// CompareVersions orders two semantic versions: -1, 0 or +1. Pre-releases
// sort before their release (semver precedence). When both carry a build
// (5.2.0+1234) the builds are compared too, numerically when both are
// numbers, as the package compatibility bounds require. An unparseable
// version sorts before any valid one.
func CompareVersions(a, b string) int {
	va, okA := parseVersion(a)
	vb, okB := parseVersion(b)
	switch {
	case !okA && !okB:
		return strings.Compare(a, b)
	case !okA:
		return -1
	case !okB:
		return 1
	}
	for i := range va.nums {
		if va.nums[i] != vb.nums[i] {
			return cmp.Compare(va.nums[i], vb.nums[i])
		}
	}
	if c := comparePre(va.pre, vb.pre); c != 0 {
		return c
	}
	if va.build != "" && vb.build != "" {
		return compareIdent(va.build, vb.build)
	}
	return 0
}

func comparePre(a, b []string) int {
	switch {
	case len(a) == 0 && len(b) == 0:
		return 0
	case len(a) == 0:
		return 1
	case len(b) == 0:
		return -1
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareIdent(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(uint64(len(a)), uint64(len(b)))
}

func compareIdent(a, b string) int {
	na, errA := strconv.ParseUint(a, 10, 64)
	nb, errB := strconv.ParseUint(b, 10, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(na, nb)
	case errA == nil:
		return -1 // numeric identifiers sort before alphanumeric ones
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}
