package content

import (
	"time"

	"github.com/vttapp/companion/imports/legacyxml"
)

// Limits bound what a download or an archive may cost. The zero value of a
// field means its default (DefaultLimits).
type Limits struct {
	// MaxManifestBytes caps a package manifest.
	MaxManifestBytes int64
	// ManifestTimeout bounds fetching a manifest, redirects included.
	ManifestTimeout time.Duration
	// OfferManifestBytes and OfferManifestTimeout bound the manifest an
	// offer fetches as soon as anyone on the network offers it (before
	// the person at the device has seen it): smaller and shorter than
	// MaxManifestBytes and ManifestTimeout, which bound the fetches the
	// person asks for (an update check, an accepted offer).
	OfferManifestBytes   int64
	OfferManifestTimeout time.Duration
	// MaxDownloadBytes caps a downloaded or uploaded archive or map file.
	MaxDownloadBytes int64
	// DownloadTimeout bounds a whole download, redirects included.
	DownloadTimeout time.Duration
	// MaxMapBytes caps a Universal VTT map file, which is read whole.
	MaxMapBytes int64
	// MaxImageSide caps the width and height, in pixels, of an image or
	// video that becomes a map (read from its header, never decoded).
	MaxImageSide int
	// MaxEntries caps the number of entries in an archive.
	MaxEntries int
	// MaxTotalBytes caps the total uncompressed size of an archive.
	MaxTotalBytes int64
	// MaxRatio caps the compression ratio of an archive entry larger than
	// RatioFloor bytes (a zip bomb compresses thousands to one).
	MaxRatio int64
	// XML bounds one legacy XML document (compendium.xml, module.xml...):
	// its size, elements, nesting, texts and attributes.
	XML legacyxml.Limits
}

// DefaultMaxImageSide is the largest width or height of a map image or
// video accepted: the largest texture most graphics cards, and so the
// players' browsers, can draw.
const DefaultMaxImageSide = 16384

// RatioFloor is the uncompressed size under which an entry's compression
// ratio is not checked: a small file of zeros compresses well and harms no one.
const RatioFloor = 1 << 20

// DefaultLimits are the limits used for every zero field.
var DefaultLimits = Limits{
	MaxManifestBytes:     1 << 20,
	ManifestTimeout:      20 * time.Second,
	OfferManifestBytes:   128 << 10,
	OfferManifestTimeout: 5 * time.Second,
	MaxDownloadBytes:     2 << 30,
	DownloadTimeout:      30 * time.Minute,
	MaxMapBytes:          256 << 20,
	MaxImageSide:         DefaultMaxImageSide,
	MaxEntries:           50000,
	MaxTotalBytes:        4 << 30,
	MaxRatio:             200,
	XML:                  legacyxml.DefaultLimits,
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.MaxManifestBytes > 0 {
		d.MaxManifestBytes = l.MaxManifestBytes
	}
	if l.ManifestTimeout > 0 {
		d.ManifestTimeout = l.ManifestTimeout
	}
	if l.OfferManifestBytes > 0 {
		d.OfferManifestBytes = l.OfferManifestBytes
	}
	if l.OfferManifestTimeout > 0 {
		d.OfferManifestTimeout = l.OfferManifestTimeout
	}
	if l.MaxDownloadBytes > 0 {
		d.MaxDownloadBytes = l.MaxDownloadBytes
	}
	if l.DownloadTimeout > 0 {
		d.DownloadTimeout = l.DownloadTimeout
	}
	if l.MaxMapBytes > 0 {
		d.MaxMapBytes = l.MaxMapBytes
	}
	if l.MaxImageSide > 0 {
		d.MaxImageSide = l.MaxImageSide
	}
	if l.MaxEntries > 0 {
		d.MaxEntries = l.MaxEntries
	}
	if l.MaxTotalBytes > 0 {
		d.MaxTotalBytes = l.MaxTotalBytes
	}
	if l.MaxRatio > 0 {
		d.MaxRatio = l.MaxRatio
	}
	d.XML = l.XML.WithDefaults()
	return d
}
