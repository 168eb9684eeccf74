package legacy

import "testing"

// A module made from a compendium file is named after the file, without
// its extensions and folders.
func TestCompendiumName(t *testing.T) {
	for in, want := range map[string]string{
		"SRD_Monsters.compendium": "SRD Monsters", "srd-spells-items.compendium.xml": "srd-spells-items",
		"/tmp/x/Bestiary.XML": "Bestiary", "download": "Compendium", "": "Compendium", "a.zip": "a",
	} {
		if got := compendiumName(in); got != want {
			t.Errorf("compendiumName(%q) = %q, want %q", in, got, want)
		}
	}
}
