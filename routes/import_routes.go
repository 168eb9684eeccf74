package routes

import "github.com/go-chi/chi/v5"

// mountImport adds POST /api/import to the public router. TEMPORARY STUB:
// the import work replaces this file.
func mountImport(r chi.Router, cfg Config) {}

// mountHostImport adds the host console's import, offer, module and map
// routes under /host/api. TEMPORARY STUB: the import work replaces this file.
func mountHostImport(r chi.Router, cfg Config) {}
