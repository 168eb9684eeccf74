package pages

import (
	"net/url"
	"strings"

	"github.com/vttapp/companion/core"
)

// The link forms of pages (shapes 17.1): app URLs that name content
// softly, by kind and slug, and the scoped forms that name the container.
//
//	/<kind>/<slug>                   an entity (/monster/goblin), /entity/<id>
//	/page/<slug>                     a page: its own container's first, then any
//	/module/<slug>/page/<slug>       a page of one module (slug or id each)
//	/campaign/<slug>/page/<slug>     a page of one campaign
//	/map/<slug>, /encounter/<slug>, /group/<slug>, /asset/<slug>,
//	/module/<slug>/map/<slug>, /campaign/<slug>/map/<slug> ...
//	/table/<x>, /roll/<formula>/...  roll tables (the host listener's table pages) and rolls
//
// A Markdown link may name an entity by its kind alone, the link's text
// naming it: [Goblin](monster) is /monster/goblin.

// Link kinds of AppLink.
const (
	LinkEntity    = "entity"
	LinkPage      = "page"
	LinkMap       = "map"
	LinkEncounter = "encounter"
	LinkGroup     = "group"
	LinkAsset     = "asset"
	LinkOther     = "other"    // an app URL this server does not serve (/table/x, /roll/...)
	LinkExternal  = "external" // http(s), mailto: or a fragment: kept as written
	LinkFile      = "file"     // a path on this server that is not an app URL (/modules/<id>/x.pdf)
)

// library kinds are the app URL kinds that name library content rather
// than an entity.
var libraryKinds = map[string]string{
	"page": LinkPage, "map": LinkMap, "encounter": LinkEncounter, "group": LinkGroup, "asset": LinkAsset,
	"table": LinkOther, "roll": LinkOther,
}

// servedFolders are the first path segments that are files and pages of
// this server, never app URLs.
var servedFolders = map[string]bool{"modules": true, "campaigns": true, "systems": true, "others": true, "client": true, "api": true, "host": true}

// AppLink is a link of a page, read.
type AppLink struct {
	Kind string
	// ScopeKind ("module" or "campaign") and Scope (its slug or id) when
	// the link names its container.
	ScopeKind, Scope string
	// EntityKind is the kind of an entity link; Slug the slug or id of the
	// target.
	EntityKind, Slug string
	// Fragment is the part after '#', without it.
	Fragment string
}

// ParseAppLink reads a link's target; text is the link's text (for the
// Markdown form [Goblin](monster)).
func ParseAppLink(href, text string) AppLink {
	lower := strings.ToLower(href)
	switch {
	case strings.HasPrefix(href, "#"), strings.HasPrefix(lower, "http://"), strings.HasPrefix(lower, "https://"), strings.HasPrefix(lower, "mailto:"):
		return AppLink{Kind: LinkExternal}
	}
	path, fragment, _ := strings.Cut(href, "#")
	path, _, _ = strings.Cut(path, "?")
	if !strings.HasPrefix(path, "/") {
		// [Goblin](monster) or [Goblin](monster#MM): the kind, named by text.
		if isKindName(path) && strings.TrimSpace(text) != "" {
			return AppLink{Kind: LinkEntity, EntityKind: path, Slug: core.Slugify(text)}
		}
		return AppLink{Kind: LinkOther}
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, p := range parts {
		if u, err := url.PathUnescape(p); err == nil {
			parts[i] = u
		}
	}
	if len(parts) > 0 && servedFolders[parts[0]] {
		return AppLink{Kind: LinkFile}
	}
	l := AppLink{Fragment: fragment}
	if len(parts) == 4 && (parts[0] == "module" || parts[0] == "campaign") && parts[1] != "" && parts[3] != "" {
		l.ScopeKind, l.Scope = parts[0], parts[1]
		parts = parts[2:]
	}
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return AppLink{Kind: LinkOther}
	}
	if kind, ok := libraryKinds[parts[0]]; ok {
		if kind == LinkOther || len(parts) > 2 {
			return AppLink{Kind: LinkOther}
		}
		l.Kind, l.Slug = kind, parts[1]
		return l
	}
	if len(parts) == 2 && l.ScopeKind == "" && isKindName(parts[0]) {
		l.Kind, l.EntityKind, l.Slug = LinkEntity, parts[0], parts[1]
		return l
	}
	return AppLink{Kind: LinkOther}
}

// isKindName reports whether s can be an entity kind: [a-z][a-z0-9_]*.
func isKindName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
