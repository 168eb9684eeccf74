package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// firstRunMarker is written into a fresh data folder before its demo
// content is seeded and removed once seeding is done. Found at a start, it
// says an earlier first start stopped half-way (a crash, a closed window):
// what that start wrote is removed and the folder is seeded afresh, so a
// data folder is never left half-seeded (a module without its campaign).
// It lists the entries modules/ and campaigns/ held before, which are kept.
const firstRunMarker = ".first-run"

// dataFolder is the data folder being opened.
type dataFolder struct {
	dir     string
	created bool // the folder did not exist before this start
	fresh   bool // no store yet: the demo content is to be seeded
	before  firstRunState
}

type firstRunState struct {
	Modules   []string `json:"modules"`
	Campaigns []string `json:"campaigns"`
}

// openDataFolder creates the data folder and its served folders, and tells
// whether it is fresh. seed says whether a fresh folder will be seeded (not
// with --empty): only then is the marker written.
func openDataFolder(dir string, seed bool, notes func(string)) (*dataFolder, error) {
	d := &dataFolder{dir: dir}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		d.created = true
	}
	if data, err := os.ReadFile(filepath.Join(dir, firstRunMarker)); err == nil {
		var before firstRunState
		if err := json.Unmarshal(data, &before); err != nil {
			return nil, fmt.Errorf("data folder: %s is damaged (%v); remove it and companion.db to start afresh", firstRunMarker, err)
		}
		notes("An earlier first start stopped before the demo content was in place: starting afresh.")
		d.before = before
		if err := d.undo(); err != nil {
			return nil, err
		}
	}
	for _, sub := range append([]string{""}, dataFolders...) {
		if err := makeFolder(filepath.Join(dir, sub)); err != nil {
			return nil, err
		}
	}
	_, err := os.Stat(filepath.Join(dir, "companion.db"))
	d.fresh = errors.Is(err, fs.ErrNotExist)
	if d.fresh && seed {
		d.before = firstRunState{Modules: entries(filepath.Join(dir, "modules")), Campaigns: entries(filepath.Join(dir, "campaigns"))}
		data, _ := json.Marshal(d.before)
		if err := os.WriteFile(filepath.Join(dir, firstRunMarker), data, 0o644); err != nil {
			return nil, fmt.Errorf("data folder: %w", err)
		}
	}
	return d, nil
}

// makeFolder makes a folder of the data folder (and the folders above it),
// with an error a person can act on: the raw one names mkdir and a path
// element, not what is wrong.
func makeFolder(dir string) error {
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		return nil
	}
	// The first element of the path that exists and is not a folder.
	for p := dir; ; p = filepath.Dir(p) {
		if info, serr := os.Stat(p); serr == nil && !info.IsDir() {
			return fmt.Errorf("the data folder cannot be made: %s is a file, not a folder (give another folder with --data)", p)
		}
		if next := filepath.Dir(p); next == p {
			break
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("the data folder %s cannot be made: permission denied (give a folder you may write with --data)", dir)
	}
	return fmt.Errorf("the data folder %s cannot be made: %v", dir, errors.Unwrap(err))
}

// seeded records that the first start finished.
func (d *dataFolder) seeded() error {
	err := os.Remove(filepath.Join(d.dir, firstRunMarker))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// undo removes what a first start wrote: the whole folder when it made it,
// else the store and the modules and campaigns that were not there before.
// The store must be closed.
func (d *dataFolder) undo() error {
	if d.created {
		return os.RemoveAll(d.dir)
	}
	for _, name := range []string{"companion.db", "companion.db-wal", "companion.db-shm", "companion.db-journal"} {
		if err := os.Remove(filepath.Join(d.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for sub, keep := range map[string][]string{"modules": d.before.Modules, "campaigns": d.before.Campaigns} {
		for _, name := range entries(filepath.Join(d.dir, sub)) {
			if !slices.Contains(keep, name) {
				if err := os.RemoveAll(filepath.Join(d.dir, sub, name)); err != nil {
					return err
				}
			}
		}
	}
	err := os.Remove(filepath.Join(d.dir, firstRunMarker))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func entries(dir string) []string {
	list, _ := os.ReadDir(dir)
	out := []string{}
	for _, e := range list {
		out = append(out, e.Name())
	}
	return out
}
