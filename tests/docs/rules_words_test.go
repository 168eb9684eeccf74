package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ruleWords are words of one game's rules (D&D 5e's): a core that knows
// no rules names none of them. The game systems' folders (examples/) and
// tests are not searched.
var ruleWords = regexp.MustCompile(`(?i)\b(advantage|disadvantage|d20|hit_points|death[ _]saves?|critical)\b`)

// ruleWordsAllowed is the documented short list of what may still say
// them, file by file, and why. A line that names "D&D" is an example
// naming the system it comes from, and is allowed anywhere.
var ruleWordsAllowed = map[string]string{
	// The dice notation's own critical marks (cs, cf: docs/dice.md), which
	// a system's outcome hook reads and the chat draws: a dice feature,
	// not a game's rule.
	"core/rollresult.go":           "critical",
	"core/characters.go":           "critical",
	"web/client/src/ui/chat.ts":    "critical|advantage|disadvantage",
	"web/client/src/i18n.ts":       "critical|advantage|disadvantage",
	"web/client/src/table/dice.ts": "critical|advantage|disadvantage|d20",
	// The chat's dice tray rolls a die twice and keeps the higher or the
	// lower (2d20kh1): a dice tool several systems call advantage; and a
	// free roll's unmarked d20 shows its 20 and 1 as the table's marks.
}

func TestTheCoreNamesNoGamesRules(t *testing.T) {
	var found []string
	for _, dir := range []string{"core", "hub", "routes", "wire", "guard", "web/client/src"} {
		root := filepath.Join("..", "..", dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			name := d.Name()
			if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, ".test.ts") ||
				!(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".ts")) {
				return nil
			}
			rel, _ := filepath.Rel(filepath.Join("..", ".."), path)
			rel = filepath.ToSlash(rel)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			allowed := regexp.MustCompile(`^$`)
			if words, ok := ruleWordsAllowed[rel]; ok {
				allowed = regexp.MustCompile(`(?i)^(` + words + `)$`)
			}
			for i, line := range strings.Split(string(data), "\n") {
				if strings.Contains(line, "D&D") {
					continue
				}
				for _, w := range ruleWords.FindAllString(line, -1) {
					if !allowed.MatchString(w) {
						found = append(found, rel+":"+strconv.Itoa(i+1)+": "+w+": "+strings.TrimSpace(line))
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(found) > 0 {
		t.Errorf("a game's rules named outside its system (move the rule into the system's Lua, or add the file to the documented list with why):\n%s", strings.Join(found, "\n"))
	}
}
