package httpkit

import (
	"context"
	"net/http"

	"github.com/vttapp/companion/core"
)

type actorKey struct{}

// ActorOf is who made a request (the join key's role, the seat token's
// hash, the device: core.DeviceOf); a request the guard did not see is a
// player without a seat, its device its address.
func ActorOf(r *http.Request) core.Actor {
	if who, ok := r.Context().Value(actorKey{}).(core.Actor); ok {
		return who
	}
	return core.Actor{Role: core.ClientPlayer, Device: core.DeviceOf("", "", core.RemoteHost(r.RemoteAddr), "")}
}

// WithActor returns r carrying who made it, as the public listener's join
// key guard decided (routes/joinkey.go); ActorOf reads it back.
func WithActor(r *http.Request, who core.Actor) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), actorKey{}, who))
}
