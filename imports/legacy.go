package imports

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vttapp/companion/core"
	"github.com/vttapp/companion/imports/content"
	"github.com/vttapp/companion/imports/legacy"
	"github.com/vttapp/companion/imports/legacyxml"
)

// The legacy XML formats: an archive whose root holds compendium.xml,
// module.xml, campaign.xml or pack.xml, or a bare XML file of one of them.
// The installer tells them apart and stages them here; package legacy
// reads them (compendiums in its compendium.go; modules, campaigns and
// packs in its module.go).

// contentRoot reports what a content folder is from the files at its
// root, and for a legacy archive the name of its XML root file.
func contentRoot(fsys fs.FS) (kind, xmlFile string, err error) {
	kind, err = content.RootKind(fsys)
	if err != nil {
		return "", "", err
	}
	roots, err := legacyxml.FindRootFiles(fsys)
	if err != nil {
		return "", "", core.Internal(err)
	}
	switch {
	case len(roots) == 0:
		return kind, "", nil
	case len(roots) > 1:
		return "", "", core.Invalidf("the archive has %s at its root; it must have only one of them", strings.Join(roots, " and "))
	case kind != KindCollection:
		return "", "", core.Invalidf("the archive has both %s.json and %s at its root; it must have only one root file", kind, roots[0])
	}
	if jsons, _ := fs.Glob(fsys, "*.json"); len(jsons) > 0 {
		return "", "", core.Invalidf("the archive has %s and %s at its root; a legacy archive holds its XML file and the files it names", roots[0], strings.Join(jsons, ", "))
	}
	switch strings.ToLower(roots[0]) {
	case legacyxml.CompendiumFile:
		return legacy.KindCompendium, roots[0], nil
	case legacyxml.ModuleFile:
		return legacy.KindModule, roots[0], nil
	case legacyxml.CampaignFile:
		return legacy.KindCampaign, roots[0], nil
	default:
		return legacy.KindPack, roots[0], nil
	}
}

// installXMLFile installs a bare XML file: a compendium, or a module,
// campaign or pack without the files it names (staged as an archive
// holding only its root file).
func (in *Installer) installXMLFile(ctx context.Context, path, name, root string, opt InstallOptions) (Result, error) {
	switch root {
	case "compendium":
	case "module", "campaign", "pack":
		dir, err := in.site.NewStage()
		if err != nil {
			return Result{}, err
		}
		if err := copyFile(path, filepath.Join(dir, root+".xml")); err != nil {
			os.RemoveAll(dir)
			return Result{}, core.Internal(err)
		}
		if opt.Name == "" {
			opt.Name = name
		}
		return in.installStaged(ctx, dir, opt)
	case "":
		// The root was beyond the bytes sniffed, or there is none: the
		// reader says which.
	default:
		return Result{}, core.Invalidf("unsupported XML file '%s': its root element is <%s>; Companion imports compendium XML (<compendium>) and legacy <module>, <campaign> and <pack> documents", filepath.Base(name), root)
	}
	if opt.Expect != "" && opt.Expect != KindModule {
		return Result{}, core.Invalidf("the package says it is a %s, but the download is a compendium", opt.Expect)
	}
	file := filepath.Base(name)
	if file == "" || file == "." || file == string(filepath.Separator) {
		file = "compendium.xml"
	}
	src := legacy.Source{File: file, Name: name, Open: openFile(path)}
	step, err := legacy.CompendiumStep(ctx, &in.site, src, opt)
	if err != nil {
		return Result{}, err
	}
	// The module's folder: empty, as a bare file brings no images.
	dir, err := in.site.NewStage()
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

// copyFile copies a file's bytes to a new file.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
