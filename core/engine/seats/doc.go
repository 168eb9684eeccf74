// Package seats is the engine's seats room: who sits at the table. Seats taken, freed and kicked
// (service_seats.go), the join key's changes (service_access.go), which
// map a seat is on (seatmaps.go), a seat's character sheet, its rolls and
// hit points (service_character.go, service_hitpoints.go).
//
// Its type embeds the kernel (core/engine/internal/kernel) and calls
// nothing else of the engine; package engine's Service embeds it.
package seats
