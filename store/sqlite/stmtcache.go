package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCache keeps one prepared statement per query text for a connection
// pool. Preparing (parsing and planning the SQL) costs about as much as
// running a small query; database/sql keeps each cached statement prepared
// on every connection that used it, so a query is parsed once per
// connection instead of once per call. The query texts are a small fixed
// set (the Entities filters give a handful), so the cache stays small.
//
// A statement is never prepared while a transaction runs: preparing on the
// pool needs a free connection, and the transaction holds the writer's only
// one (and Views may hold every reader). A transaction runs a query it
// finds missing unprepared and notes it; the store prepares the noted
// queries once the transaction has given its connection back.
type stmtCache struct {
	db *sql.DB
	mu sync.RWMutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}}
}

func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[query]
}

// prepare adds the queries that are not cached yet. A query that fails to
// prepare is left out: the transaction that ran it got the error already.
func (c *stmtCache) prepare(queries []string) {
	for _, q := range queries {
		if c.lookup(q) != nil {
			continue
		}
		st, err := c.db.PrepareContext(context.Background(), q)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if _, ok := c.m[q]; ok || c.m == nil {
			st.Close() // prepared concurrently, or the store closed
		} else {
			c.m[q] = st
		}
		c.mu.Unlock()
	}
}

// close closes every cached statement, before the pool itself closes.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, st := range c.m {
		errs = append(errs, st.Close())
	}
	c.m = nil
	return errors.Join(errs...)
}

// stmt returns the transaction's handle on the cached statement of query,
// or nil (and notes the query) when it is not cached yet.
func (t *tx) stmt(query string) *sql.Stmt {
	if st := t.stmts.lookup(query); st != nil {
		return t.q.StmtContext(t.ctx, st)
	}
	t.missed = append(t.missed, query)
	return nil
}

// query runs a query inside the transaction.
func (t *tx) query(query string, args ...any) (*sql.Rows, error) {
	if st := t.stmt(query); st != nil {
		return st.QueryContext(t.ctx, args...)
	}
	return t.q.QueryContext(t.ctx, query, args...)
}

// row runs a single-row query inside the transaction.
func (t *tx) row(query string, args ...any) *sql.Row {
	if st := t.stmt(query); st != nil {
		return st.QueryRowContext(t.ctx, args...)
	}
	return t.q.QueryRowContext(t.ctx, query, args...)
}

// execStmt runs a statement that returns no rows inside the transaction.
func (t *tx) execStmt(query string, args ...any) (sql.Result, error) {
	if st := t.stmt(query); st != nil {
		return st.ExecContext(t.ctx, args...)
	}
	return t.q.ExecContext(t.ctx, query, args...)
}
