// Package library is the engine's library room: the game master's content. Campaigns, modules
// and their content (service_library.go, service_content.go,
// service_hostcampaign.go), entities and creatures, pages shown and made
// handouts (service_pages.go, journal.go), encounters run onto a map
// (service_encounters.go, encounterlayout.go), random tables
// (service_tables.go).
//
// Its type embeds the kernel (core/engine/internal/kernel) and calls
// nothing else of the engine; package engine's Service embeds it.
package library
