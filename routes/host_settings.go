package routes

import "github.com/go-chi/chi/v5"

// mountHostSettings adds GET and PATCH /host/api/settings to the host
// router. TEMPORARY STUB: the WebSocket work replaces this file.
func mountHostSettings(r chi.Router, cfg Config) {}
