package core

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Random tables: content a game master rolls on ("wilderness encounters",
// "treasure hoard"), owned by a module or a campaign like pages and
// encounters. The shape is the original application's Table: columns,
// rows of cells, a roll mode. When the first column is named like a die
// ("d100", "2d6", "d%") its cells are ranges ("01-50", "51–00", "7") and
// a roll of that die picks the row whose range holds it; otherwise the
// table rolls a die as large as it has rows and picks by position. Rolling
// is tableroll.go; storage and the API service_tables.go.

// Table roll modes.
const (
	RollNormal   = "normal"
	RollNoRepeat = "noRepeat"
	RollEachRow  = "eachRow"
)

// Bounds of a table (docs/limits.md).
const (
	// MaxTableRows bounds the rows of one table: a d1000 table has 1,000.
	MaxTableRows = 5000
	// MaxTableColumns bounds its columns.
	MaxTableColumns = 20
	// MaxTableCell bounds one cell, in bytes.
	MaxTableCell = 4000
	// MaxTableBytes bounds a table as sent (JSON or CSV), and as stored.
	MaxTableBytes = 2 << 20
)

// Table is a random table.
type Table struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Slug     string        `json:"slug"`
	Descr    string        `json:"descr,omitempty"`
	Columns  []TableColumn `json:"columns"`
	Rows     TableRows     `json:"rows"`
	RollMode string        `json:"rollMode,omitempty"`
	ParentID string        `json:"parentId,omitempty"`
	Tags     []string      `json:"tags,omitempty"`
	Rank     int           `json:"rank"`

	Owner    string `json:"-"`
	Revision int64  `json:"-"`
}

// TableColumn is a column's header, and how it is laid out.
type TableColumn struct {
	Name      string  `json:"name"`
	Alignment string  `json:"alignment,omitempty"`
	Size      float64 `json:"size,omitempty"`
}

// TableRows are a table's rows, one string per cell. The original stores
// them as a JSON string holding that array; both forms are read, the
// array is written.
type TableRows [][]string

// UnmarshalJSON reads the rows as an array of arrays of strings, or as a
// string holding one.
func (r *TableRows) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		b = []byte(s)
		if strings.TrimSpace(s) == "" {
			*r = nil
			return nil
		}
	}
	var rows [][]any
	if err := json.Unmarshal(b, &rows); err != nil {
		return errors.New("'rows' must be an array of rows, each an array of cells")
	}
	out := make(TableRows, len(rows))
	for i, row := range rows {
		out[i] = make([]string, len(row))
		for j, cell := range row {
			switch v := cell.(type) {
			case string:
				out[i][j] = v
			case float64:
				out[i][j] = strconv.FormatFloat(v, 'f', -1, 64)
			case nil:
			default:
				return fmt.Errorf("row %d, cell %d: a cell is text", i+1, j+1)
			}
		}
	}
	*r = out
	return nil
}

// dieColumn reads a first column's name as a die: "d100", "1d20", "2d6",
// "d%" (d100).
var dieColumn = regexp.MustCompile(`(?i)^\s*(\d{0,2})\s*d\s*(\d{1,4}|%)\s*$`)

// TableDie is the die a table rolls, and the range of its results.
type TableDie struct {
	Formula  string
	low, top int
	// Ranged: the first column holds ranges (it is named like a die).
	Ranged bool
}

// Die returns the die the table rolls: its first column's when named
// like one, else one as large as the table has rows.
func (t *Table) Die() TableDie {
	if len(t.Columns) > 0 {
		if m := dieColumn.FindStringSubmatch(t.Columns[0].Name); m != nil {
			count := 1
			if m[1] != "" {
				count, _ = strconv.Atoi(m[1])
			}
			sides := 100
			if m[2] != "%" {
				sides, _ = strconv.Atoi(m[2])
			}
			if count >= 1 && sides >= 1 {
				return TableDie{Formula: fmt.Sprintf("%dd%d", count, sides), low: count, top: count * sides, Ranged: true}
			}
		}
	}
	return TableDie{Formula: fmt.Sprintf("1d%d", max(1, len(t.Rows))), low: 1, top: max(1, len(t.Rows))}
}

// RowRange is the results a row answers.
type RowRange struct{ Low, High int }

// rangeText reads "01-50", "51–75", "00" (100 on a d100), "7", "91+".
var rangeText = regexp.MustCompile(`^\s*(\d+)\s*(?:(?:-|–|—|to)\s*(\d+)\s*|(\+)\s*)?$`)

// ParseRange reads a range cell of a table rolling die.
func ParseRange(cell string, die TableDie) (RowRange, bool) {
	m := rangeText.FindStringSubmatch(cell)
	if m == nil {
		return RowRange{}, false
	}
	read := func(s string) int {
		n, _ := strconv.Atoi(s)
		if n == 0 && strings.Trim(s, "0") == "" && die.top >= 100 && die.top%100 == 0 {
			return die.top // "00" is the top of a percentile die
		}
		return n
	}
	low := read(m[1])
	high := low
	switch {
	case m[2] != "":
		high = read(m[2])
	case m[3] != "":
		high = die.top
	}
	if low > high || low < die.low || high > die.top {
		return RowRange{}, false
	}
	return RowRange{low, high}, true
}

// Ranges reads the ranges of every row of a ranged table, refusing a cell
// that is not a range of its die and two rows that overlap.
func (t *Table) Ranges(die TableDie) ([]RowRange, error) {
	out := make([]RowRange, len(t.Rows))
	for i, row := range t.Rows {
		r, ok := ParseRange(row[0], die)
		if !ok {
			return nil, Invalidf("table '%s': row %d's '%s' is not a range of %s (%d to %d): write it as 01-50, 7 or 00", Clip(t.Name), i+1, Clip(row[0]), t.Columns[0].Name, die.low, die.top)
		}
		for j := range i {
			if r.Low <= out[j].High && out[j].Low <= r.High {
				return nil, Invalidf("table '%s': row %d's range %s overlaps row %d's %s", Clip(t.Name), i+1, Clip(row[0]), j+1, Clip(t.Rows[j][0]))
			}
		}
		out[i] = r
	}
	return out, nil
}

// TableLink finds the links to tables in a cell: /table/<slug> and
// /module/<m>/table/<slug> (or /campaign/<c>/table/<slug>).
var TableLink = regexp.MustCompile(`/(?:(?:module|campaign)/[^/\s)\]"]+/)?table/([^/\s)\]"#?]+)`)

// Normalize checks a table and fills what it may leave out (its id, its
// slug, the roll mode). Nothing is stored half: a table that fails is
// refused whole.
func (t *Table) Normalize() error {
	t.Name = strings.TrimSpace(t.Name)
	if t.Name == "" {
		return Invalidf("table: 'name' is required")
	}
	if len(t.Name) > MaxMessageField {
		return TooLarge("table: 'name'", len(t.Name), MaxMessageField)
	}
	if t.ID == "" {
		t.ID = NewID()
	}
	if t.Slug = Slugify(t.Slug); t.Slug == "" {
		t.Slug = Slugify(t.Name)
	}
	if t.Slug == "" {
		return Invalidf("table '%s': its name has no letter or digit to make a slug of", Clip(t.Name))
	}
	switch t.RollMode {
	case "":
		t.RollMode = RollNormal
	case RollNormal, RollNoRepeat, RollEachRow:
	default:
		return Invalidf("table '%s': 'rollMode' is normal, noRepeat or eachRow, not '%s'", Clip(t.Name), Clip(t.RollMode))
	}
	if len(t.Columns) == 0 {
		return Invalidf("table '%s': it needs at least one column", Clip(t.Name))
	}
	if len(t.Columns) > MaxTableColumns {
		return TooLargef("table '%s': %d columns, more than the limit of %d", Clip(t.Name), len(t.Columns), MaxTableColumns)
	}
	if len(t.Rows) == 0 {
		return Invalidf("table '%s': it has no row to roll", Clip(t.Name))
	}
	if len(t.Rows) > MaxTableRows {
		return TooLargef("table '%s': %d rows, more than the limit of %d", Clip(t.Name), len(t.Rows), MaxTableRows)
	}
	for i, row := range t.Rows {
		if len(row) != len(t.Columns) {
			return Invalidf("table '%s': row %d has %d cells, the table has %d columns", Clip(t.Name), i+1, len(row), len(t.Columns))
		}
		for _, cell := range row {
			if len(cell) > MaxTableCell {
				return TooLarge(fmt.Sprintf("table '%s': a cell of row %d", Clip(t.Name), i+1), len(cell), MaxTableCell)
			}
			for _, m := range TableLink.FindAllStringSubmatch(cell, -1) {
				if Slugify(m[1]) == t.Slug || m[1] == t.ID {
					return Invalidf("table '%s': row %d links the table itself: rolling it would never end", Clip(t.Name), i+1)
				}
			}
		}
	}
	if die := t.Die(); die.Ranged && t.RollMode != RollEachRow {
		if _, err := t.Ranges(die); err != nil {
			return err
		}
	}
	return CheckEncodedSize("table", t, MaxTableBytes)
}

// TableFromCSV reads a table from CSV text: the first row is the header
// (the columns), every other row a row of the table. A row with more or
// fewer cells than the header is refused, as is a file past the limits.
func TableFromCSV(name string, data []byte) (*Table, error) {
	if len(data) > MaxTableBytes {
		return nil, TooLarge("table '"+Clip(name)+"': the CSV", len(data), MaxTableBytes)
	}
	if strings.TrimSpace(name) == "" {
		return nil, Invalidf("table: a CSV table needs its name (?name=)")
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = 0 // every row as long as the header
	cr.LazyQuotes = true
	t := &Table{Name: name}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount) {
			return nil, Invalidf("table '%s': CSV line %d has %d cells, the header has %d", Clip(name), pe.Line, len(rec), len(t.Columns))
		}
		if err != nil {
			return nil, Invalidf("table '%s': the CSV cannot be read: %s", Clip(name), err.Error())
		}
		if t.Columns == nil {
			for _, h := range rec {
				t.Columns = append(t.Columns, TableColumn{Name: strings.TrimSpace(h)})
			}
			continue
		}
		if len(t.Rows) >= MaxTableRows {
			return nil, TooLargef("table '%s': more than %d rows", Clip(name), MaxTableRows)
		}
		t.Rows = append(t.Rows, slices.Clone(rec))
	}
	if t.Columns == nil {
		return nil, Invalidf("table '%s': the CSV is empty: its first line names the columns", Clip(name))
	}
	return t, t.Normalize()
}
