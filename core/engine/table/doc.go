// Package table is the engine's table room: the game at the table. Combat and the turn order
// (service_combat.go, service_gamecontrol.go), combatants, their effects
// and attributes, chat messages posted and read back (service_messages.go,
// service_hostmessages.go).
//
// Its type embeds the kernel (core/engine/internal/kernel) and calls
// nothing else of the engine; package engine's Service embeds it.
package table
