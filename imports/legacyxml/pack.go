package legacyxml

import "io"

// Pack is a legacy pack.xml: a set of assets (images to place as tiles),
// ordered in groups.
type Pack struct {
	Header
	Groups []*Group
	Assets []Asset
	Other  []*Element
}

// ReadPack reads a pack.xml.
func ReadPack(r io.Reader, file string, lim Limits) (*Pack, error) {
	root, err := readRoot(r, file, lim, "pack")
	if err != nil {
		return nil, err
	}
	v := &values{file: file}
	p := &Pack{Header: readHeader(root)}
	for _, c := range root.Children {
		if p.Header.read(v, c) {
			continue
		}
		switch c.Name {
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
