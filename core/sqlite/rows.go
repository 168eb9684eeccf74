package sqlite

// rowScanner turns one row into a value; scan is the row's Scan. A stored
// document it cannot decode is an error like any other.
type rowScanner[T any] func(scan func(dest ...any) error) (T, error)

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
		v, err := scanRow(rows.Scan)
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
