package routes

import (
	"net/http"
	"sync"

	"github.com/vttapp/companion/routes/httpkit"
	"github.com/vttapp/companion/systems"
	"github.com/vttapp/companion/wire"
)

// getOpenAPI answers GET /api/openapi.json: the wire package's
// description of the public API with the loaded system's collections.
func (s *server) getOpenAPI(w http.ResponseWriter, r *http.Request) {
	sys, err := s.system()
	if err != nil {
		httpkit.WriteError(w, r, s.cfg.Log, err)
		return
	}
	s.openapi.get(sys, func() *cachedBody {
		body, err := wire.PublicDocument(wireSystem(sys))
		if err != nil {
			panic(err) // a map of plain values always marshals
		}
		return newCachedBody(body, "", "application/json; charset=utf-8")
	}).serve(w, r)
}

// OpenAPIDocument is the description GET /api/openapi.json serves for sys.
func OpenAPIDocument(sys *systems.System) ([]byte, error) {
	return wire.PublicDocument(wireSystem(sys))
}

// wireSystem is what the description needs of sys.
func wireSystem(sys *systems.System) wire.System {
	out := wire.System{Name: sys.Name(), Version: sys.Version()}
	for _, k := range sys.Kinds() {
		out.Kinds = append(out.Kinds, wire.Kind{Name: k.Name, Collection: k.Collection, Title: k.Title,
			CollectionTitle: k.CollectionTitle, Filters: k.Filters})
	}
	return out
}

// hostOpenAPI is the host API's description, built once: it depends on
// no system.
var hostOpenAPI = sync.OnceValue(func() *cachedBody {
	body, err := wire.HostDocument()
	if err != nil {
		panic(err) // a map of plain values always marshals
	}
	return newCachedBody(body, "", "application/json; charset=utf-8")
})

// getHostOpenAPI answers GET /host/api/openapi.json.
func (s *server) getHostOpenAPI(w http.ResponseWriter, r *http.Request) {
	hostOpenAPI().serve(w, r)
}
