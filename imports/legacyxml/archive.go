package legacyxml

import (
	"io/fs"
	"strings"
)

// The root files of legacy archives: the one at an archive's root says
// what it holds (the archive's extension does not).
const (
	CompendiumFile = "compendium.xml"
	ModuleFile     = "module.xml"
	CampaignFile   = "campaign.xml"
	PackFile       = "pack.xml"
)

// RootFiles lists them.
var RootFiles = []string{CompendiumFile, ModuleFile, CampaignFile, PackFile}

// FindRootFiles returns the legacy root files at the root of an unpacked
// archive, as they are named there (matched without regard to case, as
// archives made on case-insensitive systems may spell them otherwise).
func FindRootFiles(fsys fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		for _, want := range RootFiles {
			if strings.EqualFold(e.Name(), want) {
				found = append(found, e.Name())
			}
		}
	}
	return found, nil
}
