// Package uvtt reads and writes Universal VTT battle maps (.uvtt, .dd2vtt,
// .df2vtt): one JSON object with the map image in base64 and its walls,
// portals and lights in grid units. Parse turns one into a map of ours
// (the importer installs it), Write a map of ours into one (the host
// API's export).
//
// Of this project's packages it depends on core and imports/media only.
package uvtt
