package systems

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/scripting"
	"github.com/vttapp/companion/templates"
)

// kindOf returns the kind of an entity or a KindInvalid error.
func (s *System) kindOf(e *core.Entity) (*Kind, error) {
	if e == nil {
		return nil, core.Invalidf("no entity given")
	}
	k, ok := s.byName[e.Kind]
	if !ok {
		if e.Kind == "" {
			return nil, core.Invalidf("entity %q has no kind", e.Name)
		}
		return nil, core.Invalidf("entity %q has kind %q, which system %s does not declare", e.Name, e.Kind, s.manifest.ID)
	}
	return k, nil
}

// ListRow returns the schema=list row of an entity, or the schema=basic row
// when basic is set: {"id","kind","name","slug"} plus, for list rows, each
// filter key present in data. Cached per (system version, id, revision).
func (s *System) ListRow(_ context.Context, e *core.Entity, basic bool) ([]byte, error) {
	k, err := s.kindOf(e)
	if err != nil {
		return nil, err
	}
	variant := byte('l')
	if basic {
		variant = 'b'
	}
	key := cacheKey{id: e.ID, revision: e.Revision, variant: variant, redacted: e.Redacted}
	if cacheable(e.Revision) {
		if ce, ok := s.rowCache.get(key); ok {
			return copyBytes(ce.bytes), nil
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	writeJSON(&b, e.ID)
	b.WriteString(`,"kind":`)
	writeJSON(&b, e.Kind)
	b.WriteString(`,"name":`)
	writeJSON(&b, e.Name)
	b.WriteString(`,"slug":`)
	writeJSON(&b, e.Slug)
	if !basic {
		for _, f := range k.Filters {
			v, ok := e.Data[f]
			if !ok {
				continue
			}
			b.WriteByte(',')
			writeJSON(&b, f)
			b.WriteByte(':')
			if err := writeValue(&b, v); err != nil {
				return nil, core.Invalidf("entity %q: data.%s cannot be written as JSON: %v", e.Name, f, err)
			}
		}
		// The art a picker shows beside the row (the host console places
		// tokens from these lists): the token image, else the portrait.
		if img := cmp.Or(e.Token, e.Image); img != "" {
			b.WriteString(`,"image":`)
			writeJSON(&b, img)
		}
	}
	b.WriteByte('}')
	out := b.Bytes()
	if cacheable(e.Revision) {
		s.rowCache.put(&cacheEntry{key: key, bytes: out})
		return copyBytes(out), nil
	}
	return out, nil
}

func writeJSON(b *bytes.Buffer, s string) {
	_ = writeValue(b, s) // a string always marshals
}

// writeValue writes v as JSON without the HTML escaping of encoding/json
// ("&" stays "&"): the output is data, read by programs and in golden files.
func writeValue(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode ends with a newline
	return nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := writeValue(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// View returns the schema=view JSON of an entity: the table its kind's Lua
// view returns, with id, kind, name and slug added when the view does not
// set them. Cached per (system version, id, revision).
func (s *System) View(ctx context.Context, e *core.Entity) ([]byte, error) {
	ce, err := s.view(ctx, e, nil)
	if err != nil {
		return nil, err
	}
	if !cacheable(e.Revision) {
		// Never cached (view only reads and fills the cache for a
		// cacheable revision): the bytes were made for this call alone.
		return ce.bytes, nil
	}
	return copyBytes(ce.bytes), nil
}

// ViewValue is View as a decoded JSON value (a fresh copy).
func (s *System) ViewValue(ctx context.Context, e *core.Entity) (map[string]any, error) {
	ce, err := s.view(ctx, e, nil)
	if err != nil {
		return nil, err
	}
	v, err := scripting.DecodeJSON(ce.bytes)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}

// view returns the cached view of e, or renders it. m is e's model when
// the caller has it: a page, which then needs the view as a value too.
// Without m only the JSON is made (straight from the Lua table); the value
// follows from it if a page asks later (cacheEntry.templateValue).
func (s *System) view(ctx context.Context, e *core.Entity, m map[string]any) (*cacheEntry, error) {
	if e == nil {
		return nil, core.Invalidf("no entity given")
	}
	// The cache first: only an entity of a known kind was ever cached.
	key := cacheKey{id: e.ID, revision: e.Revision, variant: 'v', redacted: e.Redacted}
	if cacheable(e.Revision) {
		if ce, ok := s.viewCache.get(key); ok {
			return ce, nil
		}
	}
	k, err := s.kindOf(e)
	if err != nil {
		return nil, err
	}
	wantValue := m != nil
	arg := m
	if arg == nil {
		if arg, err = viewArg(e); err != nil {
			return nil, err
		}
	}
	// The fields every view has; the Lua table may set its own.
	defaults := [...]scripting.Default{{Key: "id", Value: arg["id"]}, {Key: "kind", Value: arg["kind"]}, {Key: "name", Value: arg["name"]}, {Key: "slug", Value: arg["slug"]}}
	data, v, err := s.rt.CallJSON(ctx, k.Name, "view", arg, defaults[:], wantValue)
	if err != nil {
		return nil, scriptFailure(err)
	}
	ce := &cacheEntry{key: key, bytes: data}
	if v != nil {
		// The page template reads the view as it is: its nulls are
		// already templates.Null (scripting.Options.Null).
		ce.value = v
	}
	if cacheable(e.Revision) {
		s.viewCache.put(ce)
	}
	return ce, nil
}

// scriptFailure reports a located script error as the server's failure,
// not the client's: a KindInternal core error (500 over HTTP, logged with
// its cause by the transport) whose text is "system script: file:line:
// message" for the log and the system's author, while a player is told
// only the generic "internal error" (core.MessageOf).
func scriptFailure(err error) error {
	if _, ok := err.(*scripting.ScriptError); ok {
		return &core.Error{Kind: core.KindInternal, Err: &systemFailure{"system script: ", err}}
	}
	return err
}

// systemFailure prefixes a script or template error with where it comes
// from. A template that fails while rendering is the system's fault too.
type systemFailure struct {
	prefix string
	err    error
}

func (e *systemFailure) Error() string { return e.prefix + e.err.Error() }
func (e *systemFailure) Unwrap() error { return e.err }

// RenderPage renders the reference page of an entity: its kind's template
// with {entity, view, system}, wrapped in the built-in layout with the
// theme CSS. Cached per (system version, id, revision).
func (s *System) RenderPage(ctx context.Context, e *core.Entity) ([]byte, error) {
	k, err := s.kindOf(e)
	if err != nil {
		return nil, err
	}
	key := cacheKey{id: e.ID, revision: e.Revision, variant: 'p', redacted: e.Redacted}
	if cacheable(e.Revision) {
		if ce, ok := s.pageCache.get(key); ok {
			return copyBytes(ce.bytes), nil
		}
	}
	body, err := s.RenderBody(ctx, e)
	if err != nil {
		return nil, err
	}
	css := make([]string, 0, 2)
	if s.themeCSS != "" {
		css = append(css, s.themeCSS)
	}
	if kc := s.kindCSS[k.Name]; kc != "" {
		css = append(css, kc)
	}
	page := templates.Page(templates.PageData{Title: e.Name, System: s.manifest.Name, Kind: k.Name, CSS: css, Body: body})
	if cacheable(e.Revision) {
		s.pageCache.put(&cacheEntry{key: key, bytes: page})
		return copyBytes(page), nil
	}
	return page, nil
}

// RenderContentPage wraps a module page's body (HTML the core has
// sanitised) in the reference page layout: the built-in page style, then
// the system's theme.css and theme/page.css, so pages look like the
// system's entity pages.
func (s *System) RenderContentPage(title string, body []byte) []byte {
	css := []string{templates.PageCSS}
	if s.themeCSS != "" {
		css = append(css, s.themeCSS)
	}
	if s.pageCSS != "" {
		css = append(css, s.pageCSS)
	}
	return templates.Page(templates.PageData{Title: title, System: s.manifest.Name, Kind: "page", CSS: css, Body: body})
}

// RenderBody renders only the kind's template (no layout): the HTML
// fragment of schema=view HTML.
func (s *System) RenderBody(ctx context.Context, e *core.Entity) ([]byte, error) {
	k, err := s.kindOf(e)
	if err != nil {
		return nil, err
	}
	// The page's model has its nulls marked for the template as it is
	// built; the view reads a marked null as null.
	m, err := pageModel(e)
	if err != nil {
		return nil, err
	}
	ce, err := s.view(ctx, e, m)
	if err != nil {
		return nil, err
	}
	view, err := ce.templateValue()
	if err != nil {
		return nil, core.Internal(err)
	}
	tctx := map[string]any{
		"entity": m, // ours: built above, only read by the view
		"view":   view,
		"system": s.systemValue,
	}
	body, err := s.pages[k.Name].Render(tctx)
	if err != nil {
		return nil, &core.Error{Kind: core.KindInternal, Err: &systemFailure{"system template: ", err}}
	}
	return body, nil
}

// References returns the "kind.slug" references an entity names, through
// its kind's references function (none when the kind declares none).
// Cached per (system version, id, revision).
func (s *System) References(ctx context.Context, e *core.Entity) ([]string, error) {
	k, err := s.kindOf(e)
	if err != nil {
		return nil, err
	}
	if !k.HasReferences {
		return []string{}, nil
	}
	key := cacheKey{id: e.ID, revision: e.Revision, variant: 'r', redacted: e.Redacted}
	if cacheable(e.Revision) {
		if ce, ok := s.rowCache.get(key); ok {
			return append([]string{}, ce.refs...), nil
		}
	}
	m, err := model(e)
	if err != nil {
		return nil, err
	}
	v, err := s.rt.Call(ctx, k.Name, "references", m)
	if err != nil {
		return nil, scriptFailure(err)
	}
	file, line := s.rt.FuncPos(k.Name, "references")
	bad := func(msg string) error {
		return scriptFailure(&scripting.ScriptError{Problem: scripting.Problem{File: file, Line: line,
			Message: fmt.Sprintf("the references function of %q %s", k.Name, msg)}})
	}
	refs := []string{}
	switch list := v.(type) {
	case nil:
	case []any:
		for _, item := range list {
			ref, ok := item.(string)
			if !ok {
				return nil, bad(fmt.Sprintf("returned %v; it must return a list of \"kind.slug\" strings", item))
			}
			kind, slug, found := strings.Cut(ref, ".")
			if !found || kind == "" || slug == "" {
				return nil, bad(fmt.Sprintf("returned %q; a reference is written \"kind.slug\"", ref))
			}
			refs = append(refs, ref)
		}
	case map[string]any:
		if len(list) != 0 {
			return nil, bad("returned a table of named values; it must return a list of \"kind.slug\" strings")
		}
	default:
		return nil, bad(fmt.Sprintf("returned %v; it must return a list of \"kind.slug\" strings", v))
	}
	if cacheable(e.Revision) {
		s.rowCache.put(&cacheEntry{key: key, refs: refs})
		return append([]string{}, refs...), nil
	}
	return refs, nil
}
