package library

import "github.com/vttapp/companion/core/engine/internal/kernel"

// LibraryRoom is the engine's room for the game master's content: the library
// (campaigns, modules, pages, encounters, random tables), entities and
// creatures, the journal.
type LibraryRoom struct{ *kernel.Kernel }

// libraryPinned is the room's rules for one request (kernel.Pinned), so its
// own helpers that consult the rules can have it as receiver.
type libraryPinned struct{ kernel.Pinned }

// pin takes the rules snapshot for one request.
func (r *LibraryRoom) pin() libraryPinned { return libraryPinned{r.Kernel.Pin()} }
