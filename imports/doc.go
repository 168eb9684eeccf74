// Package imports brings content into Companion: vttapp:// import links,
// POST /api/import requests and their URL policy, offers waiting for the
// person at the device, downloads with their limits, safe archive
// extraction, the install engine (a file told apart by its bytes, staged,
// read by the reader of its format, committed, moved into place), images,
// videos and Universal VTT maps as maps, package manifests, module updates,
// demo seeding and the installed web client.
//
// Its parts, which import nothing above them: content (our own archive
// format read into rows, the install step, results, limits and the Site an
// install happens in), legacy (the legacy compendium, module, campaign and
// pack formats mapped into those rows), export (a module or campaign
// written back out in our format), download (fetching with its URL
// policy), legacyxml (the bounded legacy XML readers), media (pictures,
// videos and sound recognised) and uvtt (Universal VTT maps both ways).
//
// Every install stages its files in a temporary folder under the data
// folder, writes its rows in one store transaction, and only then moves the
// files into place; a failure at any step leaves neither rows nor files.
//
// Besides its parts, of this project's packages it depends on core only;
// what it needs of the loaded game system is the small Collections
// interface (content.Collections).
package imports
