package kernel

// MaxKey is the data key of a range's maximum: max_<range>, as
// docs/system-authoring.md tells system authors (max_hit_points for the
// range hit_points in D&D 5e).
func MaxKey(r string) string { return "max_" + r }
