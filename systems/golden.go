package systems

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/vttapp/companion/core"
)

// goldenOutputs are the sections RunGolden renders, in file order.
// token.json, initiative.json, actions.json and rolls.json are there only
// for a kind with a token, an initiative, an actions or a roll hook.
var goldenOutputs = []string{"list.json", "basic.json", "view.json", "page.html", "token.json", "initiative.json", "actions.json", "rolls.json"}

// goldenTime stands in for created/modified when a case's entity has none,
// so that outputs do not depend on the clock.
var goldenTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// goldenCallTimeout is the Lua time limit while running golden cases.
const goldenCallTimeout = 10 * time.Second

// RunGolden loads the system in dir and, for each case dir/tests/*.txtar,
// renders the list row, basic row, view JSON and HTML page of the case's
// entity.json and compares them with the stored sections, printing a
// unified diff for each mismatch to out. With update, it rewrites the
// stored sections instead. failed counts the cases that did not match (or
// failed to render); err reports a system that does not load or a tests
// folder that cannot be read.
func RunGolden(dir string, update bool, out io.Writer) (failed int, err error) {
	// Golden tests check output, not speed: a loaded or race-instrumented
	// machine must not turn a slow view into a failed case.
	sys, err := LoadDir(dir, Options{CallTimeout: goldenCallTimeout})
	if err != nil {
		return 0, fmt.Errorf("system %s does not load:\n%w", dir, err)
	}
	defer sys.Close()
	files, err := filepath.Glob(filepath.Join(dir, "tests", "*.txtar"))
	if err != nil {
		return 0, err
	}
	sort.Strings(files)
	if len(files) == 0 {
		return 0, fmt.Errorf("no golden cases: %s has no tests/*.txtar", dir)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		ok, err := runCase(sys, file, name, update, out)
		if err != nil {
			return failed, err
		}
		if !ok {
			failed++
		}
	}
	switch {
	case update:
		fmt.Fprintf(out, "%d cases updated\n", len(files))
	case failed == 0:
		fmt.Fprintf(out, "PASS: %d cases\n", len(files))
	default:
		fmt.Fprintf(out, "FAIL: %d of %d cases\n", failed, len(files))
	}
	return failed, nil
}

// runCase checks (or updates) one case file; ok is false on a mismatch or a
// rendering error, err only when the file cannot be read or written.
func runCase(sys *System, file, name string, update bool, out io.Writer) (ok bool, err error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return false, err
	}
	cf := parseCase(data)
	rel := filepath.Join("tests", filepath.Base(file))
	rendered, rerr := renderCase(sys, cf, name)
	if rerr != nil {
		fmt.Fprintf(out, "FAIL %s: %v\n", name, rerr)
		return false, nil
	}
	if update {
		for _, section := range goldenOutputs {
			if _, there := rendered[section]; there {
				cf.set(section, rendered[section])
			}
		}
		if err := os.WriteFile(file, cf.format(), 0o644); err != nil {
			return false, err
		}
		fmt.Fprintf(out, "updated %s\n", name)
		return true, nil
	}
	ok = true
	for _, section := range goldenOutputs {
		want, found := cf.get(section)
		if _, there := rendered[section]; !there && !found {
			continue // a kind without a token hook
		}
		if !found {
			fmt.Fprintf(out, "FAIL %s: no %s section (run with -update to write it)\n", name, section)
			ok = false
			continue
		}
		if d := unifiedDiff(rel+" "+section+" (stored)", section+" (rendered)", string(want), string(rendered[section])); d != "" {
			fmt.Fprintf(out, "FAIL %s: %s differs:\n%s", name, section, d)
			ok = false
		}
	}
	if ok {
		fmt.Fprintf(out, "ok   %s\n", name)
	}
	return ok, nil
}

// renderCase renders every output of a case.
func renderCase(sys *System, cf *caseFile, name string) (map[string][]byte, error) {
	src, found := cf.get("entity.json")
	if !found {
		return nil, fmt.Errorf("no entity.json section")
	}
	var e core.Entity
	dec := json.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("entity.json: %s", core.JSONErrorText(err))
	}
	if e.Kind == "" {
		return nil, fmt.Errorf("entity.json: kind is required")
	}
	if e.ID == "" {
		e.ID = "golden-" + name // a fixed id keeps the outputs stable
	}
	if e.System == "" {
		e.System = sys.ID()
	}
	if err := e.Normalize(goldenTime); err != nil {
		return nil, fmt.Errorf("entity.json: %s", core.MessageOf(err))
	}
	ctx := context.Background()
	out := map[string][]byte{}
	for _, basic := range []bool{false, true} {
		row, err := sys.ListRow(ctx, &e, basic)
		if err != nil {
			return nil, err
		}
		section := "list.json"
		if basic {
			section = "basic.json"
		}
		if out[section], err = pretty(row); err != nil {
			return nil, err
		}
	}
	view, err := sys.View(ctx, &e)
	if err != nil {
		return nil, err
	}
	if out["view.json"], err = pretty(view); err != nil {
		return nil, err
	}
	if out["page.html"], err = sys.RenderPage(ctx, &e); err != nil {
		return nil, err
	}
	tpl, err := sys.TokenFor(ctx, &e)
	if err != nil {
		return nil, err
	}
	if tpl != nil {
		b, err := json.MarshalIndent(tpl, "", "  ")
		if err != nil {
			return nil, err
		}
		out["token.json"] = append(b, '\n')
	}
	if sys.rt.HasFunc(e.Kind, "initiative") {
		rule, err := sys.InitiativeFor(ctx, &e)
		if err != nil {
			return nil, err
		}
		b, err := json.MarshalIndent(rule, "", "  ")
		if err != nil {
			return nil, err
		}
		out["initiative.json"] = append(b, '\n')
	}
	if sys.rt.HasFunc(e.Kind, "actions") {
		actions, err := sys.ActionsFor(ctx, &e)
		if err != nil {
			return nil, err
		}
		if actions == nil {
			actions = []core.Action{}
		}
		b, err := json.MarshalIndent(actions, "", "  ")
		if err != nil {
			return nil, err
		}
		out["actions.json"] = append(b, '\n')
		if sys.rt.HasFunc(e.Kind, "roll") {
			if out["rolls.json"], err = goldenRolls(ctx, sys, &e, actions); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// goldenRolls is what the kind's roll hook plans for each action, with no
// option and with each of its options alone: "id +option" -> "formula ·
// title".
func goldenRolls(ctx context.Context, sys *System, e *core.Entity, actions []core.Action) ([]byte, error) {
	plans := map[string]string{}
	for _, a := range actions {
		for _, opt := range append([]string{""}, a.Options...) {
			var options []string
			key := a.ID
			if opt != "" {
				options, key = []string{opt}, a.ID+" +"+opt
			}
			plan, err := sys.PlanRoll(ctx, e, a, options)
			if err != nil {
				return nil, err
			}
			plans[key] = plan.Roll + " · " + plan.Title
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // a formula's ">=" reads as written
	enc.SetIndent("", "  ")
	if err := enc.Encode(plans); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func pretty(data []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
