// Package mapobjects holds what is true of the lists a map holds beside
// its tokens (walls, lights, markers, drawings, area effects, measurements,
// tiles, sounds): the table of kinds (MapKinds, a row per kind, which
// drives validation, storage, players' views and broadcasts), the shapes
// of templates, who owns a mark, the grid and its cells, and a map's
// settings change (MapChange). A new kind is one row here.
package mapobjects
