package play

import (
	"github.com/vttapp/companion/core/engine/internal/kernel"
	"github.com/vttapp/companion/core/mapobjects"
)

// isHexGrid reports whether a map's grid is made of hexes.
func isHexGrid(gridType string) bool { return gridType == "hexFlat" || gridType == "hexPointy" }

// HexSteps is how many hexes apart two hexes are.
func HexSteps(q0, r0, q1, r1 int) int {
	dq, dr := q1-q0, r1-r0
	return (kernel.Abs(dq) + kernel.Abs(dr) + kernel.Abs(dq+dr)) / 2
}

// HexPathCells is how many hex steps a path of points (in cells) takes.
func HexPathCells(gridType string, cells []float64) float64 {
	var n int
	for i := 2; i+1 < len(cells); i += 2 {
		q0, r0 := mapobjects.HexAt(gridType, cells[i-2], cells[i-1])
		q1, r1 := mapobjects.HexAt(gridType, cells[i], cells[i+1])
		n += HexSteps(q0, r0, q1, r1)
	}
	return float64(n)
}
