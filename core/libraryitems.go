package core

// The library of a module or campaign: its pages, encounters, groups and
// assets (read whole by the exporters and the host console), and the tree
// its groups make with its maps.

// ContentOwner names the module or campaign that owns content.
type ContentOwner struct {
	Kind string `json:"kind"` // "module" or "campaign"
	ID   string `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// Owner kinds of ContentOwner.
const (
	OwnerModule   = "module"
	OwnerCampaign = "campaign"
)

// LibraryItem is a node of a library tree: a group with what it holds, or
// a page, map, encounter or asset.
type LibraryItem struct {
	Type string `json:"type"` // group, page, map, encounter, asset, table
	ID   string `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
	Rank int    `json:"rank"`
	// A page (or a table): its URL and what players may read of it in the primary
	// campaign (Shown "page" or "sections", with those sections' ids).
	URL      string   `json:"url,omitempty"`
	Shown    string   `json:"shown,omitempty"`
	Sections []string `json:"sections,omitempty"`
	// A map: its background and whether it is on the player screen; an
	// asset: its image.
	Image    string `json:"image,omitempty"`
	OnScreen bool   `json:"onScreen,omitempty"`
	// An encounter: how many creatures, and the map it names.
	Creatures int    `json:"creatures,omitempty"`
	MapID     string `json:"mapId,omitempty"`
	// A group's content (or a page's sub-pages), ordered by rank, then
	// name.
	Children []*LibraryItem `json:"children,omitempty"`
}

// Library is a module's or campaign's tree.
type Library struct {
	Owner ContentOwner   `json:"owner"`
	Items []*LibraryItem `json:"items"`
}

// LibrarySummary is one module or campaign of the library list, with what
// it holds.
type LibrarySummary struct {
	ContentOwner
	Category   string `json:"category,omitempty"`
	Primary    bool   `json:"primary,omitempty"`
	Pages      int    `json:"pages"`
	Maps       int    `json:"maps"`
	Encounters int    `json:"encounters"`
	Groups     int    `json:"groups"`
	Assets     int    `json:"assets"`
}
