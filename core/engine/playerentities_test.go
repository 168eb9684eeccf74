package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/redact"
)

// An entity's notes are the game master's: a player reading, editing and
// writing it back (PUT, or a PATCH that names notes) neither learns them
// nor changes them, and neither the answer nor entityUpdated as players
// receive it carries them. The game master's own write sets them.
func TestEntityNotesStayTheGameMasters(t *testing.T) {
	f := newSvcFixture(t, true)
	if _, err := f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{
		"notes":     "GM: the goblin is a spy",
		"combatant": core.Object{"notes": "GM: flees", "effects": []any{map[string]any{"id": "fx", "name": "Hiding", "notes": "GM: at the door"}}},
	}); err != nil {
		t.Fatal(err)
	}
	player := f.svc.PlayerAs(core.Actor{Role: core.ClientPlayer})
	f.rec.reset()
	out, err := player.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"notes": "a player's", "data": core.Object{"hit_points": 8.0}})
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := json.Marshal(out)
	if strings.Contains(string(answer), "GM:") || strings.Contains(string(answer), "a player's") {
		t.Errorf("the answer to a player's write carries notes: %s", answer)
	}
	for _, e := range f.rec.events {
		payload, ok := redact.PlayersPayload(e.Data)
		if !ok {
			continue
		}
		b, _ := json.Marshal(payload)
		if strings.Contains(string(b), "GM:") {
			t.Errorf("%s as players receive it carries notes: %s", e.Name, b)
		}
	}

	// A whole PUT of what the player received keeps the notes too.
	if _, err := player.PutEntity(svcCtx, "monster", svcGoblin, out); err != nil {
		t.Fatal(err)
	}
	stored, err := f.svc.Entity(svcCtx, "monster", svcGoblin)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Notes != "GM: the goblin is a spy" || stored.Combatant == nil || stored.Combatant.Notes != "GM: flees" ||
		len(stored.Combatant.Effects) != 1 || stored.Combatant.Effects[0].Notes != "GM: at the door" {
		t.Fatalf("after a player's writes the notes are %q / %+v, want the game master's", stored.Notes, stored.Combatant)
	}
	if stored.Data["hit_points"] != 8.0 {
		t.Errorf("the player's change of data was lost: %v", stored.Data)
	}

	// What players read of it: no notes, and a copy marked as theirs.
	seen := redact.EntityForPlayers(stored)
	if seen.Notes != "" || seen.Combatant.Notes != "" || seen.Combatant.Effects[0].Notes != "" || !seen.Redacted {
		t.Errorf("EntityForPlayers = %+v / %+v", seen, seen.Combatant)
	}
	if stored.Notes == "" || stored.Redacted {
		t.Error("EntityForPlayers changed the stored entity")
	}
	if list := redact.EntitiesForPlayers([]*core.Entity{stored}); list[0].Notes != "" {
		t.Error("EntitiesForPlayers kept the notes")
	}

	// The game master's write sets them.
	gm, err := f.svc.PatchEntity(svcCtx, "monster", svcGoblin, core.Object{"notes": "GM: new"})
	if err != nil || gm.Notes != "GM: new" {
		t.Fatalf("the game master's write of notes: %v %q", err, gm.Notes)
	}
}

// A connected client's address is the game master's: players receive
// clients without it.
func TestClientsForPlayersLeaveOutTheAddress(t *testing.T) {
	c := core.Client{Channel: 3, Address: "192.168.1.20", Name: "Ann"}
	payload, _ := redact.PlayersPayload(c)
	if got := payload.(core.Client); got.Address != "" || got.Name != "Ann" {
		t.Errorf("clientUpdated for players: %+v", got)
	}
	if redact.HostPayload(c).(core.Client).Address != "192.168.1.20" {
		t.Error("the host lost the address")
	}
	if !redact.HostPayloadDiffers(c) {
		t.Error("a client's payload differs for the host")
	}
	if got := redact.ClientsForPlayers([]core.Client{c}); got[0].Address != "" || c.Address == "" {
		t.Errorf("ClientsForPlayers: %+v", got)
	}
}
