// Package play is the engine's play room: what happens on the map. Maps and tokens
// (service_hostmaps.go, service_tokens.go, service_placetoken.go), token
// drags and their sweep (drag.go, hostdrag.go, dragsweep.go: the room owns
// the tracker, Drags), map objects and the marks' live moves
// (service_mapobjects.go, markmoves.go), doors, fog, sight, the grid, the
// pointer, the player screen.
//
// Its type embeds the kernel (core/engine/internal/kernel) and calls
// nothing else of the engine; package engine's Service embeds it.
package play
