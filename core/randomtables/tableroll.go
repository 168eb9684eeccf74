package randomtables

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/vttapp/companion/core"
)

// TableRoller rolls tables: Dice rolls a formula, Inline rolls a cell's
// inline dice, Find names a linked table (nil, nil: none), History reads
// the rows a noRepeat table already gave in this campaign.
type TableRoller struct {
	Dice    func(formula string) (int, error)
	Inline  func(text string) string
	Find    func(slug string) (*core.Table, error)
	History func(tableID string) ([]int, error)
	// Taken are the histories this roll read and changed, by table id.
	Taken map[string][]int
	rolls int
}

// Roll rolls t at depth (0 for the table asked for).
func (r *TableRoller) Roll(t *core.Table, depth int) (core.TableRoll, error) {
	r.rolls++
	out := core.TableRoll{ID: core.NewID(), Name: t.Name, Reference: "/table/" + t.Slug}
	die := t.Die()
	if t.RollMode == core.RollEachRow {
		out.Formula = "Multiple rolls"
		for _, row := range t.Rows {
			details, err := r.cells(t, row, die, depth)
			if err != nil {
				return out, err
			}
			out.Details = append(out.Details, details...)
		}
		return out, nil
	}
	out.Formula = die.Formula
	total, err := r.Dice(die.Formula)
	if err != nil {
		return out, err
	}
	out.Result = total
	row, err := r.pick(t, die, total)
	if err != nil {
		return out, err
	}
	if row < 0 {
		out.Details = []core.TableRollDetail{{Value: fmt.Sprintf("no row of the table answers %d", total)}}
		return out, nil
	}
	if t.RollMode == core.RollNoRepeat && r.Taken[t.ID] != nil {
		// The row given may not be the one rolled: its own value says which.
		if die.Ranged {
			if rr, ok := core.ParseRange(t.Rows[row][0], die); ok && (total < rr.Low || total > rr.High) {
				out.Result = rr.Low
			}
		} else {
			out.Result = row + 1
		}
	}
	out.Details, err = r.cells(t, t.Rows[row], die, depth)
	return out, err
}

// pick finds the row a result gives (-1 when no row answers it); a
// noRepeat table never gives a row twice until every row was given.
func (r *TableRoller) pick(t *core.Table, die core.TableDie, total int) (int, error) {
	row := -1
	if die.Ranged {
		ranges, err := t.Ranges(die)
		if err != nil {
			return -1, err
		}
		row = slices.IndexFunc(ranges, func(rr core.RowRange) bool { return total >= rr.Low && total <= rr.High })
	} else if total >= 1 && total <= len(t.Rows) {
		row = total - 1
	}
	if t.RollMode != core.RollNoRepeat {
		return row, nil
	}
	taken, ok := r.Taken[t.ID]
	if !ok {
		var err error
		if taken, err = r.History(t.ID); err != nil {
			return -1, err
		}
	}
	if len(taken) >= len(t.Rows) {
		taken = nil // every row was given: start over
	}
	if row < 0 || slices.Contains(taken, row) {
		var left []int
		for i := range t.Rows {
			if !slices.Contains(taken, i) {
				left = append(left, i)
			}
		}
		n, err := r.Dice(fmt.Sprintf("1d%d", len(left)))
		if err != nil {
			return -1, err
		}
		row = left[min(max(n, 1), len(left))-1]
	}
	r.Taken[t.ID] = append(slices.Clone(taken), row)
	return row, nil
}

// cells reads a row's cells, the range column left out, rolling their
// inline dice and the tables they link.
func (r *TableRoller) cells(t *core.Table, row []string, die core.TableDie, depth int) ([]core.TableRollDetail, error) {
	var out []core.TableRollDetail
	for i, cell := range row {
		if i == 0 && die.Ranged {
			continue
		}
		d := core.TableRollDetail{Name: t.Columns[i].Name, Value: cell}
		if strings.Contains(cell, "[[") && r.Inline != nil {
			d.Value = r.Inline(cell)
		}
	links:
		for _, m := range core.TableLink.FindAllStringSubmatchIndex(cell, -1) {
			linked, err := r.Find(cell[m[2]:m[3]])
			if err != nil {
				return nil, err
			}
			if linked == nil {
				continue // a link to no table stays a link
			}
			times, err := r.times(cell[:linkStart(cell, m[0])])
			if err != nil {
				return nil, err
			}
			for range times {
				if depth+1 >= core.MaxNestedTableRolls || r.rolls >= core.MaxTableRollsPerRoll {
					d.Value += fmt.Sprintf(" (not rolled: tables nest %d deep at most, %d rolls in all)", core.MaxNestedTableRolls, core.MaxTableRollsPerRoll)
					break links
				}
				nested, err := r.Roll(linked, depth+1)
				if err != nil {
					return nil, err
				}
				d.Rolls = append(d.Rolls, nested)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// maxLinkRepeats bounds how many times a dice expression before a link
// rolls it ("2d4 [gems](/table/gems)").
const maxLinkRepeats = 20

// timesBefore reads the count or dice expression just before a link:
// "3 ", "2d4 ", "1d4+1 x ".
var timesBefore = regexp.MustCompile(`(?i)(?:^|[\s(])(\d{0,2}d\d{1,3}(?:\s*[+-]\s*\d{1,3})?|\d{1,2})\s*[x×*]?\s*$`)

// times is how many times a link is rolled: the count or the dice written
// just before it (rolled), else once; at most maxLinkRepeats.
func (r *TableRoller) times(before string) (int, error) {
	m := timesBefore.FindStringSubmatch(before)
	if m == nil {
		return 1, nil
	}
	expr := strings.ReplaceAll(m[1], " ", "")
	if n, err := strconv.Atoi(expr); err == nil {
		return min(max(n, 1), maxLinkRepeats), nil
	}
	if strings.HasPrefix(strings.ToLower(expr), "d") {
		expr = "1" + expr
	}
	n, err := r.Dice(expr)
	if err != nil {
		return 0, err
	}
	return min(max(n, 1), maxLinkRepeats), nil
}

// linkStart is where the link whose target starts at i begins: the "[" of
// a Markdown link [text](/table/x), else i.
func linkStart(cell string, i int) int {
	if i >= 2 && cell[i-1] == '(' && cell[i-2] == ']' {
		if open := strings.LastIndexByte(cell[:i-2], '['); open >= 0 {
			return open
		}
	}
	return i
}
