package content

import "github.com/vttapp/companion/core"

// What an import produced.
const (
	KindModule     = "module"
	KindCampaign   = "campaign"
	KindSystem     = "system"
	KindCollection = "collection"
	KindMap        = "map"
)

// Result names what an import installed: the body of POST /host/api/import.
type Result struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// Compendium tells what a compendium import made (nil for others).
	Compendium *CompendiumReport `json:"compendium,omitempty"`
	// Library tells what a legacy module, campaign or pack made (nil for
	// others).
	Library *LibraryReport `json:"library,omitempty"`
	// GridPending is true for a map made from an image or a video: its
	// grid is to be set before it can go on the player screen.
	GridPending bool `json:"gridPending,omitempty"`
}

// CompendiumReport is what a compendium import made: the entities
// written, the entries left out by element kind, and what the person
// should know (entries the system does not map, images the archive lacks).
type CompendiumReport struct {
	Entities int            `json:"entities"`
	Skipped  map[string]int `json:"skipped,omitempty"`
	Notes    []string       `json:"notes,omitempty"`
}

// LibraryReport is what a legacy module, campaign or pack made: the rows
// of each kind written, and what the person should know (entries the
// system does not map, files the archive lacks, elements not read).
type LibraryReport struct {
	Pages      int      `json:"pages"`
	Maps       int      `json:"maps"`
	Encounters int      `json:"encounters"`
	Groups     int      `json:"groups"`
	Assets     int      `json:"assets"`
	Entities   int      `json:"entities"`
	Notes      []string `json:"notes,omitempty"`
}

// InstallOptions say how to file a content folder or map.
type InstallOptions struct {
	// Destination is the module or campaign that receives a loose
	// collection or a map; empty means the loaded system's primary campaign.
	Destination string
	// Package is the manifest URL the content came from; a module keeps it
	// to check for updates. PackageID is the manifest's id, which becomes
	// the id of a newly installed module.
	Package   string
	PackageID string
	// Expect is the type a manifest announced ("module" or "system"); the
	// archive must be of that type. Empty accepts any.
	Expect string
	// Replace is the id of an installed module that this content updates;
	// the module keeps that id.
	Replace string
	// Primary makes an installed campaign the primary one of its system.
	Primary bool
	// Name is the original file name, used to name a map or a
	// compendium's module.
	Name string
	// Progress, when set, receives how far an install of many entries
	// (a compendium) has come, at most every 100 ms. It must not block.
	Progress func(InstallProgress)
}

// ModuleID is the id a module installed with these options takes: the
// one it updates, else its manifest's, else id (its own).
func (o InstallOptions) ModuleID(id string) string {
	switch {
	case o.Replace != "":
		return o.Replace
	case o.PackageID != "":
		return o.PackageID
	}
	return id
}

// Collections is what an installer needs of the loaded game system: its id
// and the entity kind behind a collection label ("monsters" -> "monster").
type Collections interface {
	SystemID() string
	KindForCollection(label string) (kind string, ok bool)
}

// Check verifies inside the transaction that the destination r still
// exists (it was resolved before the transaction began).
func (r Result) Check(tx core.Tx) error {
	var err error
	if r.Kind == KindModule {
		_, err = tx.Module(r.ID)
	} else {
		_, err = tx.Campaign(r.ID)
	}
	if core.IsNotFound(err) {
		return core.NotFoundf("the destination %s '%s' was deleted meanwhile", r.Kind, r.Name)
	}
	return err
}
