package pages

import (
	"github.com/vttapp/companion/core"
)

// pageAccess is what players may read of one page given the shows: all of
// it (whole), some sections, or nothing (neither).
func pageAccess(shows []core.PageShow, pageID string) (whole bool, sections []string) {
	for _, s := range shows {
		if s.PageID != pageID {
			continue
		}
		if s.Section == "" {
			return true, nil
		}
		sections = append(sections, s.Section)
	}
	return false, sections
}

// ShownState is pageAccess as the library tree says it: "page" with no
// sections, "sections" with their ids, or "".
func ShownState(shows []core.PageShow, pageID string) (string, []string) {
	whole, sections := pageAccess(shows, pageID)
	switch {
	case whole:
		return "page", nil
	case len(sections) > 0:
		return "sections", sections
	}
	return "", nil
}
