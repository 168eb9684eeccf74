// Package legacyxml reads the legacy XML formats of the original
// application and of Fight Club 5e: compendium XML (<compendium> with
// monster, spell, item, race, class, feat, background and player
// entries), module.xml and campaign.xml (pages, maps, encounters, groups
// and embedded compendium entries) and pack.xml (asset packs).
//
// Every reader is bounded (Limits): the document's size, its element
// count, its nesting depth, the length of one text or attribute, and the
// attributes of one element. A DTD (<!DOCTYPE>, <!ENTITY>) is refused,
// never read, so no entity is ever expanded and no external reference is
// ever followed; XInclude elements are refused too. Errors name the file,
// the line and the element path (compendium/monster[3]/action[2]/text).
//
// The package reads bytes only: archives (.compendium, .module, .campaign,
// .pack zips) are unpacked by the importer with its archive limits, and
// handed here as a file system (RootFile says which format an unpacked
// archive holds).
//
// It is a leaf: the standard library only.
package legacyxml
