package imports

import (
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/legacy"
)

// The names the rest of the server knows the installer's results and
// settings by. They are defined in the parts below (content, the formats'
// common ground, and legacy, the legacy formats' reader), which cannot
// import this package; the routes, the wire description and the command
// read them here, beside the Manager that returns them.
type (
	// Result names what an import installed.
	Result = content.Result
	// CompendiumReport is what a compendium import made.
	CompendiumReport = content.CompendiumReport
	// LibraryReport is what a legacy module, campaign or pack made.
	LibraryReport = content.LibraryReport
	// InstallOptions say how to file a content folder or map.
	InstallOptions = content.InstallOptions
	// InstallProgress is how far an install of many entries has come.
	InstallProgress = content.InstallProgress
	// Limits bound what a download or an archive may cost.
	Limits = content.Limits
	// Collections is what an installer needs of the loaded game system.
	Collections = content.Collections
	// CompendiumMapper is what a game system implements to map a legacy
	// compendium's entries to entities (its import hook).
	CompendiumMapper = legacy.CompendiumMapper
)

// What an import produced (Result.Kind).
const (
	KindModule     = content.KindModule
	KindCampaign   = content.KindCampaign
	KindSystem     = content.KindSystem
	KindCollection = content.KindCollection
	KindMap        = content.KindMap
)

// Stages of an install that reports progress (InstallProgress.Stage).
const (
	StageReading = content.StageReading
	StageWriting = content.StageWriting
)

// The defaults of two limits that messages and tests name.
const (
	RatioFloor          = content.RatioFloor
	DefaultMaxImageSide = content.DefaultMaxImageSide
)

// DefaultLimits are the limits used for every zero field of Config.Limits.
var DefaultLimits = content.DefaultLimits
