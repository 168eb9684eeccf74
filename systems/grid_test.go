package systems

import (
	"context"
	"strings"
	"testing"

	"github.com/vttapp/companion/core/mapobjects"

	"github.com/vttapp/companion/core"
)

// gridSystem is a one-kind system whose grid hook is the given Lua.
func gridSystem(grid string) map[string]string {
	return map[string]string{
		"system.json": okManifest,
		"system.lua": `local companion = require("companion")
companion.entity("monster", { collection = "monsters", view = function(e) return {} end })
` + grid + "\n",
		"templates/monster.html": "<p>{{ view.name }}</p>",
	}
}

// A system's grid hook answers for templates and rulers; one without it
// leaves them to the server's geometry (handled false).
func TestGridHookAnswersOrLeavesItToTheServer(t *testing.T) {
	s, err := Load(mapFS(gridSystem(`companion.grid { squares = function(t) return { { 1, 2 }, { math.floor(t.x), 0 } } end,
  distance = function(p) return #p.path * p.scale end }`)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cells, handled, err := s.TemplateSquares(context.Background(), mapobjects.Template{Shape: "sphere", X: 3.5, Radius: 1})
	if err != nil || !handled || len(cells) != 4 || cells[0] != 1 || cells[1] != 2 || cells[2] != 3 {
		t.Fatalf("squares: %v %v %v", cells, handled, err)
	}
	d, handled, err := s.PathDistance(context.Background(), []float64{0, 0, 1, 1}, 5)
	if err != nil || !handled || d != 20 {
		t.Fatalf("distance: %v %v %v", d, handled, err)
	}
	bare := loadTiny(t)
	if _, handled, err := bare.TemplateSquares(context.Background(), mapobjects.Template{Shape: "sphere", Radius: 1}); handled || err != nil {
		t.Fatalf("a system without the hook: handled %v, %v", handled, err)
	}
	if _, handled, err := bare.PathDistance(context.Background(), []float64{0, 0, 1, 1}, 5); handled || err != nil {
		t.Fatalf("a system without the hook: handled %v, %v", handled, err)
	}
}

// What a grid hook answers wrong is a script error at the function; a
// declaration that is wrong is a load problem.
func TestGridHookErrors(t *testing.T) {
	for name, body := range map[string]string{
		"not a list":      `companion.grid { squares = function(t) return "all" end }`,
		"not a pair":      `companion.grid { squares = function(t) return { { 1 } } end }`,
		"not whole":       `companion.grid { squares = function(t) return { { 1.5, 2 } } end }`,
		"negative reach":  `companion.grid { distance = function(p) return -1 end }`,
		"not a number":    `companion.grid { distance = function(p) return "far" end }`,
		"a runtime error": `companion.grid { squares = function(t) error("boom") end, distance = function(p) error("boom") end }`,
	} {
		s, err := Load(mapFS(gridSystem(body)), Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, _, errSquares := s.TemplateSquares(context.Background(), mapobjects.Template{Shape: "sphere", Radius: 1})
		_, _, errDistance := s.PathDistance(context.Background(), []float64{0, 0, 1, 1}, 5)
		s.Close()
		err = errSquares
		if err == nil {
			err = errDistance
		}
		if core.KindOf(err) != core.KindInternal || !strings.Contains(err.Error(), "system.lua:3") {
			t.Errorf("%s: %v, want a system script error at system.lua:3", name, err)
		}
	}
	got := problemsOf(t, gridSystem("companion.grid { squares = function() end }\ncompanion.grid { }\ncompanion.grid { area = function() end }\ncompanion.grid(5)"))
	joined := strings.Join(got, "\n")
	for _, want := range []string{"called twice", "area", "the argument must be a table"} {
		if !strings.Contains(joined, want) {
			t.Errorf("load problems %q lack %q", joined, want)
		}
	}
}
