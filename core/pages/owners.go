package pages

import (
	"github.com/vttapp/companion/core"
)

// OwnerOf reads the module or campaign with that id.
func OwnerOf(tx Store, id string) (core.ContentOwner, error) {
	if m, err := tx.Module(id); err == nil {
		return core.ContentOwner{Kind: core.OwnerModule, ID: m.ID, Name: m.Name, Slug: m.Slug}, nil
	} else if !core.IsNotFound(err) {
		return core.ContentOwner{}, err
	}
	if c, err := tx.Campaign(id); err == nil {
		return core.ContentOwner{Kind: core.OwnerCampaign, ID: c.ID, Name: c.Name, Slug: c.Slug}, nil
	} else if !core.IsNotFound(err) {
		return core.ContentOwner{}, err
	}
	return core.ContentOwner{}, core.NotFoundf("no module or campaign with id '%s'", core.Clip(id))
}

// ownersAt lists the modules (or campaigns) a URL's segment names: by id,
// else by slug (several may share one).
func ownersAt(tx Store, kind, slugOrID string) ([]core.ContentOwner, error) {
	var out []core.ContentOwner
	if kind == core.OwnerModule {
		list, err := tx.Modules()
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			if m.ID == slugOrID {
				return []core.ContentOwner{{Kind: core.OwnerModule, ID: m.ID, Name: m.Name, Slug: m.Slug}}, nil
			}
			if m.Slug == slugOrID {
				out = append(out, core.ContentOwner{Kind: core.OwnerModule, ID: m.ID, Name: m.Name, Slug: m.Slug})
			}
		}
		return out, nil
	}
	list, err := tx.Campaigns()
	if err != nil {
		return nil, err
	}
	for _, c := range list {
		if c.ID == slugOrID {
			return []core.ContentOwner{{Kind: core.OwnerCampaign, ID: c.ID, Name: c.Name, Slug: c.Slug}}, nil
		}
		if c.Slug == slugOrID {
			out = append(out, core.ContentOwner{Kind: core.OwnerCampaign, ID: c.ID, Name: c.Name, Slug: c.Slug})
		}
	}
	return out, nil
}
