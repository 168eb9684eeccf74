package export

import (
	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/pagehtml"
)

// The library's parts of an export: pages, encounters, groups, assets and
// random tables, each the file the installer reads back (package content,
// library.go). Without them a module exported from an adventure came back
// as its maps alone.

func (w *exportWriter) pages() error {
	list, err := w.tx.Pages(core.PageQuery{Owner: w.owner, Content: true})
	if err != nil {
		return err
	}
	out := make([]*core.Page, 0, len(list))
	for _, p := range list {
		c := *p
		c.Content = w.relativePage(c.Format, c.Content)
		out = append(out, &c)
	}
	return writeLibraryArray(w, content.PagesFile, out)
}

func (w *exportWriter) encounters() error {
	list, err := w.tx.Encounters(w.owner)
	if err != nil {
		return err
	}
	for _, e := range list {
		for _, c := range e.Combatants {
			if c.EntityID != "" {
				w.links[c.EntityID] = true
			}
		}
	}
	return writeLibraryArray(w, content.EncountersFile, list)
}

func (w *exportWriter) groups() error {
	list, err := w.tx.Groups(w.owner)
	if err != nil {
		return err
	}
	return writeLibraryArray(w, content.GroupsFile, list)
}

func (w *exportWriter) assets() error {
	list, err := w.tx.Assets(w.owner)
	if err != nil {
		return err
	}
	out := make([]*core.Asset, 0, len(list))
	for _, a := range list {
		c := *a
		c.Resource = w.relative(c.Resource, false)
		out = append(out, &c)
	}
	return writeLibraryArray(w, content.AssetsFile, out)
}

// writeLibraryArray writes list as the archive file name; an empty list
// writes no file, as the installer treats a missing file as none.
func writeLibraryArray[T any](w *exportWriter, name string, list []T) error {
	if len(list) == 0 {
		return nil
	}
	a, err := w.array(name)
	if err != nil {
		return err
	}
	defer a.abandon()
	for _, v := range list {
		if err := a.add(v); err != nil {
			return err
		}
	}
	return a.close()
}

// relativePage turns the URLs of the owner's own files in a page (what
// the installer made of the archive's relative paths) back into paths
// inside the archive, so that the archive stands on its own.
func (w *exportWriter) relativePage(format, text string) string {
	if format == core.PageMarkdown {
		return content.MarkdownTarget.ReplaceAllStringFunc(text, func(m string) string {
			sub := content.MarkdownTarget.FindStringSubmatch(m)
			return sub[1] + w.relative(sub[2], false)
		})
	}
	doc := pagehtml.Parse(text)
	doc.RewriteImages(func(src string) (string, bool) { return w.relative(src, false), true })
	doc.RewriteLinks(func(href, _ string) pagehtml.Link { return pagehtml.Link{Href: w.relative(href, false)} })
	return doc.HTML()
}

func (w *exportWriter) tables() error {
	list, err := w.tx.Tables(w.owner)
	if err != nil {
		return err
	}
	return writeLibraryArray(w, content.TablesFile, list)
}
