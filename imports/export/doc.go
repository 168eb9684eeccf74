// Package export writes a module or a campaign out as an archive of our
// own content format (docs/content-format.md), the one package content
// reads, so that importing the archive gives back the same content with
// the same ids. Stage reads everything in one read transaction into a
// staging folder and refuses an archive that an import with the same
// limits would refuse; Archive.WriteZip then streams it.
package export
