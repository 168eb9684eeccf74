package core_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// contractBroadcasts are the names of contract 6.3, the only names the
// application broadcasts.
var contractBroadcasts = strings.Fields(`gameUpdated combatantsUpdated systemPaused
	screenUpdated interactionUpdated reload
	mapUpdated mapLoaded mapFrameUpdated mapFitScreen mapFocus mapVideoControlUpdated
	tokenUpdated tokensUpdated markerUpdated markersUpdated tileUpdated tilesUpdated lightUpdated lightsUpdated
	areaEffectUpdated areaEffectsUpdated measurementUpdated measurementsUpdated
	mapMoved tokenMoved markerMoved tileMoved areaEffectMoved pointerMoved
	fogUpdated drawingsUpdated lineOfSightUpdated pointerUpdated
	entityCreated entityUpdated entityDeleted combatantCreated combatantUpdated combatantDeleted
	messageCreated messagesUpdated messageDeleted
	clientConnected clientDisconnected clientUpdated app
	trackedObjectCreated trackedObjectUpdated trackedObjectDeleted trackedObjectsUpdated`)

// contractRequests are the names of contract 6.2 (and the four it says are
// parsed and ignored).
var contractRequests = strings.Fields(`clientUpdated mapViewportUpdated tokenMoved updateDoor pointerUpdated
	updateToken updateEntity updateCombatant createMessage getAttribute setAttribute
	trackedObjectCreated trackedObjectUpdated trackedObjectDeleted trackedObjectsUpdated
	createEntity createCombatant deleteEntity deleteCombatant`)

// extensionEvents and extensionRequests are this server's own names, each
// documented in docs/api.md (seats, roles, the join key, a player's
// character): the only names beside the contract's.
var (
	extensionEvents   = strings.Fields(`seatsUpdated seatChanged initiativeRequested accessChanged roleChanged journalUpdated soundUpdated soundsUpdated`)
	extensionRequests = strings.Fields(`takeSeat leaveSeat setRole getCharacter updateCharacter changeHitPoints
		rollAction rollInitiative endTurn ping addMapObject updateMapObject deleteMapObject moveMapObject measure`)
)

// TestAuditEventNamesAreTheContracts: every Event* constant is a name of
// contract 6.3 and every Request* constant one of 6.2 (or one of the
// documented extensions), so a broadcast or a handler cannot drift from
// the contract's spelling; and every name of 6.3 has its constant.
func TestAuditEventNamesAreTheContracts(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "events.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	has := func(list []string, name string) bool {
		for _, n := range list {
			if n == name {
				return true
			}
		}
		return false
	}
	declared := map[string]bool{}
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					continue
				}
				value, _ := strconv.Unquote(lit.Value)
				switch {
				case strings.HasPrefix(id.Name, "Event"):
					declared[value] = true
					if !has(contractBroadcasts, value) && !has(extensionEvents, value) {
						t.Errorf("%s = %q is not a broadcast of contract 6.3", id.Name, value)
					}
				case strings.HasPrefix(id.Name, "Request"):
					if !has(contractRequests, value) && !has(extensionRequests, value) {
						t.Errorf("%s = %q is not a client event of contract 6.2", id.Name, value)
					}
				}
			}
		}
	}
	for _, name := range contractBroadcasts {
		if !declared[name] {
			t.Errorf("contract 6.3 name %q has no Event constant", name)
		}
	}
}
