// Package download fetches what an import names, safely: the URL policy
// (https anywhere, plain http only to a host local by its text alone,
// never a DNS lookup to decide), every redirect checked again and never
// from https to plain http, a body capped and a deadline on the whole
// exchange, and never a connection to this server's own listeners
// (ownaddrs.go), whatever name or redirect leads there. The importer
// (package imports) downloads packages and manifests through it.
package download
