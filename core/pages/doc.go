// Package pages renders the library's pages for a reader: a page's links
// to the app's things (AppLink), resolved against what the reader may
// open (Reader: the game master reads every page, a player only what was
// shown), the pages' addresses (URLs), and a page or one of its sections
// made a text handout.
package pages

import "github.com/vttapp/companion/core"

// Store is what pages read of a transaction: the owners, their maps and
// the library. The engine hands its core.Tx.
type Store interface {
	core.OwnersTx
	core.MapsTx
	core.LibraryTx
}
