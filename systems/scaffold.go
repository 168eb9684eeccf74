package systems

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Scaffold writes a starting system folder (companion system new): a
// manifest, an entry script declaring one kind of player character with a
// view, a roll with an option and named outcomes, its template, and a
// golden case whose outputs are rendered as it is written, so the folder
// loads and passes its tests as created. It refuses a folder that exists
// and is not empty.

var systemIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)

// Scaffold creates the folder dir for a new system id.
func Scaffold(dir, id string) error {
	if !systemIDPattern.MatchString(id) {
		return fmt.Errorf("the system id %q must be 1 to 40 lower-case letters, digits, '-' or '_', starting with a letter", id)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s exists and is not empty: choose a new folder", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	title := strings.ToUpper(id[:1]) + strings.NewReplacer("-", " ", "_", " ").Replace(id[1:])
	files := map[string]string{
		"system.json":              fmt.Sprintf(scaffoldManifest, id, title),
		"system.lua":               fmt.Sprintf(scaffoldScript, title),
		"templates/hero.html":      scaffoldTemplate,
		"tests/hero-example.txtar": scaffoldCase,
	}
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			return err
		}
	}
	failed, err := RunGolden(dir, true, io.Discard)
	if err == nil && failed > 0 {
		err = fmt.Errorf("the starting golden case does not render")
	}
	return err
}

const scaffoldManifest = `{
  "id": %q,
  "name": %q,
  "version": "0.1.0",
  "entry": "system.lua"
}
`

const scaffoldScript = `-- %s: a game system for Companion (docs/system-authoring.md).
--
-- One kind to start from: a hero a player takes a seat as, with a view for
-- its page, its health, and one roll whose option and outcomes are this
-- system's own rules. Edit, then run: companion system test . -update
local companion = require("companion")

companion.entity("hero", {
  collection = "heroes",
  title = "Hero",
  unique = true,
  ranges = { "health" },
  editable = { "health" },
  health = "Health",
  view = function(e)
    local data = type(e.data) == "table" and e.data or {}
    return { grit = data.grit or 0, health = data.health or 0 }
  end,
  -- The rolls of the hero's sheet.
  actions = function(e)
    local grit = type(e.data) == "table" and type(e.data.grit) == "number" and e.data.grit or 0
    return {
      { id = "push", title = "Push through", type = "check", roll = "2d6+" .. grit, options = { "focus" } },
    }
  end,
  -- What a roll may take, and what it does to the formula.
  rollOptions = { { id = "focus", title = "Focus" } },
  roll = function(r)
    for _, o in ipairs(r.options) do
      if o == "focus" then
        return { roll = "3d6kh2" .. string.sub(r.action.roll, 4), title = r.action.title .. " (focused)" }
      end
    end
    return r.action.roll
  end,
  -- What a result is called.
  outcomes = { { id = "success", title = "Success" }, { id = "setback", title = "Setback" } },
  outcome = function(r)
    if r.roll.total >= 10 then
      return "success"
    end
    return "setback"
  end,
})
`

const scaffoldTemplate = `<article class="hero">
  <h1>{{ view.name }}</h1>
  <p>Grit {{ view.grit }} · Health {{ view.health }}</p>
</article>
`

const scaffoldCase = `-- entity.json --
{
  "kind": "hero",
  "name": "Ayla",
  "slug": "ayla",
  "data": { "grit": 2, "health": 6, "max_health": 6 }
}
`
