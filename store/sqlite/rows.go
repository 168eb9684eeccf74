package sqlite

import "database/sql"

// rowScanner turns the current row into a value. A stored document it
// cannot decode is an error like any other. It calls rows.Scan itself,
// not through a function value, so what it scans into stays on its stack.
type rowScanner[T any] func(rows *sql.Rows) (T, error)

// queryAll runs a query inside the transaction and turns each row into a
// T with scanRow, in the query's order. Every failure says what the store
// was doing; a list with no rows is empty, not nil.
func queryAll[T any](t *tx, doing string, scanRow rowScanner[T], query string, args ...any) ([]T, error) {
	rows, err := t.query(query, args...)
	if err != nil {
		return nil, internal(doing, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scanRow(rows)
		if err != nil {
			return nil, internal(doing, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, internal(doing, err)
	}
	return out, nil
}
