package dice

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = RunCLI(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCLIText(t *testing.T) {
	cases := []struct {
		args []string
		expr string
	}{
		{[]string{"4d6dl1", "--seed", "7"}, "4d6dl1"},
		{[]string{"--seed", "7", "4d6dl1"}, "4d6dl1"},
		{[]string{"--seed=7", "4d6dl1"}, "4d6dl1"},
		{[]string{"-seed", "7", "4d6dl1"}, "4d6dl1"},
		{[]string{"2d6", "+", "3", "--seed", "7"}, "2d6 + 3"}, // words joined with a space
	}
	for _, c := range cases {
		code, out, errOut := runCLI(c.args...)
		if code != 0 || errOut != "" {
			t.Errorf("%v: code %d, stderr %q", c.args, code, errOut)
		}
		if want := mustText(t, 7, c.expr) + "\n"; out != want {
			t.Errorf("%v: stdout %q, want %q", c.args, out, want)
		}
	}
}

func mustText(t *testing.T, seed uint64, expr string) string {
	t.Helper()
	res, err := NewSeededRoller(seed).Roll(expr)
	if err != nil {
		t.Fatal(err)
	}
	return res.Text()
}

func TestCLIJSON(t *testing.T) {
	code, out, errOut := runCLI("--json", "--seed", "3", "{1d20+5, 1d20+3}kh1 # initiative")
	if code != 0 || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	var res struct {
		Total      *float64 `json:"total"`
		Formula    string   `json:"formula"`
		Expression string   `json:"expression"`
		Comment    string   `json:"comment"`
		Text       string   `json:"text"`
		Tree       *Node    `json:"tree"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if res.Total == nil || res.Formula != "{1d20+5, 1d20+3}kh1" || res.Comment != "initiative" ||
		res.Tree == nil || res.Tree.Type != "group" || recompute(res.Tree) != *res.Total {
		t.Errorf("JSON result %s", out)
	}
	if res.Text != mustText(t, 3, "{1d20+5, 1d20+3}kh1 # initiative") {
		t.Errorf("text %q", res.Text)
	}
}

// The same seed gives the same roll; without a seed rolls vary.
func TestCLISeed(t *testing.T) {
	_, a, _ := runCLI("100d100", "--seed", "99")
	_, b, _ := runCLI("100d100", "--seed", "99")
	_, c, _ := runCLI("100d100")
	if a != b || a == c {
		t.Errorf("seeded runs differ or unseeded run repeats them:\n%s\n%s\n%s", a, b, c)
	}
}

func TestCLIErrors(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"1d0"}, 1, "roll: 0 sides at 1 in \"1d0\": a die needs at least one side\n"},
		{[]string{"2d6+3)"}, 1, "roll: unexpected ')' at 6 in \"2d6+3)\"\n"},
		{[]string{"1d1!"}, 1, "roll: endless explosion at 4 in \"1d1!\": every face of a d1 explodes\n"},
		{[]string{}, 2, "roll: no expression given\n"},
		{[]string{"--json"}, 2, "roll: no expression given\n"},
		{[]string{"1d6", "--seed"}, 2, "roll: --seed needs a number\n"},
		{[]string{"1d6", "--seed", "x"}, 2, "roll: --seed \"x\" is not a whole number from 0 to 18446744073709551615\n"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(c.args...)
		if code != c.code || out != "" || !strings.HasPrefix(errOut, c.stderr) {
			t.Errorf("%v: code %d stdout %q stderr %q; want code %d stderr %q", c.args, code, out, errOut, c.code, c.stderr)
		}
	}
}

func TestCLIHelpAndDashes(t *testing.T) {
	code, out, _ := runCLI("--help")
	if code != 0 || !strings.HasPrefix(out, "usage: companion roll EXPR") {
		t.Errorf("help: %d %q", code, out)
	}
	// After --, arguments are expression words even if they look like flags.
	code, out, errOut := runCLI("--seed", "1", "--", "-1d4")
	if code != 0 || out != mustText(t, 1, "-1d4")+"\n" {
		t.Errorf("-- -1d4: %d %q %q", code, out, errOut)
	}
}
