// Package randomtables rolls the library's random tables: a row picked by
// the table's dice (or each row, or without repeats across a campaign),
// inline dice in a cell rolled, and linked tables followed to a bounded
// depth. What it reads (the dice, a linked table, a noRepeat table's
// history) the engine hands it as functions, so it needs no store.
package randomtables
