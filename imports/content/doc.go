// Package content is the common ground of every install and of the
// export: our own archive format (module.json, campaign.json, system.json,
// collection files, maps.json and the library files pages.json,
// encounters.json, groups.json, tables.json and assets.json, checked
// against the JSON Schemas embedded from schemas/) read into the rows of
// one owner (Owned), and the Step that writes them in one transaction.
//
// The readers of the other formats (package legacy) fill the same Owned
// and return the same Step, and the export writes the files these readers
// read back, so what they share lives here: the file names and reference
// rules (CheckExternalRef, RelativeRef, CheckFolderID, ResolvePageHTML),
// the Result and reports an install answers with, the InstallOptions,
// the Limits, install progress, and the Site (service, data folder, loaded
// system, limits, clock) that the installer above hands them. It imports
// nothing of imports and its other parts but legacyxml (whose limits
// Limits carries).
package content
