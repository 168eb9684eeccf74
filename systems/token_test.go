package systems

import (
	"context"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
)

// hookSystem is a one-kind system whose token and initiative hooks are the
// given Lua bodies.
func hookSystem(token, initiative string) map[string]string {
	return map[string]string{
		"system.json": okManifest,
		"system.lua": `local companion = require("companion")
companion.entity("monster", { collection = "monsters", view = function(e) return {} end,
  token = function(e) ` + token + ` end,
  initiative = function(e) ` + initiative + ` end })
companion.system{ config = { combat = { initiative = { rollFormula = "1d12", autoRoll = "all" } } } }
`,
		"templates/monster.html": "<p>{{ view.name }}</p>",
	}
}

func TestTokenHookShapesPlacedTokens(t *testing.T) {
	s, err := Load(mapFS(hookSystem(`return { width = e.data.cells, height = e.data.cells, role = "neutral", image = "/x.png",
	  vision = { enabled = true, dark = true, darkRadiusMax = 30 } }`, `return { bonus = e.data.cells, tiebreak = 7 }`)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	e := &core.Entity{ID: "m1", Kind: "monster", Name: "Ogre", Slug: "ogre", Data: core.Object{"cells": 2.0}}
	tpl, err := NewHolder(s).TokenFor(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if tpl.Width != 2 || tpl.Height != 2 || tpl.Role != "neutral" || tpl.Image != "/x.png" ||
		tpl.Vision == nil || !tpl.Vision.Enabled || tpl.Vision.DarkRadiusMax != 30 {
		t.Fatalf("template = %+v (vision %+v)", tpl, tpl.Vision)
	}
	rule, err := NewHolder(s).InitiativeFor(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if rule.Formula != "1d12" || rule.Bonus != 2 || rule.Tiebreak != 7 || rule.AutoRoll != "all" {
		t.Fatalf("initiative rule = %+v", rule)
	}
	if rule, err := s.InitiativeFor(context.Background(), nil); err != nil || rule.Formula != "1d12" || rule.Bonus != 0 {
		t.Fatalf("without entity: %+v, %v", rule, err)
	}
}

func TestTokenHookErrorsNameTheFunction(t *testing.T) {
	for name, body := range map[string]string{
		"not a table": `return "big"`,
		"bad role":    `return { role = "evil" }`,
		"too wide":    `return { width = 500 }`,
		"bad type":    `return { width = "two" }`,
	} {
		s, err := Load(mapFS(hookSystem(body, `return {}`)), Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		_, err = s.TokenFor(context.Background(), &core.Entity{ID: "m1", Kind: "monster", Name: "X", Slug: "x"})
		s.Close()
		if err == nil || core.KindOf(err) != core.KindInternal || !strings.Contains(err.Error(), "system.lua:3") ||
			!strings.Contains(err.Error(), "token function") {
			t.Errorf("%s: err = %v, want an internal (system script) error at system.lua:3 naming the token function", name, err)
		}
	}
}

func TestKindWithoutTokenHookHasNoTemplate(t *testing.T) {
	s := loadTiny(t)
	kind := s.Kinds()[0].Name
	tpl, err := s.TokenFor(context.Background(), &core.Entity{ID: "x", Kind: kind, Name: "X", Slug: "x"})
	if err != nil || tpl != nil {
		t.Fatalf("TokenFor = %+v, %v; want nil, nil", tpl, err)
	}
}
