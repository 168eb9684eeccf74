// Package testkit holds the helpers that the tests of routes, hub
// and tests/ share: a concurrency-safe log buffer, a WebSocket test client,
// a plain HTTP request helper, and the D&D 5e fixture campaign. Only test
// files import it; tests/docs/layering_test.go checks that no production package
// does, so `testing` never reaches the binary.
package testkit
