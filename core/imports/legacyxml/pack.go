package legacyxml

import "io"

// Pack is a legacy pack.xml: a set of assets (images to place as tiles),
// ordered in groups.
type Pack struct {
	ID, Sort, Version string
	Name, Slug        string
	Description       string
	Author, Code      string
	Category          string
	Image             string
	Groups            []*Group
	Assets            []Asset
	Other             []*Element
}

// ReadPack reads a pack.xml.
func ReadPack(r io.Reader, file string, lim Limits) (*Pack, error) {
	root, err := readRoot(r, file, lim, "pack")
	if err != nil {
		return nil, err
	}
	v := &values{file: file}
	p := &Pack{ID: root.Attr("id"), Sort: root.Attr("sort"), Version: root.Attr("version")}
	for _, c := range root.Children {
		switch c.Name {
		case "name":
			p.Name = v.text(c)
		case "slug":
			p.Slug = v.text(c)
		case "description", "descr":
			p.Description = v.text(c)
		case "author":
			p.Author = v.text(c)
		case "code":
			p.Code = v.text(c)
		case "category":
			p.Category = v.text(c)
		case "image":
			p.Image = v.text(c)
		case "asset":
			p.Assets = append(p.Assets, readAsset(v, c))
		case "group":
			p.readGroup(v, c, "")
		default:
			p.Other = append(p.Other, c)
		}
	}
	if v.err != nil {
		return nil, v.err
	}
	return p, nil
}

// readGroup files a group of a pack and the assets and groups inside it.
func (p *Pack) readGroup(v *values, el *Element, parent string) {
	g := &Group{ID: el.Attr("id"), Parent: first(el.Attr("parent"), parent), Sort: el.Attr("sort")}
	p.Groups = append(p.Groups, g)
	for _, c := range el.Children {
		switch c.Name {
		case "name":
			g.Name = v.text(c)
		case "slug":
			g.Slug = v.text(c)
		case "asset":
			a := readAsset(v, c)
			a.Parent = first(a.Parent, g.ID)
			p.Assets = append(p.Assets, a)
		case "group":
			p.readGroup(v, c, g.ID)
		default:
			g.Other = append(g.Other, c)
		}
	}
}
