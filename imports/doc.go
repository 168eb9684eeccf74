// Package imports brings content into Companion: vttapp:// import links,
// POST /api/import requests and their URL policy, offers waiting for the
// person at the device, downloads with their limits, safe archive
// extraction, the installers (module, campaign, system, loose collection,
// Universal VTT map, legacy compendium XML through the system's import
// hook), package manifests and module updates. Its parts: downloads and
// their URL policy are download's, the legacy XML formats are read by
// legacyxml, pictures, videos and sound recognised by media, Universal VTT
// maps read and written by uvtt.
//
// Every install stages its files in a temporary folder under the data
// folder, writes its rows in one store transaction, and only then moves the
// files into place; a failure at any step leaves neither rows nor files.
//
// Above its parts, of this project's packages it depends on core and
// pagehtml only (besides the JSON Schema validator and x/text); what it
// needs of the loaded game system is the small Collections interface.
package imports

// Collections is what an installer needs of the loaded game system: its id
// and the entity kind behind a collection label ("monsters" -> "monster").
type Collections interface {
	SystemID() string
	KindForCollection(label string) (kind string, ok bool)
}
