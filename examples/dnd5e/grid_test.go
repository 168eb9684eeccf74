package dnd5e

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/vttapp/companion/core/mapobjects"
)

// squaresOf runs the system's template rule and returns the covered
// squares by row: row -> sorted columns.
func squaresOf(t *testing.T, tpl mapobjects.Template) map[int][]int {
	t.Helper()
	cells, handled, err := loadSystem(t).TemplateSquares(context.Background(), tpl)
	if err != nil || !handled {
		t.Fatalf("squares of %+v: handled %v, %v", tpl, handled, err)
	}
	rows := map[int][]int{}
	for i := 0; i < len(cells); i += 2 {
		rows[cells[i+1]] = append(rows[cells[i+1]], cells[i])
	}
	for _, cols := range rows {
		sort.Ints(cols)
	}
	return rows
}

// A 20-foot-radius sphere (fireball) centred on a grid intersection covers
// the squares it covers at least half of: 52 of them, rows of 4, 6, 8, 8,
// 8, 8, 6 and 4 squares around the point, symmetric on every side. Its
// corner squares (3.5, 2.5 squares from the centre to theirs) are less
// than half covered and left out; the next ones in are more than half.
func TestFireballCoversTheRulesSquares(t *testing.T) {
	rows := squaresOf(t, mapobjects.Template{Shape: "sphere", X: 10, Y: 10, Radius: 4})
	want := map[int][2]int{6: {8, 11}, 7: {7, 12}, 8: {6, 13}, 9: {6, 13}, 10: {6, 13}, 11: {6, 13}, 12: {7, 12}, 13: {8, 11}}
	total := 0
	for row, span := range want {
		var cols []int
		for c := span[0]; c <= span[1]; c++ {
			cols = append(cols, c)
		}
		if fmt.Sprint(rows[row]) != fmt.Sprint(cols) {
			t.Errorf("row %d: %v, want %v", row, rows[row], cols)
		}
		total += len(cols)
	}
	if len(rows) != len(want) || total != 52 {
		t.Errorf("rows %v; want the 52 squares of %v", rows, want)
	}
}

// A 15-foot cone aimed east from the middle of a square's east edge (the
// caster's square) is one square wide at first and three at its end: the
// squares it covers at least half of are the one next to the caster, the
// one beyond, and three across at the end.
func TestConeFromTheCastersEdge(t *testing.T) {
	rows := squaresOf(t, mapobjects.Template{Shape: "cone", X: 10, Y: 10.5, Length: 3})
	if got := fmt.Sprint(rows); got != "map[9:[12] 10:[10 11 12] 11:[12]]" {
		t.Errorf("cone: %s", got)
	}
}

// A 30-foot line 5 feet wide from a square's edge covers the six squares
// in its row.
func TestLineOfSixSquares(t *testing.T) {
	rows := squaresOf(t, mapobjects.Template{Shape: "line", X: 4, Y: 2.5, Length: 6, Width: 1})
	if got := fmt.Sprint(rows); got != "map[2:[4 5 6 7 8 9]]" {
		t.Errorf("line: %s", got)
	}
}

// Every square of a move counts 5 feet, a diagonal one too: three squares
// diagonally are 15 feet, four east and one south 20, and a path's legs
// add up.
func TestDiagonalsCountOneSquare(t *testing.T) {
	s := loadSystem(t)
	for _, c := range []struct {
		path []float64
		want float64
	}{
		{[]float64{0.5, 0.5, 3.5, 3.5}, 15},
		{[]float64{0.5, 0.5, 4.5, 1.5}, 20},
		{[]float64{0.5, 0.5, 2.5, 2.5, 2.5, 5.5}, 25},
		{[]float64{0, 0, 0.2, 0.1}, 0},
	} {
		d, handled, err := s.PathDistance(context.Background(), c.path, 5)
		if err != nil || !handled || d != c.want {
			t.Errorf("path %v: %v ft (%v, %v), want %v", c.path, d, handled, err, c.want)
		}
	}
}
