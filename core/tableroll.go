package core

// Rolling on a table (tables.go). A roll picks a row and reads its cells
// (the range column left out); inline dice in a cell ([[2d4]]) are rolled,
// and every link in it to another table is rolled too (as many times as
// a count or dice written just before it say: "2d4 [gems](/table/gems)"),
// recursively, to a
// depth of MaxNestedTableRolls and at most MaxTableRollsPerRoll rolls in
// all: a loop of tables linking one another ends there, with a note.
//
//   - normal: one roll of the table's die picks the row;
//   - noRepeat: as normal, but a row already picked in this campaign is
//     not picked again: the roll takes one of the rows left instead, at
//     random, until none is left, and then starts over;
//   - eachRow: every row is read, no die rolled (a table of parts, each
//     with its own dice).

// Bounds of a roll (docs/limits.md).
const (
	// MaxNestedTableRolls is how deep links from cell to table are
	// followed.
	MaxNestedTableRolls = 8
	// MaxTableRollsPerRoll bounds the tables one roll rolls, nested ones
	// included.
	MaxTableRollsPerRoll = 100
)

// TableRoll is the outcome of a roll on a table (the original's
// TableRoll): the table's name, the formula rolled and its result, the
// matched row's cells and a link back to the table.
type TableRoll struct {
	ID        string            `json:"id"`
	Name      string            `json:"name"`
	Formula   string            `json:"formula"`
	Result    int               `json:"result"`
	Details   []TableRollDetail `json:"details"`
	Reference string            `json:"reference,omitempty"`
}

// TableRollDetail is one cell of the matched row: its column's name, its
// text (inline dice rolled) and the rolls of the tables it links.
type TableRollDetail struct {
	Name  string      `json:"name,omitempty"`
	Value string      `json:"value"`
	Rolls []TableRoll `json:"rolls,omitempty"`
}
