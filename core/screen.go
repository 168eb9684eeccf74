package core

// ScreenOverlay changes the overlay on the player screen: an image (a URL
// path players can load) or a text handout with its style. Nil fields stay
// as they are; "" clears one.
type ScreenOverlay struct {
	Image *string `json:"overlayImage"`
	Text  *string `json:"overlayHandoutText"`
	Style *string `json:"overlayHandoutStyle"`
	// Title names a picture in the journal when its file's name does not
	// (an upload is kept under a new id): the uploaded file's name. Set by
	// the server, never read from a request.
	Title string `json:"-"`
}

// Overlay types of Screen.OverlayType.
const (
	OverlayImage   = "image"
	OverlayHandout = "handout"
)

// Focus is the mapFocus payload: players' displays draw attention to a
// point, pan and zoom to it, or go back to their previous view (reset).
type Focus struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Color  string  `json:"color"`
	Effect bool    `json:"effect"`
	Pan    bool    `json:"pan"`
	Zoom   bool    `json:"zoom"`
	Reset  bool    `json:"reset"`
}

// ScreenMap is the mapFitScreen payload: the map to fit.
type ScreenMap struct {
	ID string `json:"id"`
}
