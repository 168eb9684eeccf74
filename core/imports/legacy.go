package imports

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/core/imports/legacyxml"
)

// The legacy XML formats: an archive whose root holds compendium.xml,
// module.xml, campaign.xml or pack.xml, or a bare compendium XML file.
// Compendiums install here (compendium.go); legacy modules, campaigns
// and packs are read (legacyxml) but their install lands with the
// module-adventure work, so they are refused with that said.

// contentRoot reports what a content folder is from the files at its
// root, and for a legacy archive the name of its XML root file.
func contentRoot(fsys fs.FS) (kind, xmlFile string, err error) {
	kind, err = rootKind(fsys)
	if err != nil {
		return "", "", err
	}
	legacy, err := legacyxml.FindRootFiles(fsys)
	if err != nil {
		return "", "", core.Internal(err)
	}
	switch {
	case len(legacy) == 0:
		return kind, "", nil
	case len(legacy) > 1:
		return "", "", core.Invalidf("the archive has %s at its root; it must have only one of them", strings.Join(legacy, " and "))
	case kind != KindCollection:
		return "", "", core.Invalidf("the archive has both %s.json and %s at its root; it must have only one root file", kind, legacy[0])
	}
	switch strings.ToLower(legacy[0]) {
	case legacyxml.CompendiumFile:
		if jsons, _ := fs.Glob(fsys, "*.json"); len(jsons) > 0 {
			return "", "", core.Invalidf("the archive has %s and %s at its root; a compendium archive holds compendium.xml and its images", legacy[0], strings.Join(jsons, ", "))
		}
		return KindCompendium, legacy[0], nil
	default:
		return "", "", legacyNotInstalled(strings.TrimSuffix(strings.ToLower(legacy[0]), ".xml"))
	}
}

// legacyNotInstalled refuses a legacy module, campaign or pack.
func legacyNotInstalled(root string) error {
	what := map[string]string{"module": "module (module.xml)", "campaign": "campaign (campaign.xml)", "pack": "asset pack (pack.xml)"}[root]
	if what == "" {
		what = "document <" + root + ">"
	}
	return core.Invalidf("this is a legacy Encounter+ %s; Companion reads it but cannot install it yet (compendiums, .compendium archives and compendium XML, install today)", what)
}

// installXMLFile installs a bare XML file: a compendium.
func (in *Installer) installXMLFile(ctx context.Context, path, name, root string, opt InstallOptions) (Result, error) {
	switch root {
	case "compendium":
	case "module", "campaign", "pack":
		return Result{}, legacyNotInstalled(root)
	case "":
		// The root was beyond the bytes sniffed, or there is none: the
		// reader says which.
	default:
		return Result{}, core.Invalidf("unsupported XML file '%s': its root element is <%s>; Companion imports compendium XML (<compendium>)", filepath.Base(name), root)
	}
	if opt.Expect != "" && opt.Expect != KindModule {
		return Result{}, core.Invalidf("the package says it is a %s, but the download is a compendium", opt.Expect)
	}
	file := filepath.Base(name)
	if file == "" || file == "." || file == string(filepath.Separator) {
		file = "compendium.xml"
	}
	src := compendiumSource{file: file, name: name, open: openFile(path)}
	step, err := in.compendiumStep(ctx, src, opt)
	if err != nil {
		return Result{}, err
	}
	// The module's folder: empty, as a bare file brings no images.
	dir, err := in.newStage()
	if err != nil {
		return Result{}, err
	}
	return in.commitStaged(ctx, dir, step)
}

// openFile opens a file on disk for a compendium source.
func openFile(path string) func() (io.ReadCloser, int64, error) {
	return func() (io.ReadCloser, int64, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, err
		}
		info, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, info.Size(), nil
	}
}
