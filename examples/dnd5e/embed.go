// Package dnd5e is the Dungeons & Dragons 5th edition game system (SRD 5.1)
// shipped with Companion: Lua views for monsters, spells, items and
// characters, pongo2 templates, a theme, a sample compendium and campaign,
// and golden cases. The folder itself is the system; this file only embeds it
// so the server can run it without a --system folder.
package dnd5e

import (
	"embed"
	"io/fs"
)

//go:embed system.json system.lua lib templates theme assets sample tests
var files embed.FS

// FS is the system folder (system.json at its root), ready for systems.Load.
var FS fs.FS = files
