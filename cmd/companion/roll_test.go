package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRollPrintsCompactText(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runRoll([]string{"4d6dl1", "--seed", "7"}, &out, &errOut)
	if code != 0 || errOut.Len() != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "4d6dl1: [") || !strings.Contains(got, "] = ") {
		t.Errorf("stdout = %q, want the compact text 4d6dl1: [...] = N", got)
	}
}

func TestRollJSONHasTotal(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := runRoll([]string{"--json", "--seed=3", "2d6+3"}, &out, &errOut); code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut.String())
	}
	var res struct {
		Total   *float64 `json:"total"`
		Formula string   `json:"formula"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out.String())
	}
	if res.Total == nil || *res.Total < 5 || *res.Total > 15 || res.Formula != "2d6+3" {
		t.Errorf("result = %s", out.String())
	}
}

func TestRollInvalidExpressionExits1(t *testing.T) {
	var out, errOut bytes.Buffer
	code := runRoll([]string{"1d0"}, &out, &errOut)
	if code != 1 || out.Len() != 0 {
		t.Fatalf("code %d, stdout %q", code, out.String())
	}
	if got := errOut.String(); !strings.Contains(got, `0 sides at 1 in "1d0"`) {
		t.Errorf("stderr = %q", got)
	}
}
