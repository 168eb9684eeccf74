// Package legacy installs the legacy formats: compendium XML (each entry
// mapped to entities by the loaded system's import hook, the
// CompendiumMapper, several at once and written in batches while the
// file is read, so that a file of any size costs the memory of a batch)
// and legacy modules, campaigns and asset packs (module.xml, campaign.xml,
// pack.xml: pages, maps with their walls, lights, tokens and canvas
// drawings, encounters, groups, assets and the compendium entries they
// embed).
//
// legacyxml reads the documents; this package turns what it read into the
// rows of package content (content.Owned) and a content.Step that the
// installer in package imports commits, exactly as it commits an archive
// of our own format. Files the documents name are resolved against the
// unpacked archive; a missing one is left out and noted in the report.
package legacy
