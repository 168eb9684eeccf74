package core

import "strings"

// NewMap is an empty map the game master creates in the primary campaign.
type NewMap struct {
	Name     string `json:"name"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	GridType string `json:"gridType"`
	GridSize int    `json:"gridSize"`
	// Image is the background's URL path, set by the caller that stored
	// the uploaded file (routes).
	Image string `json:"-"`
}

// MaxMapSide bounds a new map's width and height in pixels.
const MaxMapSide = 100000

// Grid types a map may have.
var gridTypes = map[string]bool{"square": true, "hexRow": true, "hexColumn": true, "none": true}

// Check reports what is wrong with a new map, in words.
func (n NewMap) Check() error {
	if strings.TrimSpace(n.Name) == "" {
		return Invalidf("a map needs a 'name'")
	}
	if n.Width <= 0 || n.Height <= 0 || n.Width > MaxMapSide || n.Height > MaxMapSide {
		return Invalidf("a map's 'width' and 'height' are pixels between 1 and %d", MaxMapSide)
	}
	if n.GridSize < 0 || n.GridSize > 1000 {
		return Invalidf("'gridSize' is the pixels of one grid cell, at most 1000")
	}
	if n.GridType != "" && !gridTypes[n.GridType] {
		return Invalidf("'gridType' must be square, hexRow, hexColumn or none, not '%s'", Clip(n.GridType))
	}
	return nil
}
