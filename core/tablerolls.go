package core

// The game master's random tables (tables.go, tableroll.go): those of the
// primary campaign and of every module, found by id, slug or name.

// TableRolled is a roll on a table: the message posted (to the game
// master alone when private) and the roll.
type TableRolled struct {
	Message *Message  `json:"message"`
	Roll    TableRoll `json:"roll"`
}
