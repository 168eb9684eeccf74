package routes

import "testing"

// The players' ruler counts diagonals the way the system says: D&D 5e
// counts each diagonal step as one square, and GET /api/system carries
// that rule in config.measurement.diagonal for the web client to read.
func TestSystemExposesDiagonalRule(t *testing.T) {
	e := newEnv(t, envOptions{})
	doc := e.do(t, "GET", "/api/system", "").json(t)
	config, _ := doc["config"].(map[string]any)
	measurement, _ := config["measurement"].(map[string]any)
	if measurement == nil {
		t.Fatalf("config.measurement missing: %v", config)
	}
	if measurement["diagonal"] != "equal" {
		t.Fatalf("config.measurement.diagonal = %v, want equal", measurement["diagonal"])
	}
	if _, ok := measurement["imperial"].(map[string]any); !ok {
		t.Fatalf("the unit systems are still there: %v", measurement)
	}
}
