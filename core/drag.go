package core

import (
	"time"
)

// DragIdleTimeout is how long a drag may stay silent before another client
// may take the token over: a browser that vanished mid-drag must not hold
// a token forever.
const DragIdleTimeout = 10 * time.Second
